import AAC
import MediaCore

/// The picture type of a frame, as ffprobe's `pict_type` names it.
public enum FrameType: String, Sendable, Hashable, CaseIterable {
    /// Intra.
    case i = "I"
    /// Predicted.
    case p = "P"
    /// Bi-predicted.
    case b = "B"
    /// Switching intra (H.264 Extended profile).
    case si = "SI"
    /// Switching predicted (H.264 Extended profile).
    case sp = "SP"
}

/// One NAL unit of an elementary stream, as `inspect --nal` lists it.
public struct NALUnitSummary: Sendable, Hashable {
    /// The NAL unit's position in the stream, from 0.
    public var index: Int
    /// The byte offset of its header in the file (after the start code).
    public var byteOffset: Int
    /// Its size in bytes (header and payload, start code excluded).
    public var size: Int
    /// `nal_unit_type`.
    public var type: Int
    /// The type's name, for example "IDR slice" or "SPS".
    public var typeName: String
    /// `nal_ref_idc` (H.264 only).
    public var referenceIDC: Int?
    /// `TemporalId` = `nuh_temporal_id_plus1` − 1 (H.265 only).
    public var temporalID: Int?
    /// `nuh_layer_id` (H.265 only).
    public var layerID: Int?

    /// Creates a summary.
    /// - Parameters:
    ///   - index: position in the stream.
    ///   - byteOffset: offset of the header in the file.
    ///   - size: size in bytes.
    ///   - type: `nal_unit_type`.
    ///   - typeName: the type's name.
    ///   - referenceIDC: `nal_ref_idc` for H.264.
    ///   - temporalID: the temporal id for H.265.
    ///   - layerID: the layer id for H.265.
    public init(index: Int, byteOffset: Int, size: Int, type: Int, typeName: String,
                referenceIDC: Int? = nil, temporalID: Int? = nil, layerID: Int? = nil) {
        self.index = index
        self.byteOffset = byteOffset
        self.size = size
        self.type = type
        self.typeName = typeName
        self.referenceIDC = referenceIDC
        self.temporalID = temporalID
        self.layerID = layerID
    }
}

/// One frame (access unit, or a pair of complementary fields) in decode order.
public struct FrameSummary: Sendable, Hashable {
    /// The frame's position in decode order, from 0.
    public var index: Int
    /// The slice type of the frame's first slice.
    public var type: FrameType
    /// Whether the frame is a random-access point, as ffprobe counts it: an IDR picture or a picture
    /// with a recovery point SEI (H.264: open-GOP I pictures, intra refresh), an IRAP picture (H.265).
    public var isKey: Bool
    /// The byte offset where the frame starts in the file (its first start code).
    public var byteOffset: Int
    /// The frame's size in bytes, start codes included (what ffprobe reports as the packet size).
    public var size: Int
    /// The `nal_unit_type` of every NAL unit of the frame, in order.
    public var nalTypes: [Int]
    /// The picture order count (display position within ``orderEpoch``).
    public var pictureOrderCount: Int
    /// Counts pictures that reset the picture order (IDR, MMCO 5, IRAP with NoRaslOutputFlag): frames
    /// are shown in order of (`orderEpoch`, `pictureOrderCount`).
    public var orderEpoch: Int
    /// 1 for a frame picture, 2 for a complementary field pair (1 for an unpaired field).
    public var fieldCount: Int

    /// Creates a summary.
    /// - Parameters:
    ///   - index: decode-order position.
    ///   - type: the first slice's type.
    ///   - isKey: whether it is a random-access point.
    ///   - byteOffset: where it starts.
    ///   - size: its size with start codes.
    ///   - nalTypes: its NAL unit types.
    ///   - pictureOrderCount: its POC.
    ///   - orderEpoch: its POC epoch.
    ///   - fieldCount: 1 or 2.
    public init(index: Int, type: FrameType, isKey: Bool, byteOffset: Int, size: Int, nalTypes: [Int],
                pictureOrderCount: Int, orderEpoch: Int, fieldCount: Int = 1) {
        self.index = index
        self.type = type
        self.isKey = isKey
        self.byteOffset = byteOffset
        self.size = size
        self.nalTypes = nalTypes
        self.pictureOrderCount = pictureOrderCount
        self.orderEpoch = orderEpoch
        self.fieldCount = fieldCount
    }
}

/// Something wrong in a stream: what, and where.
public struct StreamIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// The byte offset in the file where the problem lies.
    public var byteOffset: Int
    /// The index of the NAL unit (video) or frame (audio) concerned, if any.
    public var unitIndex: Int?
    /// What is wrong, for a person.
    public var message: String

    /// Creates an issue.
    /// - Parameters:
    ///   - byteOffset: where.
    ///   - unitIndex: which NAL unit or frame.
    ///   - message: what.
    public init(byteOffset: Int, unitIndex: Int? = nil, message: String) {
        self.byteOffset = byteOffset
        self.unitIndex = unitIndex
        self.message = message
    }

    /// `byte 1234 (NAL #5): SPS: level_idc: …`.
    public var description: String {
        "byte \(byteOffset)\(unitIndex.map { " (unit #\($0))" } ?? ""): \(message)"
    }
}

