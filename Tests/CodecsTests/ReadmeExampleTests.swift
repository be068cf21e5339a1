import Codecs
import Foundation
import Testing
import TestSupport

/// The README's library example runs (and stays the README's text): with the FFmpeg engine it films,
/// writes and decodes 60 pictures that ffprobe agrees with; without it the native engine refuses the
/// example's Main profile with an error that says what it codes.
struct ReadmeExampleTests {
    private static let marker = (begin: "// README example begins\n", end: "// README example ends\n")

    @Test("README.md's library example is the code this suite compiles")
    func readmeShowsTheTestedCode() throws {
        let tests = MediaFiles.packageRoot.appendingPathComponent("Tests/CodecsTests/ReadmeExample.swift")
        let source = try String(contentsOf: tests, encoding: .utf8)
        let readme = try String(contentsOf: MediaFiles.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(source.range(of: Self.marker.begin)), end = try #require(source.range(of: Self.marker.end))
        let example = String(source[begin.upperBound..<end.lowerBound])
        #expect(example.split(separator: "\n").count <= 45)
        let section = try #require(readme.range(of: "## The library\n"), "README.md has a \"## The library\" section")
        #expect(readme[section.upperBound...].contains("```swift\n" + example + "```\n"), "README.md shows ReadmeExample.swift")
    }

    #if FFmpeg
    @Test("the README example films, writes and decodes 60 pictures", .enabled(if: ExternalTool.isRunnable("ffprobe")))
    func exampleRuns() async throws {
        let path = try ExternalTool.temporaryDirectory().appendingPathComponent("readme.h264").path
        #expect(try await recordAndPlayBack(to: path) == 60)
        let probe = try await ExternalTool.check("ffprobe", ["-v", "error", "-count_frames", "-show_entries",
                                                        "stream=nb_read_frames,width,height", "-of", "csv=p=0", path])
        #expect(probe.text.trimmingCharacters(in: .whitespacesAndNewlines) == "320,240,60")
    }
    #else
    @Test("without FFmpeg the README example fails with an error that says what to change: the native engine codes Constrained Baseline only")
    func exampleExplainsTheMissingEngine() async throws {
        let path = try ExternalTool.temporaryDirectory().appendingPathComponent("readme.h264").path
        await #expect {
            _ = try await recordAndPlayBack(to: path)
        } throws: { error in
            guard case let .unsupportedProperty(property, reason, engine) = error as? CodecError else { return false }
            return property == .profileLevel && engine == "native" && reason.contains("Constrained Baseline")
        }
    }
    #endif
}
