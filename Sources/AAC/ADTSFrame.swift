/// One ADTS frame: its parsed header and its bytes, as ``ADTSFrameScanner`` cuts them from a stream
/// (ISO/IEC 13818-7 §6.2.1 `adts_frame()`).
///
/// `bytes` is a slice of the scanner's buffer, so handing frames on does not copy them.
public struct ADTSFrame: Hashable, Sendable {
    /// The frame's header.
    public let header: ADTSHeader
    /// The whole frame, header included (`header.frameLength` bytes).
    public let bytes: ArraySlice<UInt8>
    /// Where the frame starts, in bytes from the start of the stream.
    public let byteOffset: Int
    /// The frame's position in the stream: 0 for the first frame.
    public let index: Int

    /// Creates a frame.
    /// - Parameters:
    ///   - header: the parsed header.
    ///   - bytes: the whole frame; must hold `header.frameLength` bytes.
    ///   - byteOffset: where the frame starts in the stream.
    ///   - index: the frame's index in the stream.
    /// - Throws: ``ADTSError`` with `.truncated` if `bytes` is shorter than `aac_frame_length`.
    public init(header: ADTSHeader, bytes: ArraySlice<UInt8>, byteOffset: Int, index: Int) throws(ADTSError) {
        guard bytes.count >= header.frameLength else {
            throw ADTSError(byteOffset: byteOffset, field: "adts_frame",
                            reason: .truncated(needed: header.frameLength, available: bytes.count), frameIndex: index)
        }
        self.header = header
        self.bytes = bytes.prefix(header.frameLength)
        self.byteOffset = byteOffset
        self.index = index
    }

    /// Parses one complete frame at the start of `bytes`.
    /// - Parameters:
    ///   - bytes: data starting with an ADTS header.
    ///   - byteOffset: the offset of `bytes` in the stream, for errors and ``byteOffset``.
    ///   - index: the frame's index in the stream.
    /// - Returns: the frame (its bytes are a slice of `bytes`).
    /// - Throws: ``ADTSError`` for a bad header or when `bytes` is shorter than `aac_frame_length`.
    public static func parse(_ bytes: ArraySlice<UInt8>, byteOffset: Int = 0, index: Int = 0) throws(ADTSError) -> ADTSFrame {
        let header = try ADTSHeader.parse(bytes, byteOffset: byteOffset)
        return try ADTSFrame(header: header, bytes: bytes, byteOffset: byteOffset, index: index)
    }

    /// The bytes after the header: the raw data block(s), and in a protected multi-block frame the
    /// two-byte CRC after each block.
    public var payload: ArraySlice<UInt8> { bytes.dropFirst(header.headerLength) }

    /// Each `raw_data_block()` of the frame, without its CRC.
    ///
    /// One block: the whole payload. Several blocks with CRC: cut at `raw_data_block_position[]`.
    /// Several blocks without CRC: `nil`, since only decoding the blocks finds where they end.
    public var rawDataBlocks: [ArraySlice<UInt8>]? {
        let payload = self.payload
        if header.numberOfRawDataBlocksInFrame == 0 { return [payload] }
        guard !header.protectionAbsent else { return nil }
        var starts = [0]
        starts.append(contentsOf: header.rawDataBlockPositions.map(Int.init))
        var blocks: [ArraySlice<UInt8>] = []
        blocks.reserveCapacity(starts.count)
        for (block, start) in starts.enumerated() {
            let end = block + 1 < starts.count ? starts[block + 1] : payload.count
            // The header checked the positions lie inside the payload, 2 bytes apart at least.
            let from = payload.startIndex + start
            let to = payload.startIndex + end - 2
            guard from <= to, to <= payload.endIndex else { return nil }
            blocks.append(payload[from..<to])
        }
        return blocks
    }

    /// Each block's `crc_check` of `adts_raw_data_block_error_check()`, in a protected multi-block frame.
    public var rawDataBlockCRCs: [UInt16] {
        guard !header.protectionAbsent, header.numberOfRawDataBlocksInFrame > 0, let blocks = rawDataBlocks else { return [] }
        return blocks.map { block in
            let at = block.endIndex
            guard at + 1 < bytes.endIndex else { return 0 }
            return UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
        }
    }

    /// Computes `crc_check` of a frame with one raw data block: the header bits, then the protected
    /// regions of the raw data block (ISO/IEC 13818-7 §8.3; see ``ADTSCRC`` for which regions).
    /// - Parameter protectedRegions: the regions, in bitstream order, with offsets from the first bit of
    ///   the raw data block.
    /// - Returns: the CRC.
    public func computedCRC(protectedRegions: [ADTSCRC.Region]) -> UInt16 {
        var crc = header.crcAfterHeader()
        let payload = self.payload
        for region in protectedRegions {
            let size = region.protectedBitCount ?? region.bitCount
            let fed = max(0, min(region.bitCount, size))
            crc.update(bitsOf: payload, bitOffset: region.bitOffset, bitCount: fed)
            crc.update(zeroBitCount: size - fed)
        }
        return crc.value
    }

    /// Verifies the frame's CRC.
    ///
    /// - A frame without CRC passes.
    /// - A protected frame with several blocks: the header's `crc_check` is verified (it covers the
    ///   header only); the per-block CRCs need each block's regions and are not checked here.
    /// - A protected frame with one block: `crc_check` is verified over the header and
    ///   `protectedRegions`.
    /// - Parameter protectedRegions: the protected regions of the raw data block of a single-block frame.
    /// - Throws: ``ADTSError`` with `.crcMismatch`, naming the frame.
    public func verifyCRC(protectedRegions: [ADTSCRC.Region] = []) throws(ADTSError) {
        guard let stored = header.crcCheck else { return }
        if header.numberOfRawDataBlocksInFrame > 0 {
            do {
                try header.verifyHeaderCRC()
            } catch var error {
                error.byteOffset += byteOffset
                error.frameIndex = index
                throw error
            }
            return
        }
        let computed = computedCRC(protectedRegions: protectedRegions)
        guard computed == stored else {
            throw ADTSError(byteOffset: byteOffset + header.headerLength - 2, field: "crc_check",
                            reason: .crcMismatch(stored: stored, computed: computed), frameIndex: index)
        }
    }
}
