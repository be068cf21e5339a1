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
