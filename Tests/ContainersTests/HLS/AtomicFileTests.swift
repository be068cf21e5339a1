import Containers
import Foundation
import Testing
import TestSupport

/// Write-then-rename replacement: a reader sees a whole old or a whole new file, never a part.
@Suite struct AtomicFileTests {
    @Test("A reader polling the file while it is replaced 300 times only ever sees one of the complete versions")
    func readerNeverSeesPartialFile() async throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("stream.m3u8").path
        // Versions of different sizes (up to 600 KiB, more than one write call) so a torn file shows.
        let versions = (0..<4).map { index in [UInt8](repeating: UInt8(ascii: "a") + UInt8(index), count: 1000 + index * 200_000) }
        try AtomicFile.replace(path, with: versions[0])
        let reader = Task.detached { () -> (reads: Int, torn: Int) in
            var reads = 0, torn = 0
            while !Task.isCancelled {
                guard let data = FileManager.default.contents(atPath: path) else { torn += 1; continue }
                reads += 1
                if !versions.contains(where: { $0.count == data.count && $0.first == data.first && $0.last == data.last }) { torn += 1 }
            }
            return (reads, torn)
        }
        for round in 0..<300 { try AtomicFile.replace(path, with: versions[round % versions.count]) }
        reader.cancel()
        let (reads, torn) = await reader.value
        #expect(reads > 0)
        #expect(torn == 0, "\(torn) of \(reads) reads saw a missing or partial file")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left == ["stream.m3u8"], "the temporary file is renamed, not left behind")
    }

    @Test("A missing directory is a typed error naming the temporary file; nothing is created")
    func missingDirectory() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("missing/stream.m3u8").path
        #expect(throws: ContainerIOError(operation: .open, path: folder.appendingPathComponent("missing/.stream.m3u8.partial").path, code: 2)) {
            try AtomicFile.replace(path, withText: "#EXTM3U\n")
        }
    }

    @Test("Renaming over a directory fails, leaves the directory and removes the temporary file")
    func renameOverDirectoryFails() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("taken").path
        try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
        #expect(throws: ContainerIOError.self) { try AtomicFile.replace(path, withText: "x") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["taken"])
    }
}
