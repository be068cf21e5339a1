import Foundation
import FuzzTargets
import Testing
import TestSupport

/// Replays every kept fuzz input (Tests/FuzzCorpus: hostile seeds and every crash the fuzzer ever
/// found) and every prefix of the real streams' first kilobytes through all parsers: each must return
/// or throw a typed error, never trap.
@Suite struct FuzzCorpusReplayTests {
    static var corpus: [String] {
        let folder = MediaFiles.packageRoot.appendingPathComponent("Tests/FuzzCorpus")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test(arguments: corpus)
    func keptInputDoesNotTrap(name: String) throws {
        let url = MediaFiles.packageRoot.appendingPathComponent("Tests/FuzzCorpus/\(name)")
        let bytes = [UInt8](try Data(contentsOf: url))
        bytes.withUnsafeBufferPointer { FuzzTargets.run($0) }
    }

    @Test func corpusIsNotEmpty() {
        #expect(Self.corpus.count >= 8)
    }

    @Test(.requiresMedia, arguments: ["encoded/cars_320x240.h264", "encoded/cars_320x240.h265", "audio/exoplayer/sample.adts"])
    func everyTruncationOfARealStreamIsHandled(stream: String) throws {
        let bytes = Array(try MediaFiles.bytes(stream).prefix(600))
        for length in stride(from: 0, through: bytes.count, by: 7) {
            Array(bytes.prefix(length)).withUnsafeBufferPointer { FuzzTargets.run($0) }
        }
    }
}
