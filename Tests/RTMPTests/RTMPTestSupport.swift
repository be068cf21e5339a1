import Bitstream
import Foundation
import POSIX
import TestSupport
@testable import Transport

/// One tag of an FLV file (FLV 10.1 §E.4.1), read by the tests' own small reader: the oracle is the file ffmpeg wrote.
struct FLVTestTag: Equatable {
    var type: UInt8
    var timestamp: UInt32
    var body: [UInt8]
}

/// Fixtures shared by the RTMP tests: an FLV that ffmpeg encoded (libx264 with B-frames, AAC), its tags.
enum RTMPFixtures {
    /// Whether the peers the end-to-end tests need are here (in CI they must be: the tests then fail, not skip).
    static var peersAvailable: Bool { ExternalTool.isCI || (ExternalTool.isRunnable("ffmpeg") && NginxRTMP.executablePath != nil) }

    /// Encodes 4 s of test pattern and tone with ffmpeg (libx264, B-frames, AAC) into an FLV in `directory`.
    /// - Returns: the file's path.
    static func makeFLV(in directory: URL, seconds: Int = 4) throws -> String {
        let path = directory.appendingPathComponent("source.flv").path
        try ExternalTool.check("ffmpeg", ["-hide_banner", "-v", "error", "-y",
                                          "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25",
                                          "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100",
                                          "-t", "\(seconds)", "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-bf", "2",
                                          "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k", "-f", "flv", path])
        return path
    }

    /// The tags of an FLV file.
    static func tags(ofFLV path: String) throws -> [FLVTestTag] {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard data.count >= 13, data[0] == 0x46, data[1] == 0x4C, data[2] == 0x56 else { throw TestFailure("\(path) is not FLV") }
        var offset = Int(data[5]) << 24 | Int(data[6]) << 16 | Int(data[7]) << 8 | Int(data[8])
        offset += 4
        var tags: [FLVTestTag] = []
        while offset + 11 <= data.count {
            let size = Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8 | Int(data[offset + 3])
            let timestamp = UInt32(data[offset + 7]) << 24 | UInt32(data[offset + 4]) << 16 | UInt32(data[offset + 5]) << 8 | UInt32(data[offset + 6])
            guard offset + 11 + size <= data.count else { break }
            tags.append(FLVTestTag(type: data[offset] & 0x1F, timestamp: timestamp, body: Array(data[(offset + 11)..<(offset + 11 + size)])))
            offset += 11 + size + 4
        }
        return tags
    }

    /// framemd5 rows (stream, dts, pts, duration, size, hash) of `-c copy` packets: what a demuxer hands out.
    static func packetHashes(_ path: String, extraInput: [String] = []) throws -> [[String]] {
        let out = try ExternalTool.check("ffmpeg", ["-hide_banner", "-v", "error"] + extraInput + ["-i", path, "-c", "copy", "-f", "framemd5", "-"])
        return rows(ofFrameMD5: out.text)
    }

    /// The rows of a framemd5 text, each split at commas and trimmed.
    static func rows(ofFrameMD5 text: String) -> [[String]] {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }
}

/// Collects an RTMP server's events for the test to look at.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [RTMPServerEvent] = []
    private var task: Task<Void, Never>?

    init(_ server: RTMPServer) {
        task = Task { [weak self] in
            for await event in server.events { self?.append(event) }
        }
    }

    private func append(_ event: RTMPServerEvent) {
        lock.lock()
        stored.append(event)
        lock.unlock()
    }

    var events: [RTMPServerEvent] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    /// Waits until an event matches, at most `seconds`.
    func wait(seconds: Double = 10, for predicate: (RTMPServerEvent) -> Bool) async -> RTMPServerEvent? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let found = events.first(where: predicate) { return found }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return events.first(where: predicate)
    }
}

/// Whether `part` appears in `whole` as one contiguous run (a player that joined late or left early gets a run of
/// what was sent, never a different or reordered packet).
func isContiguousRun<T: Equatable>(_ part: [T], of whole: [T]) -> Bool {
    guard !part.isEmpty, part.count <= whole.count else { return part.isEmpty }
    for start in 0...(whole.count - part.count) where whole[start] == part[0] {
        if Array(whole[start..<(start + part.count)]) == part { return true }
    }
    return false
}

/// The resident set size of this process, in bytes (from /proc/self/statm).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
