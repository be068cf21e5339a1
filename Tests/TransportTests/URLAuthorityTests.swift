import Testing
@testable import Transport

/// `URLAuthority`, the `[userinfo@]host[:port]` parser `RTMPURL` and `RTSPURL` share (RFC 3986 §3.2), and
/// `PercentDecoding` (§2.1): what it reads, and the hostile authorities it refuses with a reason.
@Suite("URL authority (RFC 3986 §3.2)")
struct URLAuthorityTests {
    @Test("user information, host and port are split; the user information is percent-decoded")
    func parses() throws {
        let full = try URLAuthority(parsing: "admin:p%40ss%3Aword@127.0.0.1:8554")
        #expect(full == URLAuthority(user: "admin", password: "p@ss:word", host: "127.0.0.1", port: 8554))
        // The user information ends at the last "@"; the password at nothing: it may hold ":" and "@".
        let atInPassword = try URLAuthority(parsing: "u:a@b:c@example.com")
        #expect(atInPassword == URLAuthority(user: "u", password: "a@b:c", host: "example.com", port: nil))
        #expect(try URLAuthority(parsing: "only@h") == URLAuthority(user: "only", password: nil, host: "h", port: nil))
        #expect(try URLAuthority(parsing: "u:@h") == URLAuthority(user: "u", password: "", host: "h", port: nil))
        #expect(try URLAuthority(parsing: "[::1]:1935") == URLAuthority(user: nil, password: nil, host: "::1", port: 1935))
        #expect(try URLAuthority(parsing: "[fe80::1%2]") == URLAuthority(user: nil, password: nil, host: "fe80::1%2", port: nil))
        #expect(try URLAuthority(parsing: "[::ffff:127.0.0.1]:00080").port == 80)
        #expect(try URLAuthority(parsing: "x:y@[2001:db8::7]:65535") == URLAuthority(user: "x", password: "y", host: "2001:db8::7", port: 65535))
        #expect(try URLAuthority(parsing: "Sub-Domain_1.example~!$&'()*+,;=").host == "Sub-Domain_1.example~!$&'()*+,;=")
    }

    @Test("the authority ends at the first '/'")
    func splits() {
        let (authority, path) = URLAuthority.split("user@host:1/app/key?x=/y")
        #expect(authority == "user@host:1" && path == "/app/key?x=/y")
        let (bare, none) = URLAuthority.split("host")
        #expect(bare == "host" && none.isEmpty)
        #expect(URLAuthority.bracketed("::1") == "[::1]" && URLAuthority.bracketed("10.0.0.1") == "10.0.0.1")
    }

    @Test("hostile authorities are refused with the reason", arguments: [
        ("", "names no host"),
        ("user@", "names no host"),
        (":1935", "names no host"),
        ("[]", "not an IPv6 address"),
        ("[::1", "without its ']'"),
        ("[::1]x", "after the IPv6 host"),
        ("[::1]]:80", "after the IPv6 host"),
        ("[localhost]", "not an IPv6 address"),
        ("[::1 ]", "not an IPv6 address"),
        ("[::1\r\n]", "not an IPv6 address"),
        ("::1", "without brackets"),
        ("fe80::1:80", "without brackets"),
        ("host:0", "not 1-65535"),
        ("host:65536", "not 1-65535"),
        ("host:", "not 1-65535"),
        ("host:+80", "not 1-65535"),
        ("host:-1", "not 1-65535"),
        ("host:8 0", "not 1-65535"),
        ("host:0x50", "not 1-65535"),
        ("host:\u{FF18}\u{FF10}", "not 1-65535"),  // fullwidth "80": numbers, but not DIGIT
        ("host:" + String(repeating: "9", count: 10_000), "not 1-65535"),
        ("ho st", "U+20"),
        ("host\r\nX-Injected: 1", "U+D"),
        ("host\u{0}", "U+0"),
        ("host?x", "U+3F"),
        ("host#x", "U+23"),
        ("h\u{E9}te", "U+E9"),
        ("%zz@host", "two hexadecimal digits"),
        ("u:%4@host", "two hexadecimal digits"),
        ("u:%+F@host", "two hexadecimal digits"),
        ("u:pw%@host", "two hexadecimal digits"),
    ])
    func refuses(_ text: String, _ reason: String) {
        let error = #expect(throws: URLAuthority.Refusal.self) { try URLAuthority(parsing: Substring(text)) }
        #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "accepted")")
    }

    @Test("percent-decoding: %XX in either case, and a bad escape is nil")
    func percentDecoding() {
        #expect(PercentDecoding.decode("a%41%62c") == "aAbc")
        #expect(PercentDecoding.decode("%e2%82%AC") == "€")
        #expect(PercentDecoding.decode("plain") == "plain")
        #expect(PercentDecoding.decode("%ff") == "\u{FFFD}")
        for bad in ["%", "%4", "%g0", "%0g", "%+F", "%-1", "100%"] { #expect(PercentDecoding.decode(Substring(bad)) == nil, "\(bad)") }
    }

    @Test("RTMPURL and RTSPURL read their authority through it and name its reason")
    func bothURLs() throws {
        #expect(try RTMPURL(parsing: "rtmp://[::1]:1936/live/key").tcURL == "rtmp://[::1]:1936/live")
        #expect(try RTSPURL(parsing: "rtsp://u:p%3A@[::1]").requestURL == "rtsp://[::1]:554/")
        #expect(try RTSPURL(parsing: "rtsp://u:p%3A@[::1]").password == "p:")
        let rtmp = #expect(throws: RTMPError.self) { try RTMPURL(parsing: "rtmp://user:pw@127.0.0.1/live/key") }
        guard case .invalidURL(_, let rtmpReason) = rtmp else { Issue.record("\(String(describing: rtmp))"); return }
        #expect(rtmpReason.contains("user information"))
        let rtsp = #expect(throws: RTSPClientError.self) { try RTSPURL(parsing: "rtsp://host\r\nCSeq: 9/live") }
        guard case .invalidURL(_, let rtspReason) = rtsp else { Issue.record("\(String(describing: rtsp))"); return }
        #expect(rtspReason.contains("U+D"), "\(rtspReason)")
        #expect(throws: RTSPClientError.self) { try RTSPURL(parsing: "rtsp://%zz@host/") }
    }
}
