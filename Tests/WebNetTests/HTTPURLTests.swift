import Testing
import Transport

/// `http://` and `https://` URLs (RFC 9110 §4.2.1, §4.2.2): the default ports, the `Host` field, and what a `Location`
/// resolves to.
@Suite("HTTP URLs: http and https")
struct HTTPURLTests {
    @Test("https:// defaults to 443 and keeps its scheme through Host, description and a resolved Location; http:// to 80")
    func schemes() throws {
        let secure = try HTTPURL(parsing: "HTTPS://whip.example/live/whip?x=1#f")
        #expect(secure.isSecure)
        #expect(secure.port == 443)
        #expect(secure.hostField == "whip.example")
        #expect(secure.target == "/live/whip?x=1")
        #expect(secure.description == "https://whip.example/live/whip?x=1")
        #expect(try secure.resolving("/whip/abc").description == "https://whip.example/whip/abc")
        let withPort = try HTTPURL(parsing: "https://[::1]:8443/whip")
        #expect(withPort.host == "::1" && withPort.port == 8443 && withPort.hostField == "[::1]:8443")
        #expect(withPort.origin == "https://[::1]:8443")
        let plain = try HTTPURL(parsing: "http://127.0.0.1:443/whip")
        #expect(!plain.isSecure && plain.hostField == "127.0.0.1:443")
        #expect(try HTTPURL(parsing: "http://a/").port == 80)
        #expect(throws: HTTPClientError.self) { try HTTPURL(parsing: "ftp://a/whip") }
        #expect(throws: HTTPClientError.self) { try HTTPURL(parsing: "https://user@a/whip") }
    }
}
