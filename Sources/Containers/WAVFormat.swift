import MediaCore

/// The `fmt ` chunk of a WAV file (Microsoft `WAVEFORMATEX` / `WAVEFORMATEXTENSIBLE`), restricted to
/// what StreamKit reads and writes: 16-bit PCM and 32-bit IEEE float, plain or extensible.
public struct WAVFormat: Sendable, Hashable {
    /// `WAVE_FORMAT_PCM`.
    public static let pcmTag: UInt16 = 0x0001
    /// `WAVE_FORMAT_IEEE_FLOAT`.
    public static let floatTag: UInt16 = 0x0003
    /// `WAVE_FORMAT_EXTENSIBLE`: the real format is in the sub-format GUID.
    public static let extensibleTag: UInt16 = 0xFFFE
    /// The last 12 bytes of every `KSDATAFORMAT_SUBTYPE_*` GUID of a WAVE format tag
    /// (`xxxxxxxx-0000-0010-8000-00AA00389B71`, stored little-endian).
    public static let subformatGUIDSuffix: [UInt8] = [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]

    /// `wFormatTag` as stored (1, 3 or 0xFFFE).
    public var formatTag: UInt16
    /// `nChannels`.
    public var channelCount: Int
    /// `nSamplesPerSec`.
    public var sampleRate: Int
    /// `nAvgBytesPerSec` as stored (not relied on).
    public var byteRate: Int
    /// `nBlockAlign`: bytes per sample frame (all channels).
    public var blockAlign: Int
    /// `wBitsPerSample`.
    public var bitsPerSample: Int
    /// `wValidBitsPerSample` of an extensible format.
    public var validBitsPerSample: Int?
    /// `dwChannelMask` of an extensible format.
    public var channelMask: UInt32?
    /// How the samples are stored.
    public var sampleFormat: SampleFormat

    /// Whether the chunk is `WAVE_FORMAT_EXTENSIBLE`.
    public var isExtensible: Bool { formatTag == Self.extensibleTag }

    /// Parses a `fmt ` chunk (Microsoft RIFF WAVE: `WAVEFORMATEX`, and `WAVEFORMATEXTENSIBLE` with
    /// `cbSize` ≥ 22 and a `KSDATAFORMAT_SUBTYPE_PCM`/`_IEEE_FLOAT` sub-format).
    /// - Parameters:
    ///   - chunk: the chunk's payload (after its 8-byte header).
    ///   - byteOffset: the file offset of the payload, for errors.
    /// - Returns: the format.
    /// - Throws: ``WAVError`` naming the format tag, the bit depth, or the field that is wrong.
    public static func parse(_ chunk: [UInt8], byteOffset: Int) throws(WAVError) -> WAVFormat {
        guard chunk.count >= 16 else { throw .formatChunkTooShort(byteOffset: byteOffset, size: chunk.count, needed: 16) }
        let tag = UInt16(littleEndian16(chunk, 0))
        var format = WAVFormat(formatTag: tag, channelCount: littleEndian16(chunk, 2), sampleRate: littleEndian32(chunk, 4),
                               byteRate: littleEndian32(chunk, 8), blockAlign: littleEndian16(chunk, 12),
                               bitsPerSample: littleEndian16(chunk, 14), validBitsPerSample: nil, channelMask: nil,
                               sampleFormat: .int16)
        var effectiveTag = tag
        if tag == extensibleTag {
            guard chunk.count >= 40 else { throw .formatChunkTooShort(byteOffset: byteOffset, size: chunk.count, needed: 40) }
            let extra = littleEndian16(chunk, 16)
            guard extra >= 22 else {
                throw .invalidFormatField(field: "cbSize", value: extra, byteOffset: byteOffset + 16,
                                          reason: "an extensible format needs at least 22 extra bytes")
            }
            format.validBitsPerSample = littleEndian16(chunk, 18)
            format.channelMask = UInt32(littleEndian32(chunk, 20))
            let guid = Array(chunk[24..<40])
            let code = littleEndian32(chunk, 24)
            guard Array(guid[4...]) == subformatGUIDSuffix, code <= 0xFFFF else {
                throw .unsupportedSubformat(guid: guid, byteOffset: byteOffset + 24)
            }
            effectiveTag = UInt16(code)
        }
        switch (effectiveTag, format.bitsPerSample) {
        case (pcmTag, 16): format.sampleFormat = .int16
        case (floatTag, 32): format.sampleFormat = .float32
        case (pcmTag, _), (floatTag, _):
            throw .unsupportedBitDepth(formatTag: effectiveTag, bitsPerSample: format.bitsPerSample, byteOffset: byteOffset + 14)
        default:
            throw .unsupportedFormatTag(effectiveTag, name: WAVError.formatTagName(effectiveTag),
                                        byteOffset: byteOffset + (tag == extensibleTag ? 24 : 0))
        }
        guard format.channelCount >= 1 else {
            throw .invalidFormatField(field: "nChannels", value: format.channelCount, byteOffset: byteOffset + 2,
                                      reason: "at least one channel is needed")
        }
        guard (1...Int(Int32.max)).contains(format.sampleRate) else {
            throw .invalidFormatField(field: "nSamplesPerSec", value: format.sampleRate, byteOffset: byteOffset + 4,
                                      reason: "must be in 1...\(Int32.max)")
        }
        let expectedAlign = format.channelCount * format.bitsPerSample / 8
        guard format.blockAlign == expectedAlign else {
            throw .invalidFormatField(field: "nBlockAlign", value: format.blockAlign, byteOffset: byteOffset + 12,
                                      reason: "must be nChannels × wBitsPerSample / 8 = \(expectedAlign)")
        }
        if let valid = format.validBitsPerSample, valid > format.bitsPerSample {
            throw .invalidFormatField(field: "wValidBitsPerSample", value: valid, byteOffset: byteOffset + 18,
                                      reason: "must not exceed wBitsPerSample \(format.bitsPerSample)")
        }
        return format
    }

    private static func littleEndian16(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    private static func littleEndian32(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }
}
