import Containers
import Foundation
import Testing
import TestSupport

/// `EXT-X-PROGRAM-DATE-TIME` text against GNU `date` (the oracle), over leap years, centuries, 1970 and
/// instants before it.
@Suite struct HLSProgramDateTimeTests {
    @Test("RFC 3339 UTC text with milliseconds equals `date -u` for 400 instants", .enabled(if: ExternalTool.isRunnable("date")))
    func againstDate() async throws {
        var random = SplitMix64(seed: 0x4C53_8216)
        var instants: [Int64] = [0, -1, 951_782_400_000, 951_868_799_999, 4_107_542_400_000, -2_208_988_800_000, 253_402_300_799_999]
        while instants.count < 400 { instants.append(Int64(bitPattern: random.next() % 8_000_000_000_000) - 2_000_000_000_000) }
        for milliseconds in instants {
            let magnitude = milliseconds.magnitude
            let seconds = "\(milliseconds < 0 ? "-" : "")\(magnitude / 1000).\(String(format: "%03d", Int(magnitude % 1000)))"
            let expected = try await ExternalTool.check("date", ["-u", "-d", "@\(seconds)", "+%Y-%m-%dT%H:%M:%S.%3NZ"]).text
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(HLSProgramDateTime(millisecondsSinceEpoch: milliseconds).description == expected, "\(milliseconds) ms")
        }
    }

    @Test("now() is the system's wall clock")
    func now() {
        let ours = HLSProgramDateTime.now().millisecondsSinceEpoch
        let foundation = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(abs(ours - foundation) < 5_000)
    }
}
