#if FFmpeg
import Codecs
import FFmpegEngine
import Foundation
import MediaCore
import Testing
import TestSupport

/// What ``FFmpegEngines/probe()`` reports, against `ffmpeg -encoders` / `-decoders` and the devices present.
@Suite("FFmpeg engine: probe", .enabled(if: FFmpegTestSupport.toolsAvailable))
struct FFmpegEngineProbeTests {
    /// The codec names in `ffmpeg -hide_banner -encoders` (or `-decoders`).
    static func listed(_ kind: String) throws -> Set<String> {
        let output = try ExternalTool.check("ffmpeg", ["-hide_banner", "-\(kind)"])
        return Set(output.text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            return fields.count >= 2 && fields[0].count == 6 ? String(fields[1]) : nil
        })
    }

    @Test("software engines match what the installed FFmpeg has; capabilities are facts")
    func softwareEngines() throws {
        let engines = FFmpegEngines.probe()
        let encoders = try Self.listed("encoders"), decoders = try Self.listed("decoders")
        let expected: [(String, String, String, CodecType)] = [("x264", "libx264", "h264", .h264),
                                                               ("x265", "libx265", "hevc", .hevc),
                                                               ("aac", "aac", "aac", .aac)]
        for (name, encoder, decoder, codec) in expected {
            let engine = engines.first { $0.name == name }
            #expect((engine != nil) == (encoders.contains(encoder) || decoders.contains(decoder)), "\(name)")
            guard let engine else { continue }
            #expect(!engine.isHardware)
            #expect(engine.encodes(codec) == encoders.contains(encoder))
            #expect(engine.decodes(codec) == decoders.contains(decoder))
            #expect(engine.capabilities.allSatisfy { $0.codec == codec })
        }
    }

    @Test("hardware engines are listed only when their device exists and they open")
    func hardwareEngines() throws {
        let hardware = FFmpegEngines.probe().filter(\.isHardware)
        let fileManager = FileManager.default
        for engine in hardware {
            #expect(FFmpegEngines.hardwareEncoders.contains { $0.name == engine.name })
            if engine.name.hasSuffix("_vaapi") { #expect(fileManager.fileExists(atPath: "/dev/dri/renderD128")) }
            if engine.name.hasSuffix("_nvenc") { #expect(fileManager.fileExists(atPath: "/dev/nvidia0") || fileManager.fileExists(atPath: "/dev/nvidiactl")) }
            #expect(engine.capabilities.allSatisfy { $0.canEncode && !$0.canDecode })
        }
        if !fileManager.fileExists(atPath: "/dev/dri/renderD128") {
            #expect(!hardware.contains { $0.name.hasSuffix("_vaapi") }, "VA-API listed without a render node")
        }
    }

    @Test("the registry picks x264 when hardware is preferred but absent; hardwareRequired fails clearly")
    func registryFallback() throws {
        let registry = CodecEngineRegistry(engines: FFmpegEngines.probe())
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240)
        configuration.enginePreference = .hardwarePreferred
        let hardware = FFmpegEngines.probe().filter { $0.isHardware && $0.encodes(.h264) }
        let chosen = try registry.encoderEngine(for: configuration)
        #expect(chosen.name == (hardware.first?.name ?? "x264"))
        if hardware.isEmpty {
            configuration.enginePreference = .hardwareRequired
            #expect(throws: CodecError.self) { _ = try registry.encoderEngine(for: configuration) }
        }
    }

    @Test("a session over the engine delivers frames through the session API")
    func compressionSession() async throws {
        let registry = CodecEngineRegistry(engines: FFmpegEngines.probe())
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: .h264Baseline)
        configuration.engineName = "x264"
        let session = try CompressionSession(configuration: configuration, registry: registry)
        for index in 0..<10 {
            try await session.encode(try FFmpegTestSupport.picture(index: index, width: 320, height: 240),
                                     pts: MediaTime(value: Int64(index), timescale: 30), duration: MediaTime(value: 1, timescale: 30))
        }
        let report = try await session.close()
        var frames: [EncodedFrame] = []
        for await output in session.outputs { if case let .frame(frame) = output { frames.append(frame) } }
        #expect(frames.count == 10)
        #expect(report == SessionReport(received: 10, emitted: 10, dropped: 0))
        #expect(session.counts.dropped == 0)
    }
}
#endif
