/// One stream's map from RTP timestamps to the sender's NTP wallclock, from its latest sender report
/// (RFC 3550 §6.4.1: an SR pairs an NTP time with the RTP timestamp of the same instant).
///
/// A timestamp maps through the signed 32-bit distance to the report's timestamp, so the wrap of the
/// 32-bit RTP clock (every 13.3 hours at 90 kHz, 24.9 hours at 48 kHz) is crossed without error as long
/// as a packet lies within half the wrap period of the report — senders report every few seconds.
public struct MediaClock: Sendable, Hashable {
    /// The RTP clock rate (Hz): 90000 for video, the sample rate for audio.
    public let clockRate: Int
    /// The NTP time of the latest sender report.
    public private(set) var reportNTPTime: NTPTimestamp?
    /// The RTP timestamp of the latest sender report.
    public private(set) var reportRTPTimestamp: UInt32 = 0

    /// A clock that has seen no sender report yet.
    /// - Parameter clockRate: the stream's RTP clock rate in Hz (positive).
    public init(clockRate: Int) {
        self.clockRate = max(clockRate, 1)
    }

    /// Whether a sender report has been recorded, so that timestamps can be mapped.
    public var isSynchronized: Bool { reportNTPTime != nil }

    /// Takes the NTP ↔ RTP pair of a sender report as the stream's mapping.
    /// - Parameter report: an SR of this stream's source.
    public mutating func record(_ report: RTCPSenderReport) {
        reportNTPTime = report.ntpTimestamp
        reportRTPTimestamp = report.rtpTimestamp
    }

    /// The sender's wallclock time of an RTP timestamp, in nanoseconds after `reference`.
    /// - Parameters:
    ///   - rtpTimestamp: a timestamp of this stream.
    ///   - reference: the instant the result counts from.
    /// - Returns: nanoseconds (negative before `reference`), or `nil` before the first sender report.
    public func nanoseconds(of rtpTimestamp: UInt32, since reference: NTPTimestamp) -> Int64? {
        guard let reportNTPTime else { return nil }
        let units = Int64(Int32(bitPattern: rtpTimestamp &- reportRTPTimestamp))
        return reportNTPTime.nanoseconds(since: reference) + units * 1_000_000_000 / Int64(clockRate)
    }

    /// The sender's wallclock time of an RTP timestamp.
    /// - Parameter rtpTimestamp: a timestamp of this stream.
    /// - Returns: its NTP time, or `nil` before the first sender report.
    public func ntpTime(of rtpTimestamp: UInt32) -> NTPTimestamp? {
        guard let reportNTPTime else { return nil }
        let units = Int64(Int32(bitPattern: rtpTimestamp &- reportRTPTimestamp))
        let fixed = (units << 32) / Int64(clockRate)
        return NTPTimestamp(rawValue: reportNTPTime.rawValue &+ UInt64(bitPattern: fixed))
    }
}
