/// The decoder configuration of an Opus stream: the identification header `OpusHead` of RFC 7845 §5.1 (what
/// libopus hands out as extradata, and the "magic cookie" ``AudioFormatDescription`` keeps for Opus), and the
/// same values as the `dOps` box of "Encapsulation of Opus in ISO Base Media File Format" (§4.3.2) writes them.
///
/// The two forms differ in byte order (little-endian in `OpusHead`, big-endian in `dOps`), in the version
/// (1 in `OpusHead`, 0 in `dOps`) and in the magic signature, which `dOps` leaves out.
public struct OpusIdentificationHeader: Sendable, Hashable {
    /// `OpusHead`'s version byte (RFC 7845 §5.1: 1; the major version, the top four bits, must be 0).
    public var version: UInt8
    /// The number of output channels (`OutputChannelCount`), 1...255.
    public var channelCount: Int
    /// Samples at 48 kHz to discard from the decoder's output at the start (`PreSkip`, RFC 7845 §4.2).
    public var preSkip: Int
    /// The sample rate of the original input, informational only (`InputSampleRate`; 0 when unknown).
    public var inputSampleRate: Int
    /// The gain to apply to the output, in Q7.8 decibels (`OutputGain`).
    public var outputGain: Int16
    /// The channel mapping family (`ChannelMappingFamily`): 0 for mono or stereo in one stream, 1 for
    /// Vorbis-ordered surround, 255 for no defined order.
    public var mappingFamily: UInt8
    /// The mapping table, present exactly when ``mappingFamily`` is not 0.
    public var channelMapping: OpusChannelMapping?

    /// The eight bytes that open `OpusHead` (RFC 7845 §5.1: "OpusHead").
    public static let magic: [UInt8] = Array("OpusHead".utf8)

    /// Creates a header for a mono or stereo stream (mapping family 0).
    /// - Parameters:
    ///   - channelCount: 1 or 2.
    ///   - preSkip: samples at 48 kHz to discard at the start (libopus: 312).
    ///   - inputSampleRate: the original input rate (48000 here).
    ///   - outputGain: Q7.8 dB gain, 0 for none.
    public init(channelCount: Int, preSkip: Int, inputSampleRate: Int = 48000, outputGain: Int16 = 0) {
        self.version = 1
        self.channelCount = channelCount
        self.preSkip = preSkip
        self.inputSampleRate = inputSampleRate
        self.outputGain = outputGain
        self.mappingFamily = 0
        self.channelMapping = nil
    }

    /// Creates a header with every field given.
    /// - Parameters:
    ///   - version: `OpusHead`'s version byte.
    ///   - channelCount: output channels.
    ///   - preSkip: samples to discard at the start.
    ///   - inputSampleRate: the original input rate.
    ///   - outputGain: Q7.8 dB gain.
    ///   - mappingFamily: the channel mapping family.
    ///   - channelMapping: the mapping table (required when the family is not 0).
    public init(version: UInt8, channelCount: Int, preSkip: Int, inputSampleRate: Int, outputGain: Int16,
                mappingFamily: UInt8, channelMapping: OpusChannelMapping?) {
        self.version = version
        self.channelCount = channelCount
        self.preSkip = preSkip
        self.inputSampleRate = inputSampleRate
        self.outputGain = outputGain
        self.mappingFamily = mappingFamily
        self.channelMapping = channelMapping
    }

    /// Reads an `OpusHead` packet (RFC 7845 §5.1).
    /// - Parameter bytes: the header, starting with "OpusHead" (trailing bytes are allowed by §5.1 and ignored).
    /// - Throws: ``OpusSyntaxError`` naming the field and byte offset for a short header, another magic, a major
    ///   version other than 0, zero channels, or a family 0 with more than two channels.
    public init(opusHead bytes: [UInt8]) throws(OpusSyntaxError) {
        guard bytes.count >= 19 else {
            throw OpusSyntaxError(field: "OpusHead", byteOffset: bytes.count, reason: "\(bytes.count) bytes, at least 19 needed")
        }
        guard Array(bytes[0..<8]) == Self.magic else {
            throw OpusSyntaxError(field: "magic signature", byteOffset: 0, reason: "not \"OpusHead\"")
        }
        guard bytes[8] >> 4 == 0 else {
            throw OpusSyntaxError(field: "version", byteOffset: 8, reason: "major version \(bytes[8] >> 4) is not 0")
        }
        let preSkip = Int(bytes[10]) | Int(bytes[11]) << 8
        let rate = Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
        let gain = Int16(bitPattern: UInt16(bytes[16]) | UInt16(bytes[17]) << 8)
        try self.init(validating: bytes[8], channelCount: Int(bytes[9]), preSkip: preSkip, inputSampleRate: rate,
                      outputGain: gain, mappingFamily: bytes[18], table: bytes, tableOffset: 19)
    }

