/// An ADTS frame header: `adts_fixed_header()`, `adts_variable_header()` and, when the frame is
/// protected, `adts_error_check()` / `adts_header_error_check()` (ISO/IEC 13818-7 §6.2.1 Table 5,
/// §8.2; ISO/IEC 14496-3 §1.A.3.2).
///
/// ```
/// syncword 12 | ID 1 | layer 2 | protection_absent 1 | profile_ObjectType 2 |
/// sampling_frequency_index 4 | private_bit 1 | channel_configuration 3 | original_copy 1 | home 1 |
/// copyright_identification_bit 1 | copyright_identification_start 1 | aac_frame_length 13 |
/// adts_buffer_fullness 11 | number_of_raw_data_blocks_in_frame 2
/// [raw_data_block_position 16 × n] [crc_check 16]
/// ```
///
/// A header is always valid: it is made by ``parse(_:byteOffset:)`` or by a throwing initializer, and
/// ``serialized()`` writes back exactly the bytes it was parsed from.
public struct ADTSHeader: Hashable, Sendable, CustomStringConvertible {
    /// The `ID` bit: which standard the frame follows.
    public enum MPEGVersion: UInt8, Hashable, Sendable {
        /// `ID` = 0: MPEG-4 (ISO/IEC 14496-3); `profile_ObjectType` is the object type minus one.
        case mpeg4 = 0
        /// `ID` = 1: MPEG-2 AAC (ISO/IEC 13818-7); `profile` 0 Main, 1 LC, 2 SSR, 3 reserved.
        case mpeg2 = 1
    }

    /// The twelve-bit syncword `0xFFF`.
    public static let syncword: UInt16 = 0xFFF
    /// The length of the fixed and variable header without CRC: 7 bytes.
    public static let minimumLength = 7
    /// The largest `aac_frame_length` (13 bits).
    public static let maximumFrameLength = (1 << 13) - 1
    /// `adts_buffer_fullness` value 0x7FF: variable bit rate.
    public static let variableBitRateBufferFullness: UInt16 = 0x7FF

    /// `ID`.
    public private(set) var mpegVersion: MPEGVersion
    /// `protection_absent`: `true` when the frame carries no CRC.
    public private(set) var protectionAbsent: Bool
    /// The object type `profile_ObjectType` names (`profile_ObjectType` + 1): AAC Main, LC, SSR or LTP.
    public private(set) var audioObjectType: AudioObjectType
    /// `sampling_frequency_index`.
    public private(set) var samplingFrequencyIndex: SamplingFrequencyIndex
    /// `private_bit`.
    public private(set) var privateBit: Bool
    /// `channel_configuration` (0…7; 0 means a program config element in the raw data defines it).
    public private(set) var channelConfiguration: ChannelConfiguration
    /// `original_copy`.
    public private(set) var originalCopy: Bool
    /// `home`.
    public private(set) var home: Bool
    /// `copyright_identification_bit`.
    public private(set) var copyrightIdentificationBit: Bool
    /// `copyright_identification_start`.
    public private(set) var copyrightIdentificationStart: Bool
    /// `aac_frame_length`: the length of the whole frame in bytes, header included.
    public private(set) var frameLength: Int
    /// `adts_buffer_fullness` (11 bits); 0x7FF signals variable bit rate.
    public private(set) var bufferFullness: UInt16
    /// `number_of_raw_data_blocks_in_frame`: the frame holds this many raw data blocks plus one.
    public private(set) var numberOfRawDataBlocksInFrame: Int
    /// `raw_data_block_position[1…n]` of `adts_header_error_check()`: where blocks 1…n start, in bytes
    /// from the start of the first raw data block. Empty unless the frame is protected and holds
    /// several blocks.
    public private(set) var rawDataBlockPositions: [UInt16]
    /// `crc_check` of the header, or `nil` when `protection_absent` is set.
    public private(set) var crcCheck: UInt16?

