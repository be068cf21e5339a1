import Foundation
import Testing
import TestSupport

/// What the user reads when `decode`, `encode` or `inspect` cannot read its input: one line naming the
/// path and the C library's reason, never a Foundation error dump, and exit status 1.
@Suite struct FileErrorMessageTests {
    /// A missing file, a directory, and a path that runs through a regular file, in a fresh folder.
    private struct BadPaths {
        let missing: String
        let directory: String
        let throughAFile: String
        let unreadable: String?

        /// - Parameter fileExtension: the extension each path ends with (the command picks the format by it).
        init(fileExtension: String = "h264") throws {
            let folder = try ExternalTool.temporaryDirectory()
            missing = folder.appendingPathComponent("missing.\(fileExtension)").path
            directory = folder.appendingPathComponent("folder.\(fileExtension)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            let plain = folder.appendingPathComponent("plain").path
            try Data().write(to: URL(fileURLWithPath: plain))
            throughAFile = plain + "/x.\(fileExtension)"
            // Permissions do not stop root, so the EACCES case exists only for other users.
            if getuid() != 0 {
                let locked = folder.appendingPathComponent("locked.\(fileExtension)").path
                try Data([0, 0, 0, 1]).write(to: URL(fileURLWithPath: locked))
                try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked)
                unreadable = locked
            } else {
                unreadable = nil
            }
        }

        /// Each path and the text `strerror` gives for it.
        var cases: [(path: String, reason: String)] {
            [(missing, "No such file or directory (errno 2)"), (directory, "Is a directory (errno 21)"),
             (throughAFile, "Not a directory (errno 20)")] + (unreadable.map { [($0, "Permission denied (errno 13)")] } ?? [])
        }
    }

    @Test("decode: streamkit decode: cannot open PATH: REASON")
    func decode() throws {
        let paths = try BadPaths()
        let output = try ExternalTool.temporaryDirectory().appendingPathComponent("out.y4m").path
        for (path, reason) in paths.cases {
            let run = try CLI.run(["decode", path, "-o", output])
            #expect(run.status == 1)
            #expect(run.standardError == "streamkit decode: cannot open \(path): \(reason)\n")
            #expect(!FileManager.default.fileExists(atPath: output), "nothing written")
        }
    }

    @Test("inspect: streamkit inspect: cannot open PATH: REASON (and the same text as JSON with --json)")
    func inspect() throws {
        let paths = try BadPaths()
        for (path, reason) in paths.cases {
            let run = try CLI.run(["inspect", path])
            #expect(run.status == 1)
            #expect(run.standardError == "streamkit inspect: cannot open \(path): \(reason)\n")
            #expect(run.text.isEmpty)
            let json = try CLI.run(["inspect", "--json", path])
            #expect(json.status == 1)
            let object = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [String: Any])
            #expect(object["error"] as? String == "cannot open \(path): \(reason)")
        }
    }

    @Test("encode: streamkit encode: FORMAT: cannot open PATH: REASON", arguments: [("y4m", "Y4M"), ("yuv", "raw video"), ("wav", "WAV")])
    func encode(fileExtension: String, format: String) throws {
        let paths = try BadPaths(fileExtension: fileExtension)
        let output = try ExternalTool.temporaryDirectory().appendingPathComponent(fileExtension == "wav" ? "out.aac" : "out.h264").path
        for (path, reason) in paths.cases {
            let run = try CLI.run(["encode", path, "-o", output] + (fileExtension == "yuv" ? ["--size", "64x64"] : []))
            #expect(run.status == 1)
            #expect(run.standardError == "streamkit encode: \(format): cannot open \(path): \(reason)\n")
        }
    }
}
