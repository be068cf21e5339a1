/// One PES packet of an elementary stream, as it came out of the transport stream (ISO/IEC 13818-1 §2.4.3.6):
/// its payload as coded (an Annex B access unit, ADTS frames) and its times, unwrapped past the 33-bit limit.
public struct TSPESPacket: Hashable, Sendable {
    /// The PID it came on.
    public var pid: UInt16
    /// The stream's `stream_type` in the program map.
    public var streamType: TSStreamType
    /// The presentation time in 90 kHz ticks, unwrapped (it keeps counting past 2^33), when the header has one.
    public var pts: Int64?
    /// The decode time in 90 kHz ticks, unwrapped, when the header has one (else it equals ``pts``).
    public var dts: Int64?
    /// The payload after the header.
    public var payload: [UInt8]
    /// The offset of its first transport packet in the stream.
    public var byteOffset: Int
    /// Whether its first packet had `random_access_indicator` set (§2.4.3.5).
    public var isRandomAccess: Bool

    /// Creates a packet.
    /// - Parameters:
    ///   - pid: its PID.
    ///   - streamType: its stream's type.
    ///   - pts: its presentation time.
    ///   - dts: its decode time.
    ///   - payload: the bytes after its header.
    ///   - byteOffset: where it started.
    ///   - isRandomAccess: its `random_access_indicator`.
    public init(pid: UInt16, streamType: TSStreamType, pts: Int64?, dts: Int64?, payload: [UInt8], byteOffset: Int, isRandomAccess: Bool) {
        self.pid = pid
        self.streamType = streamType
        self.pts = pts
        self.dts = dts
        self.payload = payload
        self.byteOffset = byteOffset
        self.isRandomAccess = isRandomAccess
    }
}
