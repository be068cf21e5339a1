/// What went wrong in a transport stream, as a named outcome beside the media (the demuxer goes on after each):
/// the normal accidents of broadcast and network delivery — lost and damaged packets, garbage between packets —
/// and malformed structures, each with the PID and the byte offset in the stream where it was found.
public enum TSStreamIssue: Hashable, Sendable, CustomStringConvertible {
    /// Why a PES packet was not delivered.
    public enum PESDamage: Hashable, Sendable, CustomStringConvertible {
        /// Packets of it were lost (a continuity counter gap or a packet flagged with `transport_error_indicator`).
        case lostPackets
        /// The PES header does not parse (§2.4.3.6).
        case malformedHeader
        /// It grew past the demuxer's limit for one PES packet.
        case tooLarge(limit: Int)
        /// It ended before the `PES_packet_length` it announced.
        case truncated(expected: Int, received: Int)

        /// What happened, for people.
        public var description: String {
            switch self {
            case .lostPackets: return "packets of it were lost"
            case .malformedHeader: return "its header does not parse"
            case let .tooLarge(limit): return "it is larger than the limit of \(limit) bytes"
            case let .truncated(expected, received): return "it ended after \(received) of \(expected) bytes"
            }
        }
    }

    /// Bytes that were not packets were skipped until two sync bytes 188 bytes apart (§2.4.3.2).
    case resynchronized(byteOffset: Int, skippedByteCount: Int)
    /// `continuity_counter` jumped (§2.4.3.3): `lostPacketCount` packets (modulo 16) are missing before this one.
    case continuityError(pid: UInt16, expected: UInt8, found: UInt8, lostPacketCount: Int, byteOffset: Int)
    /// A packet with `transport_error_indicator` set was dropped (§2.4.3.3).
    case transportError(pid: UInt16, byteOffset: Int)
    /// A packet whose header or adaptation field is impossible (§2.4.3.2, §2.4.3.4) was dropped.
    case malformedPacket(pid: UInt16, byteOffset: Int, field: String)
    /// A program association or program map section that does not check (§2.4.4).
    case malformedSection(pid: UInt16, byteOffset: Int, TSSection.Failure)
    /// A PES packet that was dropped, and why.
    case damagedPES(pid: UInt16, byteOffset: Int, PESDamage)
    /// An elementary stream of a codec the demuxer does not read; its packets are ignored.
    case unsupportedStream(pid: UInt16, streamType: TSStreamType)
    /// A PID whose packets are scrambled (`transport_scrambling_control` ≠ 0); they are ignored.
    case scrambled(pid: UInt16)
    /// A limit of ``TSDemuxerLimits`` was reached; what is beyond it is ignored.
    case limitReached(String)
    /// A picture came before the parameter sets that describe it (normal when joining a stream): dropped.
    case frameBeforeParameterSets(pid: UInt16, byteOffset: Int)
    /// An ADTS header in an audio PES packet that does not parse; the bytes up to the next frame are skipped.
    case malformedADTS(pid: UInt16, byteOffset: Int, reason: String)
    /// An Opus PES packet whose `opus_control_header` (``TSOpusMapping``) or access unit does not parse: the rest of
    /// that PES packet is skipped.
    case malformedOpus(pid: UInt16, byteOffset: Int, reason: String)
    /// The stream ended inside a packet.
    case truncatedPacket(byteOffset: Int, byteCount: Int)

    /// What happened, where, for people.
    public var description: String {
        func hex(_ pid: UInt16) -> String { "PID 0x" + String(pid, radix: 16) }
        switch self {
        case let .resynchronized(offset, count): return "skipped \(count) bytes that were not packets at byte \(offset)"
        case let .continuityError(pid, expected, found, lost, offset):
            return "\(hex(pid)): continuity_counter \(found), expected \(expected) (\(lost) packets lost) at byte \(offset)"
        case let .transportError(pid, offset): return "\(hex(pid)): transport_error_indicator set at byte \(offset)"
        case let .malformedPacket(pid, offset, field): return "\(hex(pid)): malformed \(field) at byte \(offset)"
        case let .malformedSection(pid, offset, failure): return "\(hex(pid)): \(failure) at byte \(offset)"
        case let .damagedPES(pid, offset, damage): return "\(hex(pid)): PES packet at byte \(offset) dropped: \(damage)"
        case let .unsupportedStream(pid, type): return "\(hex(pid)): \(type) is not read"
        case let .scrambled(pid): return "\(hex(pid)): scrambled packets ignored"
        case let .limitReached(text): return "limit reached: \(text)"
        case let .frameBeforeParameterSets(pid, offset): return "\(hex(pid)): picture at byte \(offset) before its parameter sets dropped"
        case let .malformedADTS(pid, offset, reason): return "\(hex(pid)): ADTS at byte \(offset): \(reason)"
        case let .malformedOpus(pid, offset, reason): return "\(hex(pid)): Opus in the PES packet at byte \(offset): \(reason)"
        case let .truncatedPacket(offset, count): return "the stream ends inside a packet (\(count) bytes at byte \(offset))"
        }
    }
}
