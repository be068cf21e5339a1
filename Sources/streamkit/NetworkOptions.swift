import Transport

/// Options the network commands (`stream`, `serve`, `receive`) share.
enum NetworkOptions {
    /// `--mtu N`: the largest IP packet; RTP packets are 28 bytes smaller (IPv4 + UDP headers).
    static let mtu = OptionSpec("--mtu", value: "N", help: "the path MTU; RTP packets stay 28 bytes under it (IPv4 + UDP)",
                                default: 1500, parse: OptionValueParsers.wholeNumber(in: 128...65_535))
    /// `--transport udp|tcp`.
    static let transport = OptionSpec<RTSPLowerTransport>(
        "--transport", value: "udp|tcp", help: "RTSP: RTP over UDP, or interleaved on the RTSP connection", default: .udp, shown: "udp",
        parse: OptionValueParsers.choice(of: "transport", [(["udp"], .udp), (["tcp", "interleaved"], .tcp)]))
    /// `--duration SECONDS`.
    static let duration = OptionSpec("--duration", value: "SECONDS", help: "stop after this long",
                                     parse: OptionValueParsers.seconds)
}

/// Where `stream` sends: plain RTP to a host and port (with an SDP file), or an RTSP server (ANNOUNCE/RECORD).
enum StreamDestination: Sendable, Equatable {
    /// `rtp://HOST:PORT`: video on PORT (RTCP PORT+1), audio on PORT+2 (RTCP PORT+3).
    case rtp(host: String, port: UInt16)
    /// `rtsp://HOST:PORT/PATH`.
    case rtsp(String)

    /// Reads the destination word.
    /// - Parameter word: `rtp://HOST:PORT` or `rtsp://…`.
    /// - Throws: ``CommandLineError``.
    init(parsing word: String) throws(CommandLineError) {
        let lowered = word.lowercased()
        if lowered.hasPrefix("rtsp://") {
            do { _ = try RTSPURL(parsing: word) } catch { throw .invalidValue(option: "DESTINATION", value: word, reason: "\(error)") }
            self = .rtsp(word)
            return
        }
        guard lowered.hasPrefix("rtp://") else {
            throw .invalidValue(option: "DESTINATION", value: word, reason: "is not rtp://HOST:PORT or rtsp://HOST:PORT/PATH")
        }
        let rest = word.dropFirst("rtp://".count).prefix { $0 != "/" && $0 != "?" }
        guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]), port > 0, port < 65_533 else {
            throw .invalidValue(option: "DESTINATION", value: word, reason: "needs a port: rtp://HOST:PORT")
        }
        var host = String(rest[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .invalidValue(option: "DESTINATION", value: word, reason: "names no host") }
        self = .rtp(host: host, port: port)
    }
}
