import MediaCore
import Opus

/// Opus in an MPEG-2 transport stream, as the Opus mapping for MPEG-TS (Xiph's "OpusTS", the mapping DVB took up
/// and FFmpeg implements) lays it out:
///
/// - the elementary stream is PES private data (`stream_type` 0x06, ISO/IEC 13818-1 Table 2-34) with the
///   `registration_descriptor` (tag 0x05, §2.6.8) whose `format_identifier` is "Opus", and the DVB extension
///   descriptor (tag 0x7F) with `descriptor_tag_extension` 0x80 — the Opus audio descriptor — whose one byte
///   is the `channel_config_code` (0x01 mono and 0x02 stereo for mapping family 0);
/// - every access unit in a PES packet (stream_id 0xBD, private_stream_1) is preceded by its
///   `opus_control_header`: an 11-bit prefix 0x3FF (bytes 0x7F 0xE0…), `start_trim_flag`, `end_trim_flag`,
///   `control_extension_flag`, 2 reserved bits, then `au_size` as a run of 0xFF bytes (255 each) ended by a byte
///   under 255, then — as flagged — a 16-bit `start_trim` and `end_trim` (3 reserved bits, 13 bits of samples at
///   48 kHz to drop from the start or end of the decoded unit) and a length-prefixed control extension.
public enum TSOpusMapping {
    /// The `format_identifier` of the registration descriptor: "Opus".
    public static let formatIdentifier: [UInt8] = Array("Opus".utf8)
    /// The PES `stream_id` of Opus: private_stream_1.
    public static let streamID: UInt8 = 0xBD
    /// The largest `au_size` accepted when reading (120 ms of 48 kHz stereo at 510 kbit/s is under 8 kB; six
    /// channels, 61 kB: 64 kB bounds the rest).
    public static let maximumAccessUnitSize = 65536

    /// The `ES_info` descriptors of an Opus stream: the registration descriptor "Opus" and the Opus audio
    /// descriptor with the channel configuration.
    /// - Parameter channelCount: 1 or 2 (mapping family 0).
    /// - Returns: the descriptor bytes.
    public static func descriptors(channelCount: Int) -> [UInt8] {
        [0x05, 4] + formatIdentifier + [0x7F, 2, 0x80, UInt8(clamping: channelCount)]
    }

    /// The channel count an Opus stream entry describes: `nil` when its descriptors do not register "Opus"; the
    /// `channel_config_code` of the Opus audio descriptor when it is 1 or 2; 2 when the descriptor is missing or
    /// describes more channels (the reader's decoder then mixes to the count it knows).
    /// - Parameter descriptors: the stream's `ES_info` descriptors.
    /// - Returns: the channel count, or `nil` for a stream that is not Opus.
    public static func channelCount(descriptors: [UInt8]) -> Int? {
        var index = 0
        var isOpus = false
        var channels: Int?
        while index + 2 <= descriptors.count {
            let tag = descriptors[index]
            let length = Int(descriptors[index + 1])
            let body = index + 2
            guard body + length <= descriptors.count else { break }
            if tag == 0x05, length >= 4, Array(descriptors[body..<body + 4]) == formatIdentifier { isOpus = true }
            if tag == 0x7F, length >= 2, descriptors[body] == 0x80, (1...2).contains(descriptors[body + 1]) {
                channels = Int(descriptors[body + 1])
            }
            index = body + length
        }
        return isOpus ? channels ?? 2 : nil
    }

    /// One access unit's `opus_control_header` and data.
    /// - Parameters:
    ///   - packet: the Opus packet.
    ///   - startTrim: samples at 48 kHz to drop from its start (0 for none), at most 8191.
    ///   - endTrim: samples at 48 kHz to drop from its end (0 for none), at most 8191.
    ///   - output: where the header and the packet are appended.
    public static func appendAccessUnit<Bytes: Collection>(_ packet: Bytes, startTrim: Int, endTrim: Int,
                                                           to output: inout [UInt8]) where Bytes.Element == UInt8 {
        output.append(0x7F)
        output.append(0xE0 | (startTrim > 0 ? 0x10 : 0) | (endTrim > 0 ? 0x08 : 0))
        var size = packet.count
        while size >= 255 {
            output.append(0xFF)
            size -= 255
        }
        output.append(UInt8(size))
        for trim in [startTrim, endTrim] where trim > 0 {
            let value = min(trim, 0x1FFF)
            output += [UInt8(value >> 8), UInt8(value & 0xFF)]
        }
        output += packet
    }

    /// One access unit read from a PES payload.
    public struct AccessUnit: Sendable, Hashable {
        /// Where its data starts in the payload.
        public var range: Range<Int>
        /// `start_trim`: samples to drop from its start.
        public var startTrim: Int
        /// `end_trim`: samples to drop from its end.
        public var endTrim: Int
    }

    /// Reads the control header at `offset` of a PES payload.
    /// - Parameters:
    ///   - payload: the PES payload.
    ///   - offset: where the header starts.
    /// - Returns: the access unit it introduces.
    /// - Throws: ``OpusSyntaxError`` naming the field and byte offset: another prefix, a header or unit that runs
    ///   past the payload, a unit over ``maximumAccessUnitSize``.
    public static func accessUnit(in payload: [UInt8], at offset: Int) throws(OpusSyntaxError) -> AccessUnit {
        guard offset + 2 <= payload.count else {
            throw OpusSyntaxError(field: "opus_control_header", byteOffset: offset, reason: "the PES payload ends inside it")
        }
        guard payload[offset] == 0x7F, payload[offset + 1] & 0xE0 == 0xE0 else {
            throw OpusSyntaxError(field: "control_header_prefix", byteOffset: offset, reason: "not 0x3FF")
        }
        let flags = payload[offset + 1]
        var index = offset + 2
        var size = 0
        while true {
            guard index < payload.count else {
                throw OpusSyntaxError(field: "au_size", byteOffset: index, reason: "the PES payload ends inside it")
            }
            let byte = payload[index]
            index += 1
            size += Int(byte)
            guard size <= maximumAccessUnitSize else {
                throw OpusSyntaxError(field: "au_size", byteOffset: index - 1, reason: "over \(maximumAccessUnitSize) bytes")
            }
            if byte != 0xFF { break }
        }
        var trims = [0, 0]
        for (slot, mask) in [(0, UInt8(0x10)), (1, UInt8(0x08))] where flags & mask != 0 {
            guard index + 2 <= payload.count else {
                throw OpusSyntaxError(field: slot == 0 ? "start_trim" : "end_trim", byteOffset: index,
                                      reason: "the PES payload ends inside it")
            }
            trims[slot] = Int(payload[index] & 0x1F) << 8 | Int(payload[index + 1])
            index += 2
        }
        if flags & 0x04 != 0 {
            guard index < payload.count else {
                throw OpusSyntaxError(field: "control_extension_length", byteOffset: index, reason: "the PES payload ends inside it")
            }
            index += 1 + Int(payload[index])
        }
        guard index + size <= payload.count else {
            throw OpusSyntaxError(field: "au_size", byteOffset: offset + 2,
                                  reason: "\(size) bytes run past the PES payload's \(payload.count)")
        }
        return AccessUnit(range: index..<index + size, startTrim: trims[0], endTrim: trims[1])
    }
}
