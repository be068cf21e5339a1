#if FFmpeg
import Codecs
import Containers
import FFmpegEngine
import Foundation
import MediaCore
import Testing
import TestSupport

/// The session contract of `../shared/DESIGN.md`, proved on the x264 engine: one way out and nothing
/// lost whenever the consumer starts; bounded memory with backpressure (wait) or reported drops whose
/// survivors still decode (drop); decode failures that name their frame; `close()` that reports;
/// rate control that changes on a running session.
@Suite(.enabled(if: FFmpegTestSupport.toolsAvailable))
struct SessionContractTests {
    enum ConsumerStart: String, CaseIterable, Sendable { case before, during, after }

    private static let frameDuration = MediaTime(value: 1, timescale: 30)

    private static func pts(_ index: Int) -> MediaTime { MediaTime(value: Int64(index), timescale: 30) }

    /// Every output of a finished session, read to the end.
    private static func collect(_ outputs: SessionOutputStream<CompressionOutput>) async -> [CompressionOutput] {
        var all: [CompressionOutput] = []
        for await output in outputs { all.append(output) }
        return all
    }

    private static func frames(in outputs: [CompressionOutput]) -> [EncodedFrame] {
        outputs.compactMap { if case let .frame(frame) = $0 { return frame } else { return nil } }
    }

    // MARK: - One way out

