import Transport

extension FuzzTargets {
    /// The HTTP client's URL parser (RFC 9110 §4.2.1, §4.2.2) on the input as text after `http://` and `https://`:
    /// what parses has a target that starts with `/` and the scheme's default port when none is named; its
    /// description parses back to the same URL, and a `Location` resolved against it keeps its scheme and server.
    static func httpURL(_ bytes: [UInt8]) {
        let rest = String(decoding: bytes.prefix(2048), as: UTF8.self)
        for scheme in ["http://", "https://"] {
            guard let url = try? HTTPURL(parsing: scheme + rest) else { continue }
            precondition(url.isSecure == (scheme == "https://"), "HTTPURL: the scheme changed")
            precondition(url.target.hasPrefix("/"), "HTTPURL: a target without its leading /")
            guard !url.host.contains("/"), !url.host.contains("@"), !url.host.contains("?"), !url.host.contains("#") else { continue }
            if let again = try? HTTPURL(parsing: url.description) {
                precondition(again.isSecure == url.isSecure && again.port == url.port && again.target == url.target,
                             "HTTPURL: the description does not parse back")
            }
            if let resolved = try? url.resolving("/whip/resource") {
                precondition(resolved.isSecure == url.isSecure && resolved.host == url.host && resolved.port == url.port,
                             "HTTPURL: a Location moved to another server")
            }
        }
    }
}
