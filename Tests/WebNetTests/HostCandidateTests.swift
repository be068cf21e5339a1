import Foundation
import POSIX
import RTP
import Testing
import TestSupport
@testable import Transport

/// The host candidates a WebRTC answer lists for its UDP port (RFC 8445 §5.1.1.1): a port bound to one address has
/// that address; a port bound to the wildcard has the address of every interface that is up — as `ip -o addr`
/// (iproute2) lists them — and never the wildcard itself, which no peer can send to.
struct HostCandidateTests {
    @Test("A port bound to one address is its one candidate, at the highest host priority")
    func boundAddress() throws {
        let candidates = WebRTCCandidate.hostCandidates(of: try SocketAddress(host: "127.0.0.1", port: 40_000))
        #expect(candidates.count == 1)
        #expect(candidates.first?.address == "127.0.0.1" && candidates.first?.port == 40_000)
        #expect(candidates.first?.priority == 2_130_706_431, "RFC 8445 §5.1.2.1: 126 << 24 | 65535 << 8 | 255")
    }

    @Test("A wildcard port lists the addresses `ip -o -4 addr` shows for interfaces that are up, loopback last",
          .enabled(if: ExternalTool.isRunnable("ip")))
    func wildcardListsTheInterfaces() throws {
        let listing = try ExternalTool.check("ip", ["-o", "-4", "addr", "show", "up"]).text
        // Lines read "2: eth0    inet 10.0.0.5/24 brd … scope global eth0 …".
        let expected = Set(listing.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let index = words.firstIndex(of: "inet"), index + 1 < words.count else { return nil }
            return words[index + 1].split(separator: "/").first.map(String.init)
        })
        let candidates = WebRTCCandidate.hostCandidates(of: .any(.ipv4, port: 40_002))
        #expect(Set(candidates.map(\.address)) == expected, "\(candidates.map(\.address)) vs ip: \(listing)")
        #expect(!candidates.contains { $0.address == "0.0.0.0" })
        #expect(candidates.allSatisfy { $0.port == 40_002 && $0.type == "host" })
        let loopback = candidates.firstIndex { $0.address.hasPrefix("127.") } ?? candidates.endIndex
        #expect(candidates[loopback...].allSatisfy { $0.address.hasPrefix("127.") }, "loopback comes last: \(candidates.map(\.address))")
        #expect(zip(candidates, candidates.dropFirst()).allSatisfy { $0.priority > $1.priority }, "best first")
        #expect(Set(candidates.map(\.foundation)).count == candidates.count, "one foundation per base address")
    }
}
