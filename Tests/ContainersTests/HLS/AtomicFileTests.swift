import Containers
import Foundation
import Synchronization
import Testing
import TestSupport

/// Write-then-rename replacement: a reader sees a whole old or a whole new file, never a part.
@Suite struct AtomicFileTests {
    @Test("A reader thread polling the file while it is replaced again and again only ever sees one of the complete versions")
    func readerNeverSeesPartialFile() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("stream.m3u8").path
        // Versions of different sizes (up to 600 KiB, more than one write call) so a torn file shows.
        let versions = (0..<4).map { index in [UInt8](repeating: UInt8(ascii: "a") + UInt8(index), count: 1000 + index * 200_000) }
        try AtomicFile.replace(path, with: versions[0])
        let reads = Atomic<Int>(0), torn = Atomic<Int>(0), stop = Atomic<Bool>(false), stopped = Atomic<Bool>(false)
        let reader = Thread {
            while !stop.load(ordering: .acquiring) {
                let data = FileManager.default.contents(atPath: path)
                if let data, versions.contains(where: { $0.count == data.count && $0.first == data.first && $0.last == data.last }) {
                    reads.add(1, ordering: .relaxed)
                } else {
                    torn.add(1, ordering: .relaxed)
                }
            }
            stopped.store(true, ordering: .releasing)
        }
        reader.start()
        // At least 300 replacements, and on until the reader has read 200 times (bounded: 20 000 rounds).
        var round = 0
        while round < 300 || (reads.load(ordering: .relaxed) < 200 && round < 20_000) {
            try AtomicFile.replace(path, with: versions[round % versions.count])
            round += 1
        }
        stop.store(true, ordering: .releasing)
        while !stopped.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.001) }
        #expect(reads.load(ordering: .relaxed) >= 200, "the reader ran during \(round) replacements")
        #expect(torn.load(ordering: .relaxed) == 0, "\(torn.load(ordering: .relaxed)) reads saw a missing or partial file")
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
