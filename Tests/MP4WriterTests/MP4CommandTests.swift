#if FFmpeg
import Foundation
import Testing
import TestSupport

/// `streamkit record -o x.mp4` and `encode … -o x.mp4/.m4a/.mov`, checked with ffprobe and ffmpeg,
/// and the crash safety of a fragmented recording killed with SIGKILL.
@Suite("streamkit MP4 outputs", .enabled(if: MP4TestMedia.toolsAvailable))
struct MP4CommandTests {
    @Test("record -o x.mp4: one fragmented file with both tracks, start 0, every frame, clean decode")
    func recordFragmented() async throws {
        let path = try MP4TestMedia.path("record.mp4")
        let run = try await ExternalTool.runProduct("streamkit", ["record", "-o", path, "--frames", "60", "--size", "320x240", "--gop", "15"])
        #expect(run.status == 0, "\(run.standardError)")
        let boxes = try MP4WriterTests.topLevelBoxes(path)
        #expect(boxes.prefix(2) == ["ftyp", "moov"] && boxes.contains("moof") && boxes.last == "mfra", "boxes \(boxes)")
        let streams = try MP4TestMedia.streams(path)
        try #require(streams.count == 2)
        #expect(streams[0]["codec_name"] == "h264" && streams[0]["width"] == "320")
        #expect(streams[1]["codec_name"] == "aac")
        #expect(Double(streams[0]["start_time"] ?? "") == 0 && Double(streams[1]["start_time"] ?? "") == 0)
        #expect(try MP4TestMedia.packets(path, stream: "v:0").count == 60)
        let videoDuration = try #require(Double(streams[0]["duration"] ?? ""))
        let audioDuration = try #require(Double(streams[1]["duration"] ?? ""))
        #expect(abs(videoDuration - audioDuration) <= 1.0 / 30 + 0.0001, "video \(videoDuration) s, audio \(audioDuration) s")
        #expect(try MP4TestMedia.decodeErrors(path) == "")
    }