    /// Creates a header from every field, checking each against ISO/IEC 13818-7.
    /// - Parameters:
    ///   - mpegVersion: `ID`.
    ///   - protectionAbsent: `protection_absent`; when `false`, `crcCheck` is written too.
    ///   - audioObjectType: AAC Main, LC, SSR or LTP (LTP only with MPEG-4).
    ///   - samplingFrequencyIndex: `sampling_frequency_index`.
    ///   - privateBit: `private_bit`.
    ///   - channelConfiguration: `channel_configuration`, 0…7.
    ///   - originalCopy: `original_copy`.
    ///   - home: `home`.
    ///   - copyrightIdentificationBit: `copyright_identification_bit`.
    ///   - copyrightIdentificationStart: `copyright_identification_start`.
    ///   - frameLength: `aac_frame_length`, the whole frame with this header, up to 8191.
    ///   - bufferFullness: `adts_buffer_fullness`, 0…0x7FF.
    ///   - numberOfRawDataBlocksInFrame: blocks in the frame minus one, 0…3.
    ///   - rawDataBlockPositions: `raw_data_block_position[1…n]`, one per extra block, only when the
    ///     frame is protected and holds several blocks; otherwise empty.
    ///   - crcCheck: the header's `crc_check` (ignored when `protectionAbsent`).
    /// - Throws: ``ADTSError`` naming the first field that cannot be coded.
    public init(mpegVersion: MPEGVersion = .mpeg4,
                protectionAbsent: Bool = true,
                audioObjectType: AudioObjectType,
                samplingFrequencyIndex: SamplingFrequencyIndex,
                privateBit: Bool = false,
                channelConfiguration: ChannelConfiguration,
                originalCopy: Bool = false,
                home: Bool = false,
                copyrightIdentificationBit: Bool = false,
                copyrightIdentificationStart: Bool = false,
                frameLength: Int,
                bufferFullness: UInt16 = ADTSHeader.variableBitRateBufferFullness,
                numberOfRawDataBlocksInFrame: Int = 0,
                rawDataBlockPositions: [UInt16] = [],
                crcCheck: UInt16 = 0) throws(ADTSError) {
        guard (1...4).contains(audioObjectType.rawValue) else {
            throw ADTSError(byteOffset: 2, field: "profile_ObjectType",
                            reason: .notRepresentable("\(audioObjectType) cannot be coded in two bits (AAC Main, LC, SSR, LTP only)"))
        }
        if mpegVersion == .mpeg2 && audioObjectType == .aacLTP {
            throw ADTSError(byteOffset: 2, field: "profile", reason: .reservedProfile(found: 3))
        }
        guard channelConfiguration.rawValue <= 7 else {
            throw ADTSError(byteOffset: 2, field: "channel_configuration",
                            reason: .outOfRange(value: Int(channelConfiguration.rawValue), allowed: 0...7))
        }
        guard bufferFullness <= Self.variableBitRateBufferFullness else {
            throw ADTSError(byteOffset: 5, field: "adts_buffer_fullness",
                            reason: .outOfRange(value: Int(bufferFullness), allowed: 0...0x7FF))
        }
        guard (0...3).contains(numberOfRawDataBlocksInFrame) else {
            throw ADTSError(byteOffset: 6, field: "number_of_raw_data_blocks_in_frame",
                            reason: .outOfRange(value: numberOfRawDataBlocksInFrame, allowed: 0...3))
        }
        let positionCount = !protectionAbsent ? numberOfRawDataBlocksInFrame : 0
        guard rawDataBlockPositions.count == positionCount else {
            throw ADTSError(byteOffset: 7, field: "raw_data_block_position",
                            reason: .outOfRange(value: rawDataBlockPositions.count, allowed: positionCount...positionCount))
        }
        self.mpegVersion = mpegVersion
        self.protectionAbsent = protectionAbsent
        self.audioObjectType = audioObjectType
        self.samplingFrequencyIndex = samplingFrequencyIndex
        self.privateBit = privateBit
        self.channelConfiguration = channelConfiguration
        self.originalCopy = originalCopy
        self.home = home
        self.copyrightIdentificationBit = copyrightIdentificationBit
        self.copyrightIdentificationStart = copyrightIdentificationStart
        self.frameLength = frameLength
        self.bufferFullness = bufferFullness
        self.numberOfRawDataBlocksInFrame = numberOfRawDataBlocksInFrame
        self.rawDataBlockPositions = rawDataBlockPositions
        self.crcCheck = protectionAbsent ? nil : crcCheck
        try checkFrameLength(frameLength, byteOffset: 0)
        try checkRawDataBlockPositions(byteOffset: 0)
    }

