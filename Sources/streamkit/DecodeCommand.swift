import AAC
import H264
import HEVC
import Codecs
import Containers
import Foundation
import MediaCore

/// `streamkit decode INPUT -o OUTPUT`: an H.264/H.265 Annex B stream through a decompression session
/// into `.y4m` or raw `.yuv` pictures, or an ADTS AAC stream into a `.wav`. The input kind is detected
/// from its bytes.
struct DecodeCommand {
    static let usage = """
        usage: streamkit decode INPUT -o OUTPUT.y4m|OUTPUT.yuv|OUTPUT.wav [--engine NAME] [--pix-fmt i420|yv12|nv12|nv21]
        """

    let input: String
    let output: String
    let engineName: String?
    let pixelFormat: PixelFormat

    /// Parses the command's arguments.
    /// - Parameter words: the words after `decode`.
    /// - Throws: ``CommandLineError``.
    init(_ words: [String]) throws(CommandLineError) {
        let arguments = try CommandLineArguments(words, valueOptions: ["output", "engine", "pix-fmt"])
        try arguments.rejectUnknown(allowedFlags: [], allowedOptions: ["output", "engine", "pix-fmt"])
        guard let input = arguments.positionals.first, arguments.positionals.count == 1 else {
            throw .missingArgument("the input (\(Self.usage))")
        }
        guard let output = arguments.options["output"] else { throw .missingArgument("-o OUTPUT") }
        guard ["y4m", "yuv", "wav"].contains((output as NSString).pathExtension.lowercased()) else {
            throw .invalidValue("output \(output): the extension must be .y4m, .yuv or .wav")
        }
        self.input = input
        self.output = output
        let engine = arguments.options["engine"]?.lowercased()
        engineName = engine == "auto" ? nil : engine
        switch arguments.options["pix-fmt"]?.lowercased() ?? "i420" {
        case "i420", "yuv420p": pixelFormat = .i420
        case "yv12": pixelFormat = .yv12
        case "nv12": pixelFormat = .nv12
        case "nv21": pixelFormat = .nv21
        case let other: throw .invalidValue("--pix-fmt \(other): expected i420, yv12, nv12 or nv21")
        }
    }

    /// Runs the decode.
    /// - Returns: the exit status.
    func run() -> Int32 {
        do {
            let source = try FileByteSource(path: input)
            defer { try? source.close() }
            let head = try source.read(upToCount: 1 << 20)
            guard let format = ElementaryStreamFormat.detect(head) else {
                printError("streamkit decode: \(input) is not an H.264/H.265 Annex B stream nor ADTS AAC")
                return 1
            }
            let isAudio = format == .adts
            guard isAudio == output.lowercased().hasSuffix(".wav") else {
                printError("streamkit decode: \(isAudio ? "audio" : "video") cannot be written to \(output)")
                return 1
            }
            if isAudio {
                return try decodeAudio(head: head, rest: source)
            }
            return try decodeVideo(codec: format == .hevcAnnexB ? .hevc : .h264, head: head, rest: source)
        } catch {
            printError("streamkit decode: \(error)")
            return 1
        }
    }

    private func decodeVideo(codec: CodecType, head: [UInt8], rest: FileByteSource) throws -> Int32 {
        let session = try DecompressionSession(annexBStreamOf: codec, registry: EngineSetup.registry(),
                                               outputFormat: output.lowercased().hasSuffix(".y4m") ? .i420 : pixelFormat,
                                               engineName: engineName)
        var y4m: Y4MWriter<FileByteSink>?
        var raw: FileByteSink?
        var pictures = 0
        func write(_ decoded: [DecodedPicture]) throws {
            for picture in decoded {
                if output.lowercased().hasSuffix(".y4m") {
                    if y4m == nil {
                        let rate = frameRate(of: session.format)
                        y4m = try Y4MWriter(path: output, header: Y4MHeader(width: picture.picture.width, height: picture.picture.height,
                                                                            frameRate: rate))
                    }
                    try y4m?.write(picture.picture)
                } else {
                    if raw == nil { raw = try FileByteSink(path: output) }
                    try raw?.write(picture.picture.packedBytes)
                }
                pictures += 1
            }
        }
        try write(session.decode(annexB: head))
        while case let chunk = try rest.read(upToCount: 1 << 20), !chunk.isEmpty {
            try write(session.decode(annexB: chunk))
        }
        try write(session.flush())
        try y4m?.finish()
        try raw?.close()
        for skip in session.skips { printError("note: \(skip)") }
        printError("\(session.engineName ?? "no engine"): \(pictures) pictures → \(output)")
        return pictures > 0 ? 0 : 1
    }

    /// The Y4M frame rate: the SPS's VUI timing, else 25 fps (what FFmpeg assumes for a raw stream).
    private func frameRate(of format: FormatDescription?) -> Y4MRatio {
        var rate: Double?
        if let format {
            switch format.codec {
            case .h264: rate = format.parameterSets.first.flatMap { try? H264SequenceParameterSet(nalUnit: $0) }?.frameRate
            case .hevc: rate = format.parameterSets.dropFirst().first.flatMap { try? HEVCSequenceParameterSet(nalUnit: $0) }?.frameRate
            case .aac: rate = nil
            }
        }
        guard let rate, rate > 0, rate < 1000 else { return Y4MRatio(25, 1) }
        if rate.rounded() == rate { return Y4MRatio(Int(rate), 1) }
        return Y4MRatio(Int((rate * 1001).rounded()), 1001)
    }

    private func decodeAudio(head: [UInt8], rest: FileByteSource) throws -> Int32 {
        var bytes = head
        bytes += try rest.readToEnd()
        let scan = ADTSFrameScanner.scan(bytes)
        guard let first = scan.frames.first else {
            printError("streamkit decode: no ADTS frame in \(input)")
            return 1
        }
        let config = try AudioSpecificConfig(adtsHeader: first.header)
        let rate = first.header.samplingFrequencyIndex.hertz
        guard let channels = first.header.channelConfiguration.channelCount else {
            printError("streamkit decode: the stream's channel layout is defined by a PCE, which is not supported")
            return 1
        }
        let description = AudioFormatDescription(codec: .aac, sampleRate: rate, channelCount: channels,
                                                 profile: first.header.audioObjectType.profileName ?? "LC", audioSpecificConfig: try config.serialized())
        let engine = try EngineSetup.registry().decoderEngine(for: .aac, named: engineName)
        let decoder = try engine.makeAudioDecoder(description)
        var writer = try WAVWriter(path: output, sampleRate: rate, channelCount: channels, sampleFormat: .int16)
        var samples = 0
        for (index, frame) in scan.frames.enumerated() {
            let encoded = EncodedAudioFrame(data: Array(frame.payload), pts: MediaTime(value: Int64(index) * 1024, timescale: Int32(rate)),
                                            duration: MediaTime(value: 1024, timescale: Int32(rate)), format: description)
            for buffer in try decoder.decode(encoded) { try writer.write(buffer); samples += buffer.frameCount }
        }
        for buffer in try decoder.flush() { try writer.write(buffer); samples += buffer.frameCount }
        try writer.finish()
        if let truncation = scan.truncation { printError("note: \(truncation)") }
        printError("\(engine.name): \(scan.frames.count) AAC frames → \(samples) samples → \(output)")
        return 0
    }
}
