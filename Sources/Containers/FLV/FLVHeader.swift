import Bitstream

/// The FLV file header (FLV specification v10.1, E.2): `FLV`, version 1, the audio and video flags, and
/// `DataOffset` (9: the header's own size). `PreviousTagSize0` (0) follows it in the file body (E.3).
public struct FLVHeader: Sendable, Hashable {
    /// The size of the header FLV version 1 defines.
    public static let byteCount = 9

    /// `Version` (1).
    public var version: UInt8
    /// `TypeFlagsAudio`: audio tags are present.
    public var hasAudio: Bool
    /// `TypeFlagsVideo`: video tags are present.
    public var hasVideo: Bool
    /// `DataOffset`: where the body starts (9 for version 1; a longer header is skipped).
    public var dataOffset: UInt32

    /// Creates a header.
    /// - Parameters:
    ///   - hasAudio: whether audio tags follow.
    ///   - hasVideo: whether video tags follow.
    public init(hasAudio: Bool, hasVideo: Bool) {
        version = 1
        self.hasAudio = hasAudio
        self.hasVideo = hasVideo
        dataOffset = UInt32(Self.byteCount)
    }

    /// Parses the 9 header bytes.
    /// - Parameter bytes: the file's first bytes (at least 9).
    /// - Throws: ``FLVError`` (offset in the file): ``FLVError/Reason/notFLV``,
    ///   ``FLVError/Reason/unsupportedVersion(_:)``, ``FLVError/Reason/invalidDataOffset(_:)``,
    ///   ``FLVError/Reason/truncated(field:)``.
    public init(parsing bytes: ByteView) throws(FLVError) {
        guard bytes.count >= 3 else { throw FLVError(.truncated(field: "Signature"), offset: 0) }
        guard bytes.getByte(at: 0) == 0x46, bytes.getByte(at: 1) == 0x4C, bytes.getByte(at: 2) == 0x56 else {
            throw FLVError(.notFLV, offset: 0)
        }
        guard let version = bytes.getByte(at: 3) else { throw FLVError(.truncated(field: "Version"), offset: 3) }
        guard version == 1 else { throw FLVError(.unsupportedVersion(version), offset: 3) }
        guard let flags = bytes.getByte(at: 4) else { throw FLVError(.truncated(field: "TypeFlags"), offset: 4) }
        guard let dataOffset = bytes.getInteger(at: 5, as: UInt32.self) else { throw FLVError(.truncated(field: "DataOffset"), offset: 5) }
        guard dataOffset >= UInt32(Self.byteCount) else { throw FLVError(.invalidDataOffset(dataOffset), offset: 5) }
        self.version = version
        hasAudio = flags & 0x04 != 0
        hasVideo = flags & 0x01 != 0
        self.dataOffset = dataOffset
    }

    /// The 9 header bytes (with `DataOffset` 9, whatever was parsed).
    public var bytes: [UInt8] {
        [0x46, 0x4C, 0x56, version, (hasAudio ? 0x04 : 0) | (hasVideo ? 0x01 : 0), 0, 0, 0, 9]
    }
}
