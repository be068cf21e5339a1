import Foundation
import Testing
import TestSupport

/// `serve`'s HLS options as a user meets them: the HLS options need `--http-port`, and bad values are refused by name.
/// None of these start a server.
struct ServeHTTPOptionsTests {
    @Test("The HLS options of serve without --http-port are refused, naming the option", arguments: [
        ["--segment-format", "ts"], ["--segment-duration", "1"], ["--playlist-size", "3"],
    ])
    func hlsOptionsNeedAnHTTPPort(option: [String]) throws {
        let result = try CLI.run(["serve", "testsrc"] + option)
        #expect(result.status == 2)
        #expect(result.standardError.contains(option[0]) && result.standardError.contains("--http-port"), "\(result.standardError)")
    }

    @Test("Bad values of --http-port, --segment-format and --playlist-size are refused with exit status 2", arguments: [
        ["--http-port", "0"], ["--http-port", "70000"], ["--http-port", "8080", "--segment-format", "mkv"],
        ["--http-port", "8080", "--playlist-size", "0"],
    ])
    func badValuesAreRefused(arguments: [String]) throws {
        let result = try CLI.run(["serve", "testsrc"] + arguments)
        #expect(result.status == 2, "\(result.standardError)")
    }

    @Test("serve --help documents --http-port and the URL players read")
    func helpNamesTheHTTPPort() throws {
        let help = try CLI.run(["serve", "--help"])
        #expect(help.status == 0)
        #expect(help.text.contains("--http-port N") && help.text.contains("/PATH/index.m3u8"), "\(help.text)")
    }
}