    /// Creates the 7-byte header an encoder puts before each AAC frame when it writes an `.aac` file:
    /// MPEG-4, no CRC, one raw data block, variable bit rate, every flag clear, and
    /// `aac_frame_length` = payload + 7.
    /// - Parameters:
    ///   - audioObjectType: AAC Main, LC, SSR or LTP (what the encoder produced; usually LC).
    ///   - sampleRate: a rate of Table 1.18 (96000 … 7350 Hz).
    ///   - channels: 1–6 or 8 (channel configurations 1–7).
    ///   - payloadLength: the length of the raw AAC frame that follows, 0…8184.
    ///   - mpegVersion: `ID`; MPEG-4 unless a receiver wants MPEG-2.
    /// - Throws: ``ADTSError`` when the rate, the channel count or the length cannot be coded.
    public init(audioObjectType: AudioObjectType, sampleRate: Int, channels: Int, payloadLength: Int,
                mpegVersion: MPEGVersion = .mpeg4) throws(ADTSError) {
        guard let index = SamplingFrequencyIndex(hertz: sampleRate) else {
            throw ADTSError(byteOffset: 2, field: "sampling_frequency_index",
                            reason: .notRepresentable("\(sampleRate) Hz is not a rate of the sampling frequency table"))
        }
        guard let configuration = ChannelConfiguration(channelCount: channels) else {
            throw ADTSError(byteOffset: 2, field: "channel_configuration",
                            reason: .notRepresentable("no channel configuration carries \(channels) channels (1–6 or 8)"))
        }
        guard payloadLength >= 0, payloadLength <= Self.maximumFrameLength - Self.minimumLength else {
            throw ADTSError(byteOffset: 3, field: "aac_frame_length",
                            reason: .outOfRange(value: payloadLength, allowed: 0...(Self.maximumFrameLength - Self.minimumLength)))
        }
        try self.init(mpegVersion: mpegVersion, audioObjectType: audioObjectType, samplingFrequencyIndex: index,
                      channelConfiguration: configuration, frameLength: payloadLength + Self.minimumLength)
    }

    // MARK: - Derived values

    /// The two-bit `profile_ObjectType` / `profile` value (object type minus one).
    public var profile: UInt8 { audioObjectType.rawValue - 1 }

    /// The sampling rate in Hz.
    public var sampleRate: Int { samplingFrequencyIndex.hertz }

    /// How many raw data blocks the frame holds (`number_of_raw_data_blocks_in_frame` + 1).
    public var rawDataBlockCount: Int { numberOfRawDataBlocksInFrame + 1 }

    /// Whether `adts_buffer_fullness` is 0x7FF (variable bit rate).
    public var isVariableBitRate: Bool { bufferFullness == Self.variableBitRateBufferFullness }

    /// The header's length in bytes: 7 without CRC, 9 with CRC and one block, and 7 + 2·n + 2 with CRC
    /// and n + 1 blocks (`raw_data_block_position[]` and `crc_check`).
    public var headerLength: Int { Self.headerLength(protectionAbsent: protectionAbsent, numberOfRawDataBlocks: numberOfRawDataBlocksInFrame) }

    /// The number of bytes after the header (`aac_frame_length` − header length). With CRC and several
    /// blocks it includes each block's two-byte `adts_raw_data_block_error_check`.
    public var payloadLength: Int { frameLength - headerLength }

    private static func headerLength(protectionAbsent: Bool, numberOfRawDataBlocks: Int) -> Int {
        if protectionAbsent { return minimumLength }
        return minimumLength + 2 * numberOfRawDataBlocks + 2
    }

    // MARK: - Parsing

