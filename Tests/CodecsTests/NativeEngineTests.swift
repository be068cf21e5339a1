import Capture
import Codecs
import Containers
import Foundation
import MediaCore
import NativeH264
import Testing
import TestSupport

/// The `native` engine through the session API, in every build (no FFmpeg trait needed to encode):
/// the program a user writes, the refusals, live rate changes and forced key frames, with ffprobe and
/// ffmpeg as the oracles.
@Suite(.enabled(if: ExternalTool.isRunnable("ffprobe") || ProcessInfo.processInfo.environment["CI"] == "true"))
struct NativeEngineTests {
    /// A live-style configuration the native engine takes.
    static func configuration(width: Int = 320, height: Int = 240, bitRate: Int? = 500_000) -> CompressionConfiguration {
        var configuration = CompressionConfiguration(codec: .h264, width: width, height: height,
                                                     profileLevel: ProfileLevel(profile: .constrainedBaseline))
        configuration.allowFrameReordering = false
        configuration.averageBitRate = bitRate
        configuration.maxKeyFrameInterval = 30
        configuration.realTime = true
        configuration.engineName = "native"
        return configuration
    }

    /// Feeds `count` camera frames to a session (calling `before` ahead of each) and collects its frames.
    static func encode(_ session: CompressionSession, count: Int, width: Int = 320, height: Int = 240,
                       before: @Sendable (Int) async throws -> Bool = { _ in false }) async throws -> [EncodedFrame] {
        let collecting = Task {
            var frames = [EncodedFrame]()
            for await output in session.outputs { if case let .frame(frame) = output { frames.append(frame) } }
            return frames
        }
        let camera = try SyntheticCamera(width: width, height: height, frameRate: 30, realTime: false, frameLimit: count)
        var index = 0
        while let frame = try await camera.nextFrame() {
            let force = try await before(index)
            try await session.encode(frame.pixelBuffer, pts: frame.pts, duration: frame.duration, forceKeyFrame: force)
            index += 1
        }
        _ = try await session.close()
        return await collecting.value
    }

    /// Writes frames as an Annex B file.
    static func write(_ frames: [EncodedFrame], to path: String) throws {
        var file = try AnnexBWriter(path: path)
        for frame in frames { try file.write(frame) }
        try file.finish()
    }

    @Test("a user's program: camera → session with engine native → an Annex B file ffprobe reads as Constrained Baseline")
    func userProgram() async throws {
        // The program: a Constrained Baseline session on the native engine, 60 camera frames, a file.
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240,
                                                     profileLevel: ProfileLevel(profile: .constrainedBaseline))
        configuration.allowFrameReordering = false
        configuration.averageBitRate = 500_000
        configuration.engineName = "native"
        let session = try CompressionSession(configuration: configuration)
        #expect(session.engineName == "native" && !session.isHardware)
        let frames = try await Self.encode(session, count: 60)

        #expect(frames.count == 60)
        #expect(frames.first?.isKeyFrame == true)
        #expect(frames.first?.format.parameterSets.count == 2)
        #expect(frames.first?.format.profileLevel.profile == .constrainedBaseline)
        let path = try ExternalTool.temporaryDirectory().appendingPathComponent("native.h264").path
        try Self.write(frames, to: path)
        let probe = try await ExternalTool.check("ffprobe", ["-v", "error", "-count_frames", "-show_entries",
                                                        "stream=profile,width,height,nb_read_frames,r_frame_rate", "-of", "csv=p=0", path])
        #expect(probe.text.trimmingCharacters(in: .whitespacesAndNewlines) == "Constrained Baseline,320,240,30/1,60")
        let decoded = try await ExternalTool.run("ffmpeg", ["-hide_banner", "-v", "error", "-err_detect", "explode", "-i", path, "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.standardError.isEmpty, "\(decoded.standardError)")
    }

    @Test("what the native engine cannot code is refused at creation, naming the property")
    func refusals() {
        func refusal(_ change: (inout CompressionConfiguration) -> Void) -> CodecError? {
            var configuration = Self.configuration()
            change(&configuration)
            do {
                _ = try CompressionSession(configuration: configuration)
                return nil
            } catch {
                return error
            }
        }
        func property(_ error: CodecError?) -> ConfigurationProperty? {
            if case let .unsupportedProperty(property, _, engine) = error, engine == "native" { return property }
            return nil
        }
        #expect(property(refusal { $0.allowFrameReordering = true }) == .maxBFrames)
        #expect(property(refusal { $0.allowFrameReordering = true; $0.maxBFrames = 2 }) == .maxBFrames)
        #expect(refusal { $0.allowFrameReordering = true; $0.maxBFrames = 0 } == nil, "no B-frames asked for")
        #expect(property(refusal { $0.profileLevel = .h264Main; $0.entropyMode = .cabac }) == .entropyMode)
        #expect(property(refusal { $0.profileLevel = .h264High }) == .profileLevel)
        #expect(property(refusal { $0.profileLevel = .h264Main }) == .profileLevel)
        #expect(property(refusal { $0.profileLevel = ProfileLevel(codec: .h264, profileNamed: "Constrained Baseline", level: "1") }) == .profileLevel,
                "320x240 at 30 fps needs level 2")
        #expect(refusal { $0.profileLevel = ProfileLevel(codec: .h264, profileNamed: "Baseline", level: "3.1") } == nil)
        if case .invalidConfiguration(.quantizer, _) = refusal({ $0.quantizer = 30 }) {} else {
            Issue.record("a QP and a bit rate together are refused by CompressionConfiguration.validate()")
        }
        #expect(refusal { $0.averageBitRate = nil; $0.quantizer = 30 } == nil)
        if case .noEngine = refusal({ $0.codec = .hevc; $0.profileLevel = .hevcMain }) {} else {
            Issue.record("native encodes no H.265")
        }
        let message = "\(refusal { $0.profileLevel = .h264High } ?? .sessionClosed)"
        #expect(message.contains("native") && message.contains("Constrained Baseline"), "\(message)")
    }

