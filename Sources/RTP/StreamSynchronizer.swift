import MediaCore

/// Puts the streams of one session — audio at 48 kHz and video at 90 kHz, say — on one clock: each RTP
/// timestamp becomes a ``MediaCore/MediaTime`` on the sender's NTP wallclock (RFC 3550 §6.4.1, §7), counted
/// from the first sender report of the session, so that a player presents samples whose times are equal
/// together.
///
/// ```swift
/// var sync = StreamSynchronizer()
/// sync.addStream(ssrc: videoSSRC, clockRate: 90_000)
/// sync.addStream(ssrc: audioSSRC, clockRate: 48_000)
/// sync.record(compound)                                   // each RTCP packet that arrives
/// if case let .placed(time) = sync.presentationTime(ssrc: videoSSRC, rtpTimestamp: ts) { … }
/// ```
public struct StreamSynchronizer: Sendable, Hashable {
    /// Where a timestamp lands on the common clock.
    public enum Placement: Sendable, Hashable {
        /// The time on the common clock.
        case placed(MediaTime)
        /// No sender report of this stream has arrived yet (normal for the first seconds of a session).
        case awaitingSenderReport
        /// The SSRC was never added.
        case unknownStream
    }

    /// The most streams one synchronizer holds.
    public static let maximumStreamCount = 64

    private var clocks: [UInt32: MediaClock] = [:]
    /// The instant the common clock counts from: the NTP time of the first sender report recorded.
    public private(set) var reference: NTPTimestamp?

    /// An empty synchronizer.
    public init() {}

    /// Adds a stream (again: replaces its clock).
    /// - Parameters:
    ///   - ssrc: the stream's SSRC.
    ///   - clockRate: its RTP clock rate in Hz.
    /// - Returns: `false` when ``maximumStreamCount`` streams are already held.
    @discardableResult
    public mutating func addStream(ssrc: UInt32, clockRate: Int) -> Bool {
        guard clocks[ssrc] != nil || clocks.count < Self.maximumStreamCount else { return false }
        clocks[ssrc] = MediaClock(clockRate: clockRate)
        return true
    }

    /// The clock of a stream.
    /// - Parameter ssrc: the stream's SSRC.
    /// - Returns: its clock, if the stream was added.
    public func clock(of ssrc: UInt32) -> MediaClock? { clocks[ssrc] }

    /// Records a sender report for the stream it names.
    /// - Parameter report: the SR.
    /// - Returns: whether the report's SSRC is one of the streams.
    @discardableResult
    public mutating func record(_ report: RTCPSenderReport) -> Bool {
        guard clocks[report.ssrc] != nil else { return false }
        clocks[report.ssrc]?.record(report)
        if reference == nil { reference = report.ntpTimestamp }
        return true
    }

    /// Records every sender report of a compound packet.
    /// - Parameter compound: an RTCP compound packet.
    public mutating func record(_ compound: RTCPCompoundPacket) {
        for report in compound.senderReports { record(report) }
    }

    /// The time of an RTP timestamp on the common clock.
    /// - Parameters:
    ///   - ssrc: the stream.
    ///   - rtpTimestamp: a timestamp of that stream.
    ///   - timescale: the timescale of the result (90 kHz by default).
    /// - Returns: the placement.
    public func presentationTime(ssrc: UInt32, rtpTimestamp: UInt32, timescale: Int32 = 90_000) -> Placement {
        guard let clock = clocks[ssrc] else { return .unknownStream }
        guard let reference, let nanoseconds = clock.nanoseconds(of: rtpTimestamp, since: reference) else {
            return .awaitingSenderReport
        }
        return .placed(MediaTime(value: nanoseconds, timescale: 1_000_000_000).converted(to: max(timescale, 1)))
    }
}