    @Test("a consumer started before, during or after encoding gets all 60 of 60 frames", arguments: ConsumerStart.allCases)
    func consumerGetsEveryFrame(start: ConsumerStart) async throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 160, height: 120, profileLevel: .h264High)
        configuration.maxKeyFrameInterval = 30
        let session = try CompressionSession(configuration: configuration)
        var consumer: Task<[CompressionOutput], Never>?
        if start == .before { consumer = Task { await Self.collect(session.outputs) } }
        for index in 0..<60 {
            if index == 30 && start == .during { consumer = Task { await Self.collect(session.outputs) } }
            try await session.encode(try FFmpegTestSupport.picture(index: index, width: 160, height: 120),
                                     pts: Self.pts(index), duration: Self.frameDuration)
        }
        let report = try await session.close()
        if start == .after { consumer = Task { await Self.collect(session.outputs) } }
        let outputs = await consumer?.value ?? []
        let frames = Self.frames(in: outputs)
        #expect(frames.count == 60)
        #expect(outputs.count == 60, "no drop reports")
        #expect(Set(frames.map(\.pts.value)) == Set(0..<60))
        #expect(report == SessionReport(received: 60, emitted: 60, dropped: 0))
    }

    // MARK: - Wait: bounded memory with a stalled consumer

    /// Resident set size in bytes (`/proc/self/statm`, second field, in pages).
    private static func residentBytes() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let pages = Int(text.split(separator: " ")[1]) ?? 0
        return pages * 4096
    }

    @Test("wait policy: a stalled consumer keeps the buffer at its capacity over 10 000 frames; RSS stays flat")
    func waitPolicyHoldsMemoryFlat() async throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 64, height: 64, profileLevel: .h264Baseline)
        configuration.realTime = true
        configuration.maxKeyFrameInterval = 60
        let capacity = 16
        let session = try CompressionSession(configuration: configuration, outputPolicy: .wait, outputCapacity: capacity)
        let pictures = try (0..<8).map { try FFmpegTestSupport.picture(index: $0 * 7, width: 64, height: 64) }
        let total = 10_000
        // The consumer stalls for 20 ms every 500 frames: the encoder must wait, not buffer.
        let consumer = Task { () -> Int in
            var count = 0
            for await output in session.outputs {
                if case .frame = output { count += 1 }
                if count % 500 == 0 { try? await Task.sleep(for: .milliseconds(20)) }
            }
            return count
        }
        var largest = 0
        var resident: [Int] = [try Self.residentBytes()]
        for index in 0..<total {
            try await session.encode(pictures[index % pictures.count], pts: Self.pts(index), duration: Self.frameDuration)
            largest = max(largest, session.outputs.pendingCount)
            if index == total / 2 { resident.append(try Self.residentBytes()) }
        }
        resident.append(try Self.residentBytes())
        let report = try await session.close()
        let received = await consumer.value
        #expect(received == total)
        #expect(report == SessionReport(received: total, emitted: total, dropped: 0))
        // One encode releases at most one frame here (zero latency), so the buffer never exceeds the capacity by more.
        #expect(largest <= capacity + 1, "pending outputs peaked at \(largest)")
        #expect(session.outputs.highWaterMark >= capacity, "the consumer really stalled (peak \(session.outputs.highWaterMark))")
        #expect(session.outputs.highWaterMark <= capacity + 1)
        // Other tests run in this process too: allow them 40 MB; an unbounded buffer of 5 000 frames would not fit…
        // but 64x64 frames are small, so the pending count above is the sharp check.
        #expect(resident[2] - resident[1] < 40 << 20, "RSS \(resident.map { $0 >> 20 }) MB")
    }

    // MARK: - Drop: reported drops, and what passes still decodes

    @Test("drop policy: each drop is reported by index and pts; what passes decodes with ffmpeg -err_detect explode")
    func dropPolicyReportsEveryDropAndKeepsTheStreamDecodable() async throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 160, height: 120, profileLevel: .h264High)
        configuration.maxBFrames = 3
        configuration.maxKeyFrameInterval = 30
        let capacity = 8
        let session = try CompressionSession(configuration: configuration, outputPolicy: .drop, outputCapacity: capacity)
        let total = 240
        // The consumer reads the first 40 outputs, then stalls until frame 150 has been encoded.
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task { () -> [CompressionOutput] in
            var outputs: [CompressionOutput] = []
            var gateIterator = gate.makeAsyncIterator()
            for await output in session.outputs {
                outputs.append(output)
                if outputs.count == 40 { _ = await gateIterator.next() }
            }
            return outputs
        }
        for index in 0..<total {
            try await session.encode(try FFmpegTestSupport.picture(index: index, width: 160, height: 120),
                                     pts: Self.pts(index), duration: Self.frameDuration)
            if index == 150 { open.yield(); open.finish() }
        }
        let report = try await session.close()
        let outputs = await consumer.value
        let frames = Self.frames(in: outputs)
        var drops: [(FramePosition, DropReason)] = []
        for output in outputs { if case let .dropped(position, reason) = output { drops.append((position, reason)) } }

        #expect(!drops.isEmpty, "the stalled consumer made the session drop")
        // Every picture is accounted for exactly once: passed on, or dropped with its own index and pts.
        #expect(drops.allSatisfy { $0.0.pts == Self.pts($0.0.index) }, "a drop names its picture's index and pts")
        let passed = frames.map { Int($0.pts.value) }
        #expect((passed + drops.map(\.0.index)).sorted() == Array(0..<total))
        #expect(report.received == total && report.emitted == frames.count && report.dropped == drops.count)
        #expect(drops.contains { $0.1 == .nonReferenceFrame }, "non-reference B-frames go first: \(Set(drops.map(\.1)))")
        #expect(frames.first?.isKeyFrame == true)

        var writer = AnnexBWriter(sink: MemoryByteSink())
        for frame in frames { try writer.write(frame) }
        try writer.finish()
        let url = try FFmpegTestSupport.write(writer.sink.bytes, name: "dropped.h264")
        #expect(try FFmpegTestSupport.decodeErrors(url) == "")
        #expect(try FFmpegTestSupport.frameTypes(url).count == frames.count, "ffmpeg decodes every frame that passed")
    }

    @Test("decompression with the drop policy: a stalled consumer gets the newest pictures and a report for each one dropped",
          .requiresMedia)
    func decompressionDropPolicy() async throws {
        let bytes = try MediaFiles.bytes("encoded/cars_320x240.h264")
        let session = try DecompressionSession(annexBStreamOf: .h264, outputPolicy: .drop, outputCapacity: 4)
        for start in stride(from: 0, to: bytes.count, by: 4096) {
            try await session.decode(annexB: bytes[start..<min(bytes.count, start + 4096)])
        }
        let report = try await session.close()
        var pictures: [MediaTime] = [], dropped: [MediaTime] = []
        for await output in session.outputs {
            switch output {
            case let .picture(picture): pictures.append(picture.pts)
            case let .droppedPicture(pts): dropped.append(pts)
            case .withheld: Issue.record("nothing failed")
            }
        }
        #expect(pictures.count == 4 && pictures.count + dropped.count == 30)
        #expect(dropped + pictures == (dropped + pictures).sorted(), "reports stand in the dropped pictures' places")
        #expect(report.emitted == 4 && report.dropped == 26 && report.failureCount == 0)
    }

    @Test("audio: a consumer started after encoding gets every AAC frame")
    func audioConsumerAfterEncoding() async throws {
        let session = try AudioEncoderSession(configuration: AudioEncoderConfiguration(sampleRate: 48000, channelCount: 1, bitRate: 64000))
        var samples = 0
        for chunk in 0..<12 {
            let tone = (0..<4000).map { Int16(8000 * sin(Double(chunk * 4000 + $0) * 2 * .pi * 440 / 48000)) }
            try await session.encode(try AudioBuffer(interleavedInt16: tone, sampleRate: 48000, channelCount: 1))
            samples += tone.count
        }
        let report = try await session.close()
        var frames: [EncodedAudioFrame] = []
        for await frame in session.outputs { frames.append(frame) }
        #expect(frames.count == report.emitted && report.received == 12)
        // 48 000 samples and the encoder's priming: every input sample is inside one of the frames.
        #expect(frames.count * 1024 >= samples + 1024 && frames.count <= samples / 1024 + 3)
    }

    // MARK: - Decode failures name their frame

    /// 90 frames (key frames at 0, 30, 60), the one at `garbageIndex` with its slice data overwritten.
    private static func streamWithGarbage(at garbageIndex: Int) async throws -> [EncodedFrame] {
        var configuration = CompressionConfiguration(codec: .h264, width: 160, height: 120, profileLevel: .h264Main)
        configuration.allowFrameReordering = false
        configuration.maxKeyFrameInterval = 30
        let frames = try FFmpegTestSupport.encode(configuration, engine: "x264", count: 90, timescale: 30)
        var corrupted = frames
        var data = corrupted[garbageIndex].data
        var state: UInt32 = 0xBADC0DE
        for range in corrupted[garbageIndex].nalUnitRanges where (1...5).contains(data[range.lowerBound] & 0x1F) {
            for offset in (range.lowerBound + 1)..<range.upperBound {
                state = state &* 1_103_515_245 &+ 12345
                data[offset] = UInt8(truncatingIfNeeded: state >> 16) | 0x01  // no start-code emulation
            }
        }
        corrupted[garbageIndex].data = data
        return corrupted
    }

    @Test("a garbage frame mid-stream is an error naming that frame; frames after the next key frame decode; close() reports it")
    func garbageFrameIsAnErrorAtThatFrame() async throws {
        let frames = try await Self.streamWithGarbage(at: 40)
        let session = try DecompressionSession(format: try #require(frames.first?.format), outputFormat: .i420)
        let consumer = Task { () -> [DecompressionOutput] in
            var outputs: [DecompressionOutput] = []
            for await output in session.outputs { outputs.append(output) }
            return outputs
        }
        var thrown: [CodecError] = []
        for frame in frames {
            do { try await session.decode(frame) } catch { thrown.append(error) }
        }
        let report = try await session.close()
        let outputs = await consumer.value
        let expected = CodecError.undecodableFrame(FramePosition(index: 40, pts: frames[40].pts), reason: "")
        #expect(thrown.count == 1)
        guard case let .undecodableFrame(position, _) = thrown.first, case .undecodableFrame = expected else {
            Issue.record("expected undecodableFrame, got \(thrown)")
            return
        }
        #expect(position == FramePosition(index: 40, pts: frames[40].pts))
        let pictures = outputs.compactMap { if case let .picture(picture) = $0 { return Int(picture.pts.value) } else { return nil } }
        let withheld = outputs.compactMap { output -> Int? in
            if case let .withheld(position, reason) = output, reason == .afterFailure(ofFrame: 40) { return position.index }
            return nil
        }
        #expect(pictures == Array(0..<40) + Array(60..<90), "pictures before the failure and from the next key frame on")
        #expect(withheld == Array(41..<60))
        #expect(report.failures == thrown && report.failureCount == 1)
        #expect(report.dropped == 19 && report.received == 90 && report.emitted == 70)
        #expect(!report.isComplete)
    }

    @Test("Annex B path: a garbage frame mid-stream is an error naming it; decoding goes on at the next key frame")
    func annexBGarbageFrameIsAnError() async throws {
        let frames = try await Self.streamWithGarbage(at: 40)
        let bytes = FFmpegTestSupport.annexB(frames)
        let session = try DecompressionSession(annexBStreamOf: .h264, outputFormat: .i420)
        let consumer = Task { () -> Int in
            var pictures = 0
            for await output in session.outputs { if case .picture = output { pictures += 1 } }
            return pictures
        }
        var thrown: [CodecError] = []
        for start in stride(from: 0, to: bytes.count, by: 1000) {
            do { try await session.decode(annexB: bytes[start..<min(bytes.count, start + 1000)]) } catch { thrown.append(error) }
        }
        let report = try await session.close()
        let pictures = await consumer.value
        guard case let .undecodableFrame(position, _) = report.failures.first else {
            Issue.record("expected undecodableFrame, got \(report.failures)")
            return
        }
        #expect(position.index == 40)
        #expect(thrown == report.failures)
        #expect(pictures == 70)
    }

    @Test("Annex B path: garbage bytes are an error, not 0 pictures and no word")
    func annexBGarbageIsReported() async throws {
        var state: UInt32 = 7
        let garbage = (0..<100_000).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let session = try DecompressionSession(annexBStreamOf: .h264)
        for start in stride(from: 0, to: garbage.count, by: 4096) {
            do { try await session.decode(annexB: garbage[start..<min(garbage.count, start + 4096)]) } catch {}
        }
        await #expect {
            _ = try await session.close()
        } throws: { error in
            guard let error = error as? CodecError, case let .noDecodableFrames(bytes, _) = error else { return false }
            return bytes == garbage.count
        }
    }

    // MARK: - Live reconfiguration

    /// Bits per second of each whole second of an Annex B file, from `ffprobe -show_packets`.
    private static func bitRatePerSecond(_ url: URL, frameRate: Int) throws -> [Double] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                        "packet=size", "-of", "csv=p=0", url.path])
        let sizes = output.text.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return stride(from: 0, to: sizes.count - frameRate + 1, by: frameRate).map { start in
            Double(sizes[start..<(start + frameRate)].reduce(0, +) * 8)
        }
    }

    @Test("averageBitRate and dataRateLimits changed mid-session show in the output (ffprobe, per second)")
    func bitRateChangesOnARunningSession() async throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: .h264High)
        configuration.averageBitRate = 800_000
        configuration.dataRateLimits = [DataRateLimit(bytes: 100_000, seconds: 1)]
        configuration.maxKeyFrameInterval = 300
        configuration.realTime = true
        let session = try CompressionSession(configuration: configuration)
        let consumer = Task { await Self.collect(session.outputs) }
        for index in 0..<300 {
            if index == 150 {
                try await session.setRateControl(averageBitRate: 150_000, dataRateLimits: [DataRateLimit(bytes: 18_750, seconds: 1)])
                session.requestKeyFrame()
            }
            try await session.encode(try FFmpegTestSupport.picture(index: index, width: 320, height: 240),
                                     pts: Self.pts(index), duration: Self.frameDuration)
        }
        _ = try await session.close()
        let frames = Self.frames(in: await consumer.value)
        #expect(frames.count == 300)
        #expect(frames.filter(\.isKeyFrame).map(\.pts.value) == [0, 150], "requestKeyFrame makes the next picture a key frame")
        #expect(session.currentRateControl.averageBitRate == 150_000)
        var writer = AnnexBWriter(sink: MemoryByteSink())
        for frame in frames { try writer.write(frame) }
        try writer.finish()
        let url = try FFmpegTestSupport.write(writer.sink.bytes, name: "abr.h264")
        let perSecond = try Self.bitRatePerSecond(url, frameRate: 30)
        #expect(perSecond.count == 10)
        // Seconds 1–4 at 800 kbit/s, 6–9 at 150 kbit/s (seconds 0 and 5 hold the rate controller's settling).
        let before = perSecond[1...4].reduce(0, +) / 4, after = perSecond[6...9].reduce(0, +) / 4
        #expect(before / after > 3, "per second: \(perSecond.map { Int($0 / 1000) }) kbit/s")
        #expect((600_000...1_000_000).contains(before) && (100_000...200_000).contains(after),
                "per second: \(perSecond.map { Int($0 / 1000) }) kbit/s")
    }

    @Test("x264 without data-rate limits: a new average bit rate on a live session shows in the output (ffprobe, per second)")
    func averageBitRateChangesWithoutLimits() async throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: .h264High)
        configuration.averageBitRate = 800_000
        configuration.maxKeyFrameInterval = 600
        configuration.realTime = true
        let session = try CompressionSession(configuration: configuration)
        #expect(session.engineName == "x264")
        let consumer = Task { await Self.collect(session.outputs) }
        for index in 0..<450 {
            if index == 150 { try await session.setRateControl(averageBitRate: 150_000, dataRateLimits: []) }
            if index == 300 { try await session.setRateControl(averageBitRate: 800_000, dataRateLimits: []) }
            try await session.encode(try FFmpegTestSupport.picture(index: index, width: 320, height: 240),
                                     pts: Self.pts(index), duration: Self.frameDuration)
        }
        _ = try await session.close()
        let frames = Self.frames(in: await consumer.value)
        #expect(frames.count == 450)
        #expect(frames.filter(\.isKeyFrame).map(\.pts.value) == [0], "a rate change forces no key frame")
        var writer = AnnexBWriter(sink: MemoryByteSink())
        for frame in frames { try writer.write(frame) }
        try writer.finish()
        let url = try FFmpegTestSupport.write(writer.sink.bytes, name: "abr-no-vbv.h264")
        let perSecond = try Self.bitRatePerSecond(url, frameRate: 30)
        let text = "per second: \(perSecond.map { Int($0 / 1000) }) kbit/s"
        #expect(perSecond.count == 15, "\(text)")
        guard perSecond.count == 15 else { return }
        // Seconds 1–4 at 800 kbit/s, 6–9 at 150 kbit/s, 11–14 at 800 kbit/s again (0, 5 and 10 hold the settling).
        let high = perSecond[1...4].reduce(0, +) / 4, low = perSecond[6...9].reduce(0, +) / 4
        let again = perSecond[11...14].reduce(0, +) / 4
        #expect((600_000...1_000_000).contains(high) && (100_000...200_000).contains(low), "\(text)")
        // x264's rate control climbs back more slowly than it falls (its VBV refills first): clearly up, within reach.
        #expect(again > 2.5 * low && (450_000...1_000_000).contains(again), "back up after the link recovers: \(text)")
    }

    @Test("rate control that cannot change live is refused with typed errors")
    func rateControlRefusals() async throws {
        let constantQuality = try CompressionSession(configuration: CompressionConfiguration(codec: .h264, width: 64, height: 64))
        await #expect(throws: CodecError.unsupportedProperty(
            .averageBitRate, reason: "turned on on a running session (set it when the session is created)", engine: "x264")) {
            try await constantQuality.setRateControl(averageBitRate: 500_000, dataRateLimits: [])
        }
        await #expect(throws: CodecError.invalidConfiguration(property: .averageBitRate, reason: "must be positive, got 0")) {
            try await constantQuality.setRateControl(averageBitRate: 0, dataRateLimits: [])
        }
        _ = try await constantQuality.close()
        var file = CompressionConfiguration(codec: .h264, width: 64, height: 64)
        file.averageBitRate = 500_000
        let noVBV = try CompressionSession(configuration: file)
        await #expect(throws: CodecError.unsupportedProperty(
            .averageBitRate, reason: "x264 follows a new average bit rate only with a VBV: make the session realTime (live) "
                + "or give it dataRateLimits", engine: "x264")) {
            try await noVBV.setRateControl(averageBitRate: 200_000, dataRateLimits: [])
        }
        _ = try await noVBV.close()
        var hevc = CompressionConfiguration(codec: .hevc, width: 64, height: 64)
        hevc.averageBitRate = 500_000
        let x265 = try CompressionSession(configuration: hevc)
        await #expect(throws: CodecError.unsupportedProperty(
            .averageBitRate, reason: "turned off on a running session (set it when the session is created)", engine: "x265")) {
            try await x265.setRateControl(averageBitRate: nil, dataRateLimits: [])
        }
        _ = try await x265.close()
    }

    // MARK: - Registry and typed configuration

    @Test("CodecEngineRegistry.default holds the FFmpeg engines, then native; x264 stays the H.264 default; its errors do not tell to build with the trait")
    func defaultRegistry() throws {
        #expect(CodecEngineRegistry.default.engines.map(\.name) == FFmpegEngines.probe().map(\.name) + ["native"])
        #expect(try CodecEngineRegistry.default.encoderEngine(for: CompressionConfiguration(codec: .h264, width: 64, height: 64)).encodes(.h264))
        #expect(try CodecEngineRegistry.default.encoderEngine(for: CompressionConfiguration(codec: .h264, width: 64, height: 64)).name == "x264")
        #expect {
            _ = try CodecEngineRegistry(engines: []).decoderEngine(for: .hevc)
        } throws: { error in
            "\(error)".contains("no engine can decode hevc") && !"\(error)".contains("--traits FFmpeg")
        }
    }

    @Test("invalid configurations name the property as a value")
    func invalidConfigurationNamesTheProperty() {
        var configuration = CompressionConfiguration(codec: .h264, width: 64, height: 64)
        configuration.averageBitRate = -1
        #expect(throws: CodecError.invalidConfiguration(property: .averageBitRate, reason: "must be positive, got -1")) {
            try configuration.validate()
        }
        configuration = CompressionConfiguration(codec: .h264, width: 64, height: 64, profileLevel: .hevcMain)
        #expect {
            try configuration.validate()
        } throws: { error in
            guard case .invalidConfiguration(property: .profileLevel, _) = error as? CodecError else { return false }
            return true
        }
        #expect(throws: CodecError.invalidConfiguration(property: .channelCount, reason: "9 outside 1...8")) {
            try AudioEncoderConfiguration(sampleRate: 48000, channelCount: 9, bitRate: 128_000).validate()
        }
    }

    @Test("FormatDescription carries a typed ProfileLevel from the SPS")
    func typedProfileLevel() throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 64, height: 64, profileLevel: .h264Baseline)
        configuration.maxKeyFrameInterval = 5
        let frames = try FFmpegTestSupport.encode(configuration, engine: "x264", count: 5)
        let format = try #require(frames.first?.format)
        #expect(format.profileLevel.profile == .constrainedBaseline && format.profileLevel.isBaseline)
        #expect(format.profileLevel.level == "1")  // x264 picks level 1 for 64x64 at 30 fps
    }
}
#endif
