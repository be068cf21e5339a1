import Testing
import Transport

/// `RTSPURL`: host, port, path and credentials of `rtsp://` URLs, and the errors for bad ones.
@Suite("RTSP URLs")
struct RTSPURLTests {
    @Test("host, port, path and credentials are split; requests name the URL without them")
    func parses() throws {
        let url = try RTSPURL(parsing: "rtsp://admin:p%40ss@127.0.0.1:8554/live/cam?x=1")
        #expect(url.host == "127.0.0.1")
        #expect(url.port == 8554)
        #expect(url.path == "/live/cam?x=1")
        #expect(url.user == "admin")
        #expect(url.password == "p@ss")
        #expect(url.requestURL == "rtsp://127.0.0.1:8554/live/cam?x=1")
        let plain = try RTSPURL(parsing: "rtsp://[::1]/test")
        #expect(plain.host == "::1" && plain.port == 554 && plain.path == "/test" && plain.user == nil)
        #expect(plain.requestURL == "rtsp://[::1]:554/test")
    }

    @Test("bad URLs are refused with the reason", arguments: ["http://x/y", "rtsp://", "rtsp://host:0/", "rtsp://host:99999/", "rtsp://[::1/x"])
    func refuses(_ text: String) {
        #expect(throws: RTSPClientError.self) { try RTSPURL(parsing: text) }
    }
}
