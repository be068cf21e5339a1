import Foundation
import Testing
import Transport

/// Not a test: `STREAMKIT_RTMP_DEBUG_SERVER=1 swift test --filter RTMPDebugServer` runs our server on 21029 for 40 s
/// and prints its events, to try peers against by hand.
@Suite("RTMP debug server", .enabled(if: ProcessInfo.processInfo.environment["STREAMKIT_RTMP_DEBUG_SERVER"] != nil))
struct RTMPDebugServer {
    @Test("serve for 40 s")
    func serve() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try RTMPServer(configuration: RTMPServerConfiguration(address: .loopback(.ipv4, port: 21029)), on: loop)
        server.start()
        let printer = Task { for await event in server.events { print("EVENT", event) } }
        try await Task.sleep(for: .seconds(40))
        server.stop()
        printer.cancel()
    }
}
