import Transport

extension FuzzTargets {
    /// The RTSP client's URL parser on the input as text: what parses names a port in 1…65535 and a path that
    /// starts with `/`, and its request URL (credentials removed) parses back to the same host, port and path.
    static func rtspURL(_ bytes: [UInt8]) {
        let text = "rtsp://" + String(decoding: bytes.prefix(2048), as: UTF8.self)
        guard let url = try? RTSPURL(parsing: text) else { return }
        precondition(url.port > 0 && url.path.hasPrefix("/"), "RTSPURL: port or path out of range")
        guard !url.host.contains("/"), !url.host.contains("@") else { return }
        if let again = try? RTSPURL(parsing: url.requestURL) {
            precondition(again.port == url.port && again.path == url.path, "RTSPURL: the request URL does not parse back")
        }
    }
}
