/// The header of a PES packet (ISO/IEC 13818-1 §2.4.3.6, Table 2-21): the start code prefix, `stream_id`,
/// `PES_packet_length` and, for the stream ids that have them, the flags with PTS and DTS (§2.4.3.7).
public struct TSPESHeader: Hashable, Sendable {
    /// `stream_id` (Table 2-22): 0xE0 for the first video stream, 0xC0 for the first audio stream.
    public var streamID: UInt8
    /// `PES_packet_length`: the bytes after this field, 0 for a video packet of unbounded length.
    public var packetLength: Int
    /// `PTS`, 33 bits of 90 kHz, when present.
    public var pts: Int64?
    /// `DTS`, 33 bits of 90 kHz, when present.
    public var dts: Int64?
    /// `data_alignment_indicator`: the payload starts with an access unit (§2.4.3.7).
    public var isDataAligned: Bool
    /// The length of the header, up to the first payload byte.
    public var headerLength: Int

    /// Creates a header to write.
    /// - Parameters:
    ///   - streamID: the `stream_id`.
    ///   - pts: the presentation time, 90 kHz (reduced modulo 2^33 when written).
    ///   - dts: the decode time when it differs from `pts`.
    ///   - payloadLength: the payload's length, or `nil` for an unbounded video packet (`PES_packet_length` 0).
    ///   - isDataAligned: whether the payload starts with an access unit.
    public init(streamID: UInt8, pts: Int64?, dts: Int64?, payloadLength: Int?, isDataAligned: Bool = true) {
        self.streamID = streamID
        self.pts = pts
        self.dts = pts == nil ? nil : dts
        self.isDataAligned = isDataAligned
        let headerLength = 9 + (pts == nil ? 0 : 5) + (pts != nil && dts != nil ? 5 : 0)
        self.headerLength = headerLength
        var length = 0
        if let payloadLength { length = payloadLength + headerLength - 6 }
        packetLength = length > 0xFFFF ? 0 : length
    }

    /// The header's bytes (§2.4.3.6): flags `'10'` with `data_alignment_indicator`, `PTS_DTS_flags`, and the
    /// timestamps in the 5-byte form of §2.4.3.7.
    /// - Returns: the bytes.
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = [0, 0, 1, streamID, UInt8(packetLength >> 8), UInt8(packetLength & 0xFF)]
        let flags: UInt8 = pts == nil ? 0x00 : (dts == nil ? 0x80 : 0xC0)
        bytes += [0x80 | (isDataAligned ? 0x04 : 0), flags, UInt8(headerLength - 9)]
        if let pts { Self.appendTimestamp(pts, prefix: dts == nil ? 0x2 : 0x3, to: &bytes) }
        if let dts, pts != nil { Self.appendTimestamp(dts, prefix: 0x1, to: &bytes) }
        return bytes
    }

    /// A 33-bit timestamp in five bytes behind a 4-bit prefix, with its marker bits (§2.4.3.7).
    static func appendTimestamp(_ value: Int64, prefix: UInt8, to bytes: inout [UInt8]) {
        let time = UInt64(truncatingIfNeeded: value) & UInt64(TSPacket.timestampModulus - 1)
        bytes += [prefix << 4 | UInt8(time >> 29 & 0x0E) | 1, UInt8(time >> 22 & 0xFF), UInt8(time >> 14 & 0xFE) | 1,
                  UInt8(time >> 7 & 0xFF), UInt8(time << 1 & 0xFE) | 1]
    }

    /// A 33-bit timestamp from its five bytes (§2.4.3.7); marker bits are not checked (FFmpeg does not either).
    static func timestamp(_ bytes: ArraySlice<UInt8>) -> Int64 {
        let b = bytes.startIndex
        let high = Int64(bytes[b] >> 1 & 0x07) << 30
        let middle = (Int64(bytes[b + 1]) << 7 | Int64(bytes[b + 2] >> 1)) << 15
        return high | middle | Int64(bytes[b + 3]) << 7 | Int64(bytes[b + 4] >> 1)
    }

    /// Reads the header at the start of a PES packet (§2.4.3.6).
    /// - Parameter bytes: the packet's first bytes (at least the whole header).
    /// - Returns: the header, or `nil` when the bytes do not start a PES packet or end inside its header.
    public static func parse(_ bytes: ArraySlice<UInt8>) -> TSPESHeader? {
        let b = bytes.startIndex
        guard bytes.count >= 6, bytes[b] == 0, bytes[b + 1] == 0, bytes[b + 2] == 1 else { return nil }
        let streamID = bytes[b + 3]
        let length = Int(bytes[b + 4]) << 8 | Int(bytes[b + 5])
        var header = TSPESHeader(streamID: streamID, pts: nil, dts: nil, payloadLength: nil, isDataAligned: false)
        header.packetLength = length
        // Table 2-21: these stream ids have no optional header (padding, private 2, ECM, EMM, DSM-CC, H.222.1 E, directory).
        if [0xBC, 0xBE, 0xBF, 0xF0, 0xF1, 0xF2, 0xF8, 0xFF].contains(streamID) {
            header.headerLength = 6
            return header
        }
        guard bytes.count >= 9, bytes[b + 6] & 0xC0 == 0x80 else { return nil }
        let headerLength = 9 + Int(bytes[b + 8])
        guard bytes.count >= headerLength else { return nil }
        header.headerLength = headerLength
        header.isDataAligned = bytes[b + 6] & 0x04 != 0
        let flags = bytes[b + 7] >> 6
        if flags & 0x2 != 0, headerLength >= 14 { header.pts = timestamp(bytes[(b + 9)...]) }
        if flags == 0x3, headerLength >= 19 { header.dts = timestamp(bytes[(b + 14)...]) }
        return header
    }
}
