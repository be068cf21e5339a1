import Bitstream
import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// AnnexBWriter on frames rebuilt from real encoder output (the shared cars clip, x264 and x265 runs):
/// ffmpeg must decode our stream to the same pictures as the original, and every key frame must be
/// preceded by its parameter sets, never twice.
@Suite("AnnexBWriter")
struct AnnexBWriterTests {
    /// Rebuilds VideoToolbox-style frames from an Annex B stream (a test helper, not a parser):
    /// a new access unit starts at an AUD / parameter set / SEI after a slice, or at a slice whose
    /// first_mb_in_slice (H.264) / first_slice_segment_in_pic_flag (H.265) is set when the unit
    /// already has a slice. Parameter sets are moved to the format unless `keepInBand`.
    static func frames(fromAnnexB stream: [UInt8], codec: CodecType, keepInBand: Bool = false) -> [EncodedFrame] {
        var units: [[UInt8]] = []
        for range in AnnexB.nalUnitRanges(in: stream) { units.append(Array(stream[range])) }
        let time = MediaTime(value: 0, timescale: 90000)
        var parameterSets: [Int: [UInt8]] = [:]  // by type, latest wins
        var frames: [EncodedFrame] = []
        var current: [[UInt8]] = []
        var hasSlice = false
        var isKey = false
        func flush() {
            guard hasSlice else { return }
            let order = codec == .hevc ? [32, 33, 34] : [7, 8]
            let format = FormatDescription(codec: codec, width: 0, height: 0,
                                   profileLevel: ProfileLevel(codec: codec, profileNamed: "", level: nil),
                                           parameterSets: order.compactMap { parameterSets[$0] })
            var data: [UInt8] = []
            for unit in current { try? AVCC.append(unit, lengthSize: 4, to: &data) }
            frames.append(EncodedFrame(data: data, isKeyFrame: isKey, pts: time, dts: time, duration: time, format: format))
            current = []
            hasSlice = false
            isKey = false
        }
        for unit in units {
            let type = codec == .hevc ? Int(unit[0] >> 1) & 0x3F : Int(unit[0] & 0x1F)
            let isSlice = codec == .hevc ? type < 32 : (1...5).contains(type)
            let flagByte = codec == .hevc ? 2 : 1
            let firstSliceOfPicture = unit.count > flagByte && unit[flagByte] & 0x80 != 0
            let isParameterSet = codec == .hevc ? (32...34).contains(type) : (type == 7 || type == 8)
            let startsUnit = codec == .hevc ? [32, 33, 34, 35, 39].contains(type) : [6, 7, 8, 9].contains(type)
            if hasSlice && (startsUnit || (isSlice && firstSliceOfPicture)) { flush() }
            if isParameterSet { parameterSets[type] = unit }
            if isSlice {
                hasSlice = true
                // H.264 IDR (5); H.265 IRAP (16...23).
                if codec == .hevc ? (16...23).contains(type) : type == 5 { isKey = true }
            }
            if !isParameterSet || keepInBand { current.append(unit) }
        }
        flush()
        return frames
    }

    /// NAL unit types of a stream, in order.
    static func types(_ stream: [UInt8], codec: CodecType) -> [Int] {
        AnnexB.nalUnitRanges(in: stream).map { codec == .hevc ? Int(stream[$0.lowerBound] >> 1) & 0x3F : Int(stream[$0.lowerBound] & 0x1F) }
    }