/// What `inspect` learns from a video elementary stream.
public struct VideoStreamReport: Sendable, Hashable {
    /// ``CodecType/h264`` or ``CodecType/hevc``.
    public var codec: CodecType
    /// The profile name of the first active SPS, as ffprobe prints it.
    public var profile: String?
    /// The level name, for example "3.1".
    public var level: String?
    /// The width after cropping.
    public var width: Int?
    /// The height after cropping.
    public var height: Int?
    /// The frame rate signalled in the VUI, if any.
    public var frameRate: Double?
    /// Every frame, in decode order.
    public var frames: [FrameSummary] = []
    /// Every NAL unit (filled when asked for).
    public var nalUnits: [NALUnitSummary] = []
    /// The number of NAL units.
    public var nalUnitCount = 0
    /// The size of the stream in bytes.
    public var byteCount = 0
    /// Problems found, in stream order.
    public var issues: [StreamIssue] = []

    /// Creates an empty report.
    /// - Parameter codec: the stream's codec.
    public init(codec: CodecType) {
        self.codec = codec
    }

    /// How many frames of each type.
    public var frameTypeCounts: [FrameType: Int] {
        frames.reduce(into: [:]) { $0[$1.type, default: 0] += 1 }
    }

    /// The distance, in frames, from each key frame to the next (the last GOP runs to the end).
    public var gopLengths: [Int] {
        let keys = frames.filter(\.isKey).map(\.index)
        guard !keys.isEmpty else { return [] }
        return zip(keys, keys.dropFirst() + [frames.count]).map { $1 - $0 }
    }

    /// The average bit rate in bits per second, when the frame rate is known.
    public var averageBitRate: Double? {
        guard let frameRate, frameRate > 0, !frames.isEmpty else { return nil }
        return Double(byteCount) * 8 * frameRate / Double(frames.count)
    }

    /// The frames in display order: by ``FrameSummary/orderEpoch`` then picture order count.
    public var framesInDisplayOrder: [FrameSummary] {
        frames.sorted { ($0.orderEpoch, $0.pictureOrderCount, $0.index) < ($1.orderEpoch, $1.pictureOrderCount, $1.index) }
    }
}

/// What `inspect` learns from an ADTS (AAC) stream.
public struct AudioStreamReport: Sendable, Hashable {
    /// The profile name, as ffprobe prints it ("LC", "HE-AAC" …).
    public var profile: String?
    /// The sampling rate in Hz.
    public var sampleRate: Int?
    /// The number of channels (nil when a PCE defines them).
    public var channelCount: Int?
    /// The number of ADTS frames.
    public var frameCount = 0
    /// The number of raw data blocks (each 1024 samples for AAC-LC).
    public var rawDataBlockCount = 0
    /// The total size in bytes.
    public var byteCount = 0
    /// The payload bytes (headers excluded).
    public var payloadByteCount = 0
    /// Bytes skipped: ID3 tags and data between frames that is not ADTS.
    public var skippedByteCount = 0
    /// Frames that carry a `crc_check` (`protection_absent` = 0).
    public var crcProtectedFrameCount = 0
    /// Protected frames whose CRC was verified: those with several raw data blocks, whose header
    /// `crc_check` covers the header alone. (In a frame with one block the CRC also covers parts of
    /// the raw data block's elements, whose extent only decoding finds; those are counted as
    /// protected, not checked.)
    public var crcCheckedFrameCount = 0
    /// Checked frames whose stored `crc_check` differs from the computed one (each is also an issue).
    public var crcMismatchCount = 0
    /// The last frame, when the stream ends inside it.
    public var truncation: ADTSTruncation?
    /// The first ``VideoStreamSummary/maximumIssues`` problems found.
    public var issues: [StreamIssue] = []
    /// How many problems were found in all.
    public var issueCount = 0

    /// Creates an empty report.
    public init() {}

    /// Records a problem, keeping the first ``VideoStreamSummary/maximumIssues``.
    mutating func record(_ issue: StreamIssue) {
        issueCount += 1
        if issues.count < VideoStreamSummary.maximumIssues { issues.append(issue) }
    }

    /// The duration in seconds (1024 samples per raw data block).
    public var duration: Double? {
        guard let sampleRate, sampleRate > 0 else { return nil }
        return Double(rawDataBlockCount * 1024) / Double(sampleRate)
    }

    /// The average bit rate in bits per second.
    public var averageBitRate: Double? {
        guard let duration, duration > 0 else { return nil }
        return Double(byteCount) * 8 / duration
    }
}

/// The result of inspecting a stream.
public enum StreamReport: Sendable, Hashable {
    /// An H.264 or H.265 Annex B stream.
    case video(VideoStreamReport)
    /// An ADTS AAC stream.
    case audio(AudioStreamReport)

    /// Every problem found.
    public var issues: [StreamIssue] {
        switch self {
        case let .video(report): return report.issues
        case let .audio(report): return report.issues
        }
    }
}