    @Test("record --no-fragments --faststart: a classic file, moov first")
    func recordClassic() async throws {
        let path = try MP4TestMedia.path("record-classic.mp4")
        let run = try await ExternalTool.runProduct("streamkit", ["record", "-o", path, "--frames", "45", "--size", "320x240",
                                                            "--no-fragments", "--faststart"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try MP4WriterTests.topLevelBoxes(path) == ["ftyp", "moov", "free", "mdat"])
        let streams = try MP4TestMedia.streams(path)
        try #require(streams.count == 2)
        #expect(streams[0]["nb_frames"] == "45")
        #expect(Double(streams[0]["start_time"] ?? "") == 0 && Double(streams[1]["start_time"] ?? "") == 0)
        #expect(try MP4TestMedia.decodeErrors(path) == "")
    }

    @Test("encode testsrc/sine -o .mp4, .mov (H.265), .m4a")
    func encode() async throws {
        let mp4 = try MP4TestMedia.path("encode.mp4"), mov = try MP4TestMedia.path("encode.mov"), m4a = try MP4TestMedia.path("encode.m4a")
        #expect(try await ExternalTool.runProduct("streamkit", ["encode", "testsrc", "-o", mp4, "--frames", "30", "--bframes", "2"]).status == 0)
        #expect(try await ExternalTool.runProduct("streamkit", ["encode", "testsrc", "-o", mov, "--frames", "20", "--codec", "hevc"]).status == 0)
        #expect(try await ExternalTool.runProduct("streamkit", ["encode", "sine", "-o", m4a, "--duration", "1"]).status == 0)
        for (path, codec, frames) in [(mp4, "h264", "30"), (mov, "hevc", "20")] {
            let stream = try #require(try MP4TestMedia.streams(path).first)
            #expect(stream["codec_name"] == codec && stream["nb_frames"] == frames)
            #expect(Double(stream["start_time"] ?? "") == 0)
            #expect(try MP4TestMedia.decodeErrors(path) == "")
        }
        let audio = try #require(try MP4TestMedia.streams(m4a).first)
        #expect(audio["codec_name"] == "aac" && Double(audio["start_time"] ?? "") == 0)
        #expect(abs((Double(audio["duration"] ?? "") ?? 0) - 1) < 0.03)
    }

    @Test("encode in.mp4 (ffmpeg's, B-frames + AAC) -o .h264 and .mp4: the video decoded and encoded again, every frame")
    func encodeFromMP4() async throws {
        let input = try MP4TestMedia.path("transcode-in.mp4")
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2",
                                          "-f", "lavfi", "-i", "sine=duration=2", "-c:v", "libx264", "-bf", "3", "-c:a", "aac", input])
        let inputFrames = try #require(try MP4TestMedia.streams(input).first?["nb_frames"])
        #expect(inputFrames == "50")
        let h264 = try MP4TestMedia.path("transcode.h264"), mp4 = try MP4TestMedia.path("transcode.mp4")
        for output in [h264, mp4] {
            let run = try await ExternalTool.runProduct("streamkit", ["encode", input, "-o", output, "--gop", "10"])
            #expect(run.status == 0, "\(run.standardError)")
            let probe = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                                           "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0", output])
            #expect(probe.text.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,320,240,\(inputFrames)", "\(output)")
            #expect(try MP4TestMedia.decodeErrors(output) == "")
        }
        // The frame rate comes from the input: 50 frames over 2 s.
        let stream = try #require(try MP4TestMedia.streams(mp4).first)
        #expect(stream["r_frame_rate"] == "25/1" && Double(stream["start_time"] ?? "") == 0)
        let sized = try await ExternalTool.runProduct("streamkit", ["encode", input, "-o", h264, "--size", "64x64"])
        #expect(sized.status != 0, "--size conflicts with an MP4 input")
    }

    @Test("record -o x.mp4 killed with SIGKILL after 3, 7 and 11 s: each file plays every frame of its complete fragments")
    func killedRecordings() throws {
        let streamkit = try ExternalTool.builtProduct("streamkit")
        let seconds = [3.0, 7.0, 11.0]
        var recordings: [(Process, String, Double)] = []
        // Whatever fails below, no recording outlives the test (each would run for an hour).
        defer { for (process, _, _) in recordings where process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let start = Date()
        // The three recordings run at once (total time: 11 s), each with one-second fragments.
        for time in seconds {
            let path = try MP4TestMedia.path("killed-\(Int(time)).mp4")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: streamkit)
            process.arguments = ["record", "-o", path, "--frames", "100000", "--size", "320x240", "--gop", "30"]
            process.standardError = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            recordings.append((process, path, time))
        }
        for (process, path, time) in recordings {
            let wait = time - Date().timeIntervalSince(start)
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let complete = Self.completeFragmentVideoSamples(bytes)
            let packets = try MP4TestMedia.packets(path, stream: "v:0")
            // Every frame up to the last complete fragment, none of the torn one.
            #expect(packets.count == complete, "\(path): ffprobe \(packets.count) frames, complete fragments hold \(complete)")
            // At most one fragment (30 frames) plus the start-up (under 1.5 s) short of what the camera gave.
            #expect(packets.count <= Int(time * 30) && packets.count >= Int((time - 1.5) * 30) - 30,
                    "\(packets.count) frames after \(time) s")
            #expect(try MP4TestMedia.decodeErrors(path) == "", "\(path) does not decode cleanly")
        }
    }

    /// The video samples (track 1) of the fragments whose `moof` and `mdat` are both whole in the file.
    static func completeFragmentVideoSamples(_ bytes: [UInt8]) -> Int {
        func uint32(_ offset: Int) -> Int { bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 0
        var samples = 0
        var pendingMoof: Int?
        while offset + 8 <= bytes.count {
            let size = uint32(offset)
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard size >= 8, offset + size <= bytes.count else { break }
            if type == "moof" { pendingMoof = offset }
            if type == "mdat", let moof = pendingMoof {
                samples += MP4Boxes.payloads(of: "traf", in: Array(bytes[moof..<offset])).reduce(0) { count, traf in
                    // tfhd's track_ID (after its header and version/flags), then trun's sample_count.
                    let track = traf[12..<16].reduce(0) { $0 << 8 | Int($1) }
                    guard track == 1 else { return count }
                    var inner = 0
                    while inner + 8 <= traf.count {
                        let boxSize = traf[inner..<(inner + 4)].reduce(0) { $0 << 8 | Int($1) }
                        if String(decoding: traf[(inner + 4)..<(inner + 8)], as: UTF8.self) == "trun" {
                            return count + traf[(inner + 12)..<(inner + 16)].reduce(0) { $0 << 8 | Int($1) }
                        }
                        guard boxSize >= 8 else { break }
                        inner += boxSize
                    }
                    return count
                }
                pendingMoof = nil
            }
            offset += size
        }
        return samples
    }
}
#endif