    /// Parses an ADTS header at the start of `bytes` (ISO/IEC 13818-7 §6.2.1: `adts_fixed_header()`,
    /// `adts_variable_header()`, `adts_error_check()` / `adts_header_error_check()`).
    ///
    /// Every field is checked: the syncword, `layer` = 0, `sampling_frequency_index` ≤ 12, the MPEG-2
    /// `profile` ≠ 3, `aac_frame_length` ≥ the header length, and `raw_data_block_position[]` increasing
    /// inside the frame. The CRC is not verified here (see ``verifyHeaderCRC()``).
    /// - Parameters:
    ///   - bytes: data starting with the header; the rest of the frame need not be present.
    ///   - byteOffset: the offset of `bytes` in a larger stream, added to the offsets in errors.
    /// - Returns: the header.
    /// - Throws: ``ADTSError`` naming the field that is wrong; `.truncated` when `bytes` ends inside
    ///   the header.
    public static func parse<Bytes: RandomAccessCollection>(_ bytes: Bytes, byteOffset: Int = 0) throws(ADTSError) -> ADTSHeader
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let base = bytes.startIndex
        let count = bytes.count
        if count >= 2 {
            let sync = UInt16(bytes[base]) << 4 | UInt16(bytes[base + 1] >> 4)
            guard sync == syncword else {
                throw ADTSError(byteOffset: byteOffset, field: "syncword", reason: .badSyncword(found: sync))
            }
            let layer = (bytes[base + 1] >> 1) & 0x3
            guard layer == 0 else {
                throw ADTSError(byteOffset: byteOffset + 1, field: "layer", reason: .layerNotZero(found: layer))
            }
        }
        guard count >= minimumLength else {
            throw ADTSError(byteOffset: byteOffset, field: "adts_fixed_header",
                            reason: .truncated(needed: minimumLength, available: count))
        }
        var bits: UInt64 = 0
        for index in 0..<minimumLength { bits = bits << 8 | UInt64(bytes[base + index]) }
        func field(_ from: Int, _ width: Int) -> UInt64 { (bits >> UInt64(56 - from - width)) & ((1 << UInt64(width)) - 1) }