    /// ffmpeg's per-frame MD5s of a decoded stream.
    static func frameMD5s(_ stream: [UInt8], format: String) throws -> [String] {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.\(format)")
        try Data(stream).write(to: path)
        let output = try ExternalTool.check("ffmpeg", ["-v", "error", "-f", format, "-i", path.path, "-f", "framemd5", "-"])
        return output.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map(String.init) }
    }

    /// Writes frames with our writer into memory.
    static func write(_ frames: [EncodedFrame]) throws -> [UInt8] {
        var writer = AnnexBWriter(sink: MemoryByteSink())
        for frame in frames { try writer.write(frame) }
        try writer.finish()
        return writer.sink.bytes
    }

    /// Runs an encoder into a temporary file and returns its output.
    static func encode(_ tool: String, _ arguments: (String) -> [String]) throws -> [UInt8] {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent(tool == "x265" ? "out.265" : "out.264").path
        try ExternalTool.check(tool, arguments(out))
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    /// Checks that in each key frame's access unit the parameter sets come before the first slice,
    /// and that a leading AUD stays first. Returns the number of key frames seen.
    static func checkParameterSetsBeforeKeyFrames(_ stream: [UInt8], codec: CodecType) -> Int {
        let parameterTypes = codec == .hevc ? [32, 33, 34] : [7, 8]
        let keyTypes = codec == .hevc ? Set(16...23) : [5]
        let types = Self.types(stream, codec: codec)
        var keyFrames = 0
        var seenSinceLastSlice: [Int] = []
        var previousWasSlice = false
        for type in types {
            let isSlice = codec == .hevc ? type < 32 : (1...5).contains(type)
            if isSlice {
                if keyTypes.contains(type) && !previousWasSlice {
                    keyFrames += 1
                    #expect(Array(seenSinceLastSlice.filter(parameterTypes.contains)) == parameterTypes,
                            "key frame \(keyFrames): units before it \(seenSinceLastSlice)")
                }
                seenSinceLastSlice = []
            } else {
                seenSinceLastSlice.append(type)
            }
            previousWasSlice = isSlice
        }
        return keyFrames
    }

    @Test("cars_320x240.h264 without in-band SPS/PPS: same 30 pictures as the original, SPS/PPS before the IDR", .requiresMedia,
          .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func carsH264() throws {
        let original = try MediaFiles.bytes("encoded/cars_320x240.h264")
        let frames = Self.frames(fromAnnexB: original, codec: .h264)
        #expect(frames.count == 30)
        #expect(frames.allSatisfy { frame in
            frame.nalUnitRanges.allSatisfy { ![7, 8].contains(Int(frame.data[$0.lowerBound] & 0x1F)) }
        })
        let ours = try Self.write(frames)
        #expect(Self.checkParameterSetsBeforeKeyFrames(ours, codec: .h264) == 1)
        let expected = try Self.frameMD5s(original, format: "h264")
        #expect(expected.count == 30)
        #expect(try Self.frameMD5s(ours, format: "h264") == expected)
    }

    @Test("x264 with an IDR every 3 frames and AUDs: SPS/PPS after the AUD of every IDR", .requiresMedia,
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "x264")))
    func x264KeyFrames() throws {
        let source = MediaFiles.url("sequences/foreman_qcif8.y4m").path
        let stream = try Self.encode("x264") { ["--quiet", "--keyint", "3", "--min-keyint", "3", "--no-scenecut", "--aud",
                                                "--bframes", "0", "-o", $0, source] }
        let frames = Self.frames(fromAnnexB: stream, codec: .h264)
        #expect(frames.count == 8)
        #expect(frames.map(\.isKeyFrame) == [true, false, false, true, false, false, true, false])
        let ours = try Self.write(frames)
        #expect(Self.checkParameterSetsBeforeKeyFrames(ours, codec: .h264) == 3)
        // Each access unit still starts with its AUD (H.264 §7.4.1.2.3): AUD, SPS, PPS, … for the IDRs.
        let types = Self.types(ours, codec: .h264)
        #expect(types.filter { $0 == 7 }.count == 3)
        #expect(types.prefix(3) == [9, 7, 8])
        #expect(try Self.frameMD5s(ours, format: "h264") == (try Self.frameMD5s(stream, format: "h264")))
    }

    @Test("in-band SPS/PPS (x264 repeats them at every IDR) are not duplicated", .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffmpeg", "x264")))
    func inBandNotDuplicated() throws {
        let source = MediaFiles.url("sequences/foreman_qcif8.y4m").path
        let stream = try Self.encode("x264") { ["--quiet", "--keyint", "3", "--min-keyint", "3", "--no-scenecut", "-o", $0, source] }
        let frames = Self.frames(fromAnnexB: stream, codec: .h264, keepInBand: true)
        let ours = try Self.write(frames)
        #expect(Self.types(ours, codec: .h264).filter { $0 == 7 || $0 == 8 }.count == 6)
        // Nothing added, nothing lost: the same NAL units as x264 wrote.
        #expect(AnnexB.nalUnitRanges(in: ours).map { Array(ours[$0]) } == AnnexB.nalUnitRanges(in: stream).map { Array(stream[$0]) })
        #expect(Self.checkParameterSetsBeforeKeyFrames(ours, codec: .h264) == 3)
        #expect(try Self.frameMD5s(ours, format: "h264") == (try Self.frameMD5s(stream, format: "h264")))
    }

    @Test("x265 with a key frame every 3 frames: VPS/SPS/PPS before every IRAP picture", .requiresMedia,
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "x265")))
    func x265KeyFrames() throws {
        let source = MediaFiles.url("sequences/foreman_qcif8.y4m").path
        let stream = try Self.encode("x265") { ["--log-level", "none", "--keyint", "3", "--min-keyint", "3", "--no-scenecut",
                                                "--bframes", "0", "--input", source, "--output", $0] }
        let frames = Self.frames(fromAnnexB: stream, codec: .hevc)
        #expect(frames.count == 8)
        #expect(frames.filter(\.isKeyFrame).count == 3)
        let ours = try Self.write(frames)
        #expect(Self.checkParameterSetsBeforeKeyFrames(ours, codec: .hevc) == 3)
        #expect(try Self.frameMD5s(ours, format: "hevc") == (try Self.frameMD5s(stream, format: "hevc")))
    }

    @Test("audio, a changing codec and a broken length prefix are refused")
    func errors() throws {
        let time = MediaTime(value: 0, timescale: 1)
        let format = FormatDescription(codec: .h264, width: 2, height: 2,
                                   profileLevel: ProfileLevel(codec: .h264, profileNamed: "", level: nil), parameterSets: [[0x67, 1], [0x68, 2]])
        var writer = AnnexBWriter(sink: MemoryByteSink())
        let audio = FormatDescription(codec: .aac, width: 0, height: 0,
                                   profileLevel: ProfileLevel(codec: .aac, profileNamed: "", level: nil), parameterSets: [])
        #expect(throws: ContainerWriteError.unsupportedCodec(.aac, frameIndex: 0)) {
            try writer.write(EncodedFrame(data: [], isKeyFrame: true, pts: time, dts: time, duration: time, format: audio))
        }
        // A 4-byte length of 9 followed by 2 bytes (ISO/IEC 14496-15 length-prefixed framing).
        #expect(throws: ContainerWriteError.malformedFrame(frameIndex: 0, .truncatedNALUnit(byteOffset: 0, nalIndex: 0, declared: 9, available: 2))) {
            try writer.write(EncodedFrame(data: [0, 0, 0, 9, 0x65, 0x88], isKeyFrame: true, pts: time, dts: time, duration: time, format: format))
        }
        // A key frame: the writer puts start codes, SPS and PPS in front of the slice.
        try writer.write(EncodedFrame(data: [0, 0, 0, 2, 0x65, 0x88], isKeyFrame: true, pts: time, dts: time, duration: time, format: format))
        #expect(writer.sink.bytes == [0, 0, 0, 1, 0x67, 1, 0, 0, 0, 1, 0x68, 2, 0, 0, 0, 1, 0x65, 0x88])
        var hevc = format
        hevc.codec = .hevc
        #expect(throws: ContainerWriteError.frameMismatch(frameIndex: 1, reason: "codec hevc in a h264 stream")) {
            try writer.write(EncodedFrame(data: [0, 0, 0, 2, 0x26, 0x01], isKeyFrame: true, pts: time, dts: time, duration: time, format: hevc))
        }
        try writer.finish()
        #expect(throws: ContainerWriteError.alreadyFinished) {
            try writer.write(EncodedFrame(data: [], isKeyFrame: false, pts: time, dts: time, duration: time, format: format))
        }
    }

    @Test("to a file through the buffered sink", .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffprobe")))
    func toFile() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cars.h264").path
        let frames = Self.frames(fromAnnexB: try MediaFiles.bytes("encoded/cars_320x240.h264"), codec: .h264)
        var writer = try AnnexBWriter(path: path)
        for frame in frames { try writer.write(frame) }
        try writer.finish()
        let output = try await ExternalTool.check("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames,width,height",
                                                        "-of", "csv=p=0", path])
        #expect(output.text.trimmingCharacters(in: .whitespacesAndNewlines) == "320,240,30")
    }
}
