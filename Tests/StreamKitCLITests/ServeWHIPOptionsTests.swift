import Foundation
import Testing
import TestSupport

/// `serve whip`'s command line as a user meets it: the ingest needs `--http-port`, has no encoder to set, and
/// `--bearer-token` belongs to it alone. None of these start a server.
struct ServeWHIPOptionsTests {
    @Test("serve whip without --http-port is refused, naming the option")
    func whipNeedsAnHTTPPort() throws {
        let result = try CLI.run(["serve", "whip"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--http-port"), "\(result.standardError)")
    }

    @Test("serve whip refuses the encoder's options, naming the one given", arguments: ["--size", "--bitrate", "--gop"])
    func whipHasNoEncoder(option: String) throws {
        let value = option == "--size" ? "640x480" : option == "--bitrate" ? "1M" : "30"
        let result = try CLI.run(["serve", "whip", "--http-port", "8080", option, value])
        #expect(result.status == 2)
        #expect(result.standardError.contains(option) && result.standardError.contains("whip"), "\(result.standardError)")
    }

    @Test("--bearer-token is refused with an input serve encodes")
    func tokenNeedsWHIP() throws {
        let result = try CLI.run(["serve", "testsrc", "--bearer-token", "s3cret"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--bearer-token"), "\(result.standardError)")
    }
}