        let id = field(12, 1)
        let protectionAbsent = field(15, 1) == 1
        let profile = UInt8(field(16, 2))
        let frequencyIndex = UInt8(field(18, 4))
        guard let samplingFrequencyIndex = SamplingFrequencyIndex(rawValue: frequencyIndex) else {
            throw ADTSError(byteOffset: byteOffset + 2, field: "sampling_frequency_index",
                            reason: .reservedSamplingFrequencyIndex(found: frequencyIndex))
        }
        let mpegVersion: MPEGVersion = id == 1 ? .mpeg2 : .mpeg4
        if mpegVersion == .mpeg2 && profile == 3 {
            throw ADTSError(byteOffset: byteOffset + 2, field: "profile", reason: .reservedProfile(found: profile))
        }
        let channelValue = UInt8(field(23, 3))
        let blocks = Int(field(54, 2))
        let headerLength = headerLength(protectionAbsent: protectionAbsent, numberOfRawDataBlocks: blocks)
        let frameLength = Int(field(30, 13))
        guard frameLength >= headerLength else {
            throw ADTSError(byteOffset: byteOffset + 3, field: "aac_frame_length",
                            reason: .frameLengthShorterThanHeader(frameLength: frameLength, headerLength: headerLength))
        }
        var positions: [UInt16] = []
        var crc: UInt16? = nil
        if !protectionAbsent {
            guard count >= headerLength else {
                throw ADTSError(byteOffset: byteOffset + minimumLength,
                                field: blocks > 0 ? "adts_header_error_check" : "adts_error_check",
                                reason: .truncated(needed: headerLength, available: count))
            }
            if blocks > 0 {
                positions.reserveCapacity(blocks)
                for block in 0..<blocks {
                    let at = base + minimumLength + 2 * block
                    positions.append(UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]))
                }
            }
            let at = base + headerLength - 2
            crc = UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
        }
        // Every value was range-checked above, so the remaining fields are taken as they are.
        var header = ADTSHeader(unchecked: mpegVersion, protectionAbsent: protectionAbsent,
                                audioObjectType: AudioObjectType(rawValue: profile + 1) ?? .aacLC,
                                samplingFrequencyIndex: samplingFrequencyIndex,
                                privateBit: field(22, 1) == 1,
                                channelConfiguration: ChannelConfiguration(rawValue: channelValue) ?? .definedInStream,
                                originalCopy: field(26, 1) == 1, home: field(27, 1) == 1,
                                copyrightIdentificationBit: field(28, 1) == 1,
                                copyrightIdentificationStart: field(29, 1) == 1,
                                frameLength: frameLength, bufferFullness: UInt16(field(43, 11)),
                                numberOfRawDataBlocksInFrame: blocks)
        header.rawDataBlockPositions = positions
        header.crcCheck = crc
        try header.checkRawDataBlockPositions(byteOffset: byteOffset)
        return header
    }

    private init(unchecked mpegVersion: MPEGVersion, protectionAbsent: Bool, audioObjectType: AudioObjectType,
                 samplingFrequencyIndex: SamplingFrequencyIndex, privateBit: Bool,
                 channelConfiguration: ChannelConfiguration, originalCopy: Bool, home: Bool,
                 copyrightIdentificationBit: Bool, copyrightIdentificationStart: Bool, frameLength: Int,
                 bufferFullness: UInt16, numberOfRawDataBlocksInFrame: Int) {
        self.mpegVersion = mpegVersion
        self.protectionAbsent = protectionAbsent
        self.audioObjectType = audioObjectType
        self.samplingFrequencyIndex = samplingFrequencyIndex
        self.privateBit = privateBit
        self.channelConfiguration = channelConfiguration
        self.originalCopy = originalCopy
        self.home = home
        self.copyrightIdentificationBit = copyrightIdentificationBit
        self.copyrightIdentificationStart = copyrightIdentificationStart
        self.frameLength = frameLength
        self.bufferFullness = bufferFullness
        self.numberOfRawDataBlocksInFrame = numberOfRawDataBlocksInFrame
        self.rawDataBlockPositions = []
        self.crcCheck = nil
    }

    private func checkFrameLength(_ length: Int, byteOffset: Int) throws(ADTSError) {
        guard length <= Self.maximumFrameLength else {
            throw ADTSError(byteOffset: byteOffset + 3, field: "aac_frame_length",
                            reason: .outOfRange(value: length, allowed: headerLength...Self.maximumFrameLength))
        }
        guard length >= headerLength else {
            throw ADTSError(byteOffset: byteOffset + 3, field: "aac_frame_length",
                            reason: .frameLengthShorterThanHeader(frameLength: length, headerLength: headerLength))
        }
    }

    /// Positions count from the first raw data block; each block ends with a 2-byte CRC, so block i
    /// starts at least 2 bytes after block i − 1, and the last block (with its CRC) ends in the frame.
    private func checkRawDataBlockPositions(byteOffset: Int) throws(ADTSError) {
        var previous = 0
        let payload = frameLength - headerLength
        for (block, position) in rawDataBlockPositions.enumerated() {
            let lowest = previous + 2, highest = payload - 2
            guard Int(position) >= lowest, Int(position) <= highest else {
                let allowed = lowest...max(lowest, highest)
                throw ADTSError(byteOffset: byteOffset + Self.minimumLength + 2 * block, field: "raw_data_block_position",
                                reason: .rawDataBlockPositionOutOfRange(position: Int(position), allowed: allowed))
            }
            previous = Int(position)
        }
    }

    // MARK: - Writing

    /// Writes the header: 7 bytes, 9 with CRC, 7 + 2·n + 2 with CRC and several blocks.
    /// - Returns: the header bytes, identical to the bytes it was parsed from.
    public func serialized() -> [UInt8] {
        var bits: UInt64 = UInt64(Self.syncword)
        func put(_ value: UInt64, _ width: Int) { bits = bits << UInt64(width) | (value & ((1 << UInt64(width)) - 1)) }
        put(UInt64(mpegVersion.rawValue), 1)
        put(0, 2) // layer
        put(protectionAbsent ? 1 : 0, 1)
        put(UInt64(profile), 2)
        put(UInt64(samplingFrequencyIndex.rawValue), 4)
        put(privateBit ? 1 : 0, 1)
        put(UInt64(channelConfiguration.rawValue), 3)
        put(originalCopy ? 1 : 0, 1)
        put(home ? 1 : 0, 1)
        put(copyrightIdentificationBit ? 1 : 0, 1)
        put(copyrightIdentificationStart ? 1 : 0, 1)
        put(UInt64(frameLength), 13)
        put(UInt64(bufferFullness), 11)
        put(UInt64(numberOfRawDataBlocksInFrame), 2)
        var out = [UInt8]()
        out.reserveCapacity(headerLength)
        for index in (0..<Self.minimumLength).reversed() { out.append(UInt8(truncatingIfNeeded: bits >> UInt64(8 * index))) }
        if let crcCheck {
            for position in rawDataBlockPositions {
                out.append(UInt8(position >> 8))
                out.append(UInt8(truncatingIfNeeded: position))
            }
            out.append(UInt8(crcCheck >> 8))
            out.append(UInt8(truncatingIfNeeded: crcCheck))
        }
        return out
    }

    /// The same header for a frame of another length (what a writer does frame after frame).
    /// - Parameter payloadLength: the bytes that follow the header.
    /// - Returns: the header with `aac_frame_length` = `payloadLength` + ``headerLength``.
    /// - Throws: ``ADTSError`` if the frame would be longer than 8191 bytes or the length is negative.
    public func withPayloadLength(_ payloadLength: Int) throws(ADTSError) -> ADTSHeader {
        guard payloadLength >= 0, payloadLength <= Self.maximumFrameLength - headerLength else {
            throw ADTSError(byteOffset: 3, field: "aac_frame_length",
                            reason: .outOfRange(value: payloadLength, allowed: 0...(Self.maximumFrameLength - headerLength)))
        }
        var copy = self
        try copy.checkFrameLength(payloadLength + headerLength, byteOffset: 0)
        copy.frameLength = payloadLength + headerLength
        try copy.checkRawDataBlockPositions(byteOffset: 0)
        return copy
    }

    /// The same header with another `crc_check` value (what a writer sets once it has computed it).
    /// - Parameter crc: the CRC; ignored when `protection_absent` is set.
    /// - Returns: the header carrying `crc`.
    public func withCRCCheck(_ crc: UInt16) -> ADTSHeader {
        var copy = self
        if !protectionAbsent { copy.crcCheck = crc }
        return copy
    }

    // MARK: - CRC

    /// The CRC register after feeding the bits the header contributes: the 56 bits of the fixed and
    /// variable header and, in a multi-block frame, `raw_data_block_position[]`.
    ///
    /// For a frame with one raw data block, continue feeding the protected regions of the raw data
    /// block (see ``ADTSCRC``); for a multi-block frame the value is already the header's `crc_check`.
    /// - Returns: the register.
    public func crcAfterHeader() -> ADTSCRC {
        var crc = ADTSCRC()
        let bytes = serialized()
        crc.update(bytes: bytes.prefix(Self.minimumLength + 2 * rawDataBlockPositions.count))
        return crc
    }

    /// Checks `crc_check` of `adts_header_error_check()`: in a protected frame with several raw data
    /// blocks it covers only the header and `raw_data_block_position[]`, so the header alone decides it
    /// (ISO/IEC 13818-7 §8.3; FFmpeg does not check it, Fraunhofer's FDK decoder does).
    ///
    /// A frame without CRC has nothing to check; a protected frame with one block needs its raw data
    /// (``ADTSFrame/verifyCRC(protectedRegions:)``).
    /// - Returns: `true` if a check was made and passed, `false` if the header alone cannot be checked.
    /// - Throws: ``ADTSError`` with `.crcMismatch` when the stored and computed values differ.
    @discardableResult
    public func verifyHeaderCRC() throws(ADTSError) -> Bool {
        guard let crcCheck, numberOfRawDataBlocksInFrame > 0 else { return false }
        let computed = crcAfterHeader().value
        guard computed == crcCheck else {
            throw ADTSError(byteOffset: headerLength - 2, field: "crc_check",
                            reason: .crcMismatch(stored: crcCheck, computed: computed))
        }
        return true
    }

    /// A summary, for example `ADTS MPEG-4 AAC LC (2) 44100 Hz (index 4) 1 (1 channels) length 371`.
    public var description: String {
        var text = "ADTS \(mpegVersion == .mpeg4 ? "MPEG-4" : "MPEG-2") \(audioObjectType) \(samplingFrequencyIndex) \(channelConfiguration) length \(frameLength)"
        if rawDataBlockCount > 1 { text += " blocks \(rawDataBlockCount)" }
        if let crcCheck { text += " crc 0x\(String(crcCheck, radix: 16, uppercase: true))" }
        return text
    }
}