    /// On foreman QCIF: natural pictures whose size follows the quantiser. (The synthetic camera is flat colour
    /// with moving edges: at 320x240 the native encoder spends 93–137 kbit/s on it at every QP from 25 to 51 —
    /// headers and motion, hardly any residual — so no rate controller could take it to 50 kbit/s.)
    @Test("a live bit-rate change lowers the bit rate of the frames after it", .requiresMedia)
    func liveBitRateChange() async throws {
        var reader = try Y4MReader(path: MediaFiles.url("sequences/foreman_qcif8.y4m").path)
        var pictures: [PixelBuffer] = []
        while pictures.count < 90, let picture = try reader.nextFrame() { pictures.append(picture) }
        try #require(pictures.count >= 8)
        // Played forwards and back until there are 90 (no cut in the motion).
        let cycle = pictures + pictures.dropFirst().dropLast().reversed()
        let input = (0..<90).map { cycle[$0 % cycle.count] }

        var configuration = Self.configuration(width: 176, height: 144, bitRate: 600_000)
        configuration.maxKeyFrameInterval = 300
        let session = try CompressionSession(configuration: configuration)
        let collecting = Task {
            var frames = [EncodedFrame]()
            for await output in session.outputs { if case let .frame(frame) = output { frames.append(frame) } }
            return frames
        }
        for (index, picture) in input.enumerated() {
            if index == 45 { try await session.setRateControl(averageBitRate: 150_000, dataRateLimits: []) }
            try await session.encode(picture, pts: MediaTime(value: Int64(index), timescale: 30), duration: MediaTime(value: 1, timescale: 30))
        }
        _ = try await session.close()
        let frames = await collecting.value
        #expect(frames.count == 90)
        let before = frames[15..<45].reduce(0) { $0 + $1.data.count } * 8 * 30 / 30
        let after = frames[60..<90].reduce(0) { $0 + $1.data.count } * 8 * 30 / 30
        print("native live change: \(before) bit/s before, \(after) bit/s after (600 k → 150 k)")
        #expect(after * 2 < before, "\(after) bit/s after vs \(before) before")
        #expect(Double(after) < 150_000 * 1.3 && Double(after) > 150_000 * 0.7, "\(after) bit/s after the change to 150 kbit/s")
        let constant = try CompressionSession(configuration: Self.configuration(bitRate: nil))
        await #expect(throws: CodecError.unsupportedProperty(
            .averageBitRate, reason: "turned on on a running session (set it when the session is created)", engine: "native")) {
            try await constant.setRateControl(averageBitRate: 100_000, dataRateLimits: [])
        }
        _ = try await constant.close()
    }

    @Test("a forced key frame is an IDR picture with its parameter sets")
    func forcedKeyFrame() async throws {
        var configuration = Self.configuration()
        configuration.maxKeyFrameInterval = 300
        let session = try CompressionSession(configuration: configuration)
        let frames = try await Self.encode(session, count: 20) { index in
            if index == 12 { session.requestKeyFrame() }
            return index == 7
        }
        #expect(frames.map(\.isKeyFrame) == (0..<20).map { [0, 7, 12].contains($0) })
        let path = try ExternalTool.temporaryDirectory().appendingPathComponent("forced.h264").path
        try Self.write(frames, to: path)
        // ffprobe's own view: the pictures that are IDR (key) and I.
        let probe = try await ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "frame=key_frame,pict_type", "-of", "csv=p=0", path])
        let keys = probe.text.split(separator: "\n").enumerated().filter { $0.element.hasPrefix("1") }.map(\.offset)
        #expect(keys == [0, 7, 12], "\(probe.text)")
        let types = frames[7].nalUnitRanges.map { frames[7].data[$0.lowerBound] & 0x1F }
        #expect(types == [7, 8, 5], "SPS, PPS, IDR slice")
    }
}