    /// Reads the payload of a `dOps` box (ISOBMFF encapsulation §4.3.2, big-endian).
    /// - Parameter payload: the box's bytes after its header.
    /// - Throws: ``OpusSyntaxError`` naming the field and byte offset: a short box, `Version` other than 0, zero
    ///   channels, or a mapping table that does not fit.
    public init(dOpsPayload payload: [UInt8]) throws(OpusSyntaxError) {
        guard payload.count >= 11 else {
            throw OpusSyntaxError(field: "dOps", byteOffset: payload.count, reason: "\(payload.count) bytes, at least 11 needed")
        }
        guard payload[0] == 0 else {
            throw OpusSyntaxError(field: "Version", byteOffset: 0, reason: "\(payload[0]) is not 0")
        }
        let preSkip = Int(payload[2]) << 8 | Int(payload[3])
        let rate = Int(payload[4]) << 24 | Int(payload[5]) << 16 | Int(payload[6]) << 8 | Int(payload[7])
        let gain = Int16(bitPattern: UInt16(payload[8]) << 8 | UInt16(payload[9]))
        try self.init(validating: 1, channelCount: Int(payload[1]), preSkip: preSkip, inputSampleRate: rate,
                      outputGain: gain, mappingFamily: payload[10], table: payload, tableOffset: 11)
    }

    private init(validating version: UInt8, channelCount: Int, preSkip: Int, inputSampleRate: Int, outputGain: Int16,
                 mappingFamily: UInt8, table: [UInt8], tableOffset: Int) throws(OpusSyntaxError) {
        let countOffset = tableOffset == 19 ? 9 : 1
        guard channelCount > 0 else {
            throw OpusSyntaxError(field: "OutputChannelCount", byteOffset: countOffset, reason: "0 channels")
        }
        var mapping: OpusChannelMapping?
        if mappingFamily == 0 {
            guard channelCount <= 2 else {
                throw OpusSyntaxError(field: "ChannelMappingFamily", byteOffset: tableOffset - 1,
                                      reason: "family 0 carries 1 or 2 channels, not \(channelCount)")
            }
        } else {
            guard table.count >= tableOffset + 2 + channelCount else {
                throw OpusSyntaxError(field: "ChannelMappingTable", byteOffset: table.count,
                                      reason: "needs \(2 + channelCount) bytes after the family")
            }
            let streams = Int(table[tableOffset])
            let coupled = Int(table[tableOffset + 1])
            guard streams > 0 else {
                throw OpusSyntaxError(field: "StreamCount", byteOffset: tableOffset, reason: "0 streams")
            }
            guard coupled <= streams, streams + coupled <= 255 else {
                throw OpusSyntaxError(field: "CoupledCount", byteOffset: tableOffset + 1,
                                      reason: "\(coupled) coupled of \(streams) streams")
            }
            let entries = Array(table[(tableOffset + 2)..<(tableOffset + 2 + channelCount)])
            for (index, entry) in entries.enumerated() where entry != 255 && Int(entry) >= streams + coupled {
                throw OpusSyntaxError(field: "ChannelMapping", byteOffset: tableOffset + 2 + index,
                                      reason: "channel \(entry) beyond the \(streams + coupled) decoded channels")
            }
            mapping = OpusChannelMapping(streamCount: streams, coupledStreamCount: coupled, channelMapping: entries)
        }
        self.init(version: version, channelCount: channelCount, preSkip: preSkip, inputSampleRate: inputSampleRate,
                  outputGain: outputGain, mappingFamily: mappingFamily, channelMapping: mapping)
    }

    /// The `OpusHead` packet (RFC 7845 §5.1), as libavcodec takes it for extradata.
    /// - Returns: 19 bytes for family 0, 21 + channels otherwise.
    public func opusHeadBytes() -> [UInt8] {
        var bytes = Self.magic
        bytes.append(version)
        bytes.append(UInt8(clamping: channelCount))
        bytes += [UInt8(truncatingIfNeeded: preSkip), UInt8(truncatingIfNeeded: preSkip >> 8)]
        bytes += [UInt8(truncatingIfNeeded: inputSampleRate), UInt8(truncatingIfNeeded: inputSampleRate >> 8),
                  UInt8(truncatingIfNeeded: inputSampleRate >> 16), UInt8(truncatingIfNeeded: inputSampleRate >> 24)]
        let gain = UInt16(bitPattern: outputGain)
        bytes += [UInt8(truncatingIfNeeded: gain), UInt8(truncatingIfNeeded: gain >> 8)]
        bytes.append(mappingFamily)
        appendTable(to: &bytes)
        return bytes
    }

    /// The payload of a `dOps` box (ISOBMFF encapsulation §4.3.2): `Version` 0 and big-endian fields.
    /// - Returns: 11 bytes for family 0, 13 + channels otherwise.
    public func dOpsPayload() -> [UInt8] {
        var bytes: [UInt8] = [0, UInt8(clamping: channelCount)]
        bytes += [UInt8(truncatingIfNeeded: preSkip >> 8), UInt8(truncatingIfNeeded: preSkip)]
        bytes += [UInt8(truncatingIfNeeded: inputSampleRate >> 24), UInt8(truncatingIfNeeded: inputSampleRate >> 16),
                  UInt8(truncatingIfNeeded: inputSampleRate >> 8), UInt8(truncatingIfNeeded: inputSampleRate)]
        let gain = UInt16(bitPattern: outputGain)
        bytes += [UInt8(truncatingIfNeeded: gain >> 8), UInt8(truncatingIfNeeded: gain)]
        bytes.append(mappingFamily)
        appendTable(to: &bytes)
        return bytes
    }

    private func appendTable(to bytes: inout [UInt8]) {
        guard mappingFamily != 0, let channelMapping else { return }
        bytes.append(UInt8(clamping: channelMapping.streamCount))
        bytes.append(UInt8(clamping: channelMapping.coupledStreamCount))
        bytes += channelMapping.channelMapping
    }
}
