import AAC
import H264
import HEVC
import Codecs
import Containers
import Foundation
import MediaCore
import NativeAAC

/// `streamkit decode INPUT -o OUTPUT`: an H.264/H.265 Annex B stream through a decompression session
/// into `.y4m` or raw `.yuv` pictures, or an ADTS AAC stream into a `.wav`. The input kind is detected
/// from its bytes.
struct DecodeCommand {
    /// `INPUT`.
    static let input = PositionalSpec("INPUT", help: "an H.264/H.265 Annex B or ADTS AAC stream (detected from its bytes), an .mp4/.mov/.m4v/.m4a or an .flv file")

    /// The command's arguments and options.
    static let table = OptionTable(
        command: "decode", summary: "an .h264/.h265 stream → .y4m/.yuv pictures, an .aac stream → .wav",
        positionals: [input],
        options: [CommonOptions.output.required(), CommonOptions.engine, CommonOptions.pixelFormat],
        notes: ["OUTPUT: .y4m or .yuv (video), .wav (audio); a .y4m is always i420."])

    let input: String
    let output: String
    let engineName: String?
    let pixelFormat: PixelFormat

    /// Reads the command's arguments.
    /// - Parameter parsed: the words after `decode`, parsed with ``table``.
    /// - Throws: ``CommandLineError``.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        let input = try parsed.argument(Self.input)
        let output = try parsed.required(CommonOptions.output)
        guard ["y4m", "yuv", "wav"].contains((output as NSString).pathExtension.lowercased()) else {
            throw .invalidValue(option: "--output", value: output, reason: "does not end in .y4m, .yuv or .wav")
        }
        self.input = input
        self.output = output
        switch parsed.value(CommonOptions.engine) ?? .automatic {
        case .automatic: engineName = nil
        case let other: engineName = other.description
        }
        pixelFormat = parsed.value(CommonOptions.pixelFormat) ?? .i420
    }

    /// Runs the decode.
    /// - Returns: the exit status.
    func run() async -> Int32 {
        if MP4Input.isMP4(input) { return await decodeMP4() }
        if FLVOutputOptions.isFLV(input) { return await decodeFLV() }
        do {
            var source = try FileByteSource(path: input)
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
                return try decodeAudio(head: head, rest: &source)
            }
            return try await decodeVideo(codec: format == .hevcAnnexB ? .hevc : .h264, head: head, rest: &source)
        } catch {
            printError("streamkit decode: \(error)")
            return 1
        }
    }

    /// An MP4 input: its first video track (or, into a `.wav`, its first AAC track) read as an elementary stream.
    private func decodeMP4() async -> Int32 {
        do {
            let file = try MP4File(contentsOf: input)
            let audio = output.lowercased().hasSuffix(".wav")
            guard let track = MP4Input.track(of: file, audio: audio), let codec = track.codec else {
                printError("streamkit decode: \(input) has no \(audio ? "AAC" : "H.264/H.265") track for \(output)")
                return 1
            }
            var source = try MP4ElementaryStreamSource(file: file, track: track)
            let head = try source.read(upToCount: 1 << 20)
            if audio { return try decodeAudio(head: head, rest: &source) }
            return try await decodeVideo(codec: codec, head: head, rest: &source)
        } catch {
            printError("streamkit decode: \(error)")
            return 1
        }
    }

    func decodeVideo<Source: ByteSource>(codec: CodecType, head: [UInt8], rest: inout Source) async throws -> Int32 {
        let session = try DecompressionSession(annexBStreamOf: codec, registry: EngineSetup.registry(),
                                               outputFormat: output.lowercased().hasSuffix(".y4m") ? .i420 : pixelFormat,
                                               engineName: engineName)
        let output = self.output
        // The session's outputs are written on a task of their own while this one feeds the session.
        let consumer = Task { () -> (pictures: Int, failure: (any Error)?) in
            var y4m: Y4MWriter<FileByteSink>?
            var raw: FileByteSink?
            var pictures = 0
            var failure: (any Error)?
            for await item in session.outputs {
                guard case let .picture(picture) = item, failure == nil else { continue }
                do {
                    if pictures == 0, let notice = DecodedStreamFormat.conversionNotice(for: session.format, writing: picture.picture.format) {
                        printError(notice)
                    }
                    if output.lowercased().hasSuffix(".y4m") {
                        if y4m == nil {
                            let rate = Self.frameRate(of: session.format)
                            y4m = try Y4MWriter(path: output, header: Y4MHeader(width: picture.picture.width,
                                                                                height: picture.picture.height, frameRate: rate,
                                                                                interlacing: DecodedStreamFormat.interlacing(of: codec, head: head)))
                        }
                        try y4m?.write(picture.picture)
                    } else {
                        if raw == nil { raw = try FileByteSink(path: output) }
                        try raw?.write(picture.picture.packedBytes)
                    }
                    pictures += 1
                } catch {
                    failure = error
                }
            }
            do {
                try y4m?.finish()
                try raw?.close()
            } catch {
                failure = failure ?? error
            }
            return (pictures, failure)
        }
        var failure: (any Error)?
        do {
            // A frame that cannot be decoded is reported; decoding goes on at the next key frame.
            try await Self.decode(head, in: session)
            while case let chunk = try rest.read(upToCount: 1 << 20), !chunk.isEmpty {
                try await Self.decode(chunk, in: session)
            }
        } catch {
            failure = error
        }
        let closing = await session.closeReporting()
        failure = failure ?? closing
        let written = await consumer.value
        if let failure = failure ?? written.failure { throw failure }
        let pictures = written.pictures
        for skip in session.skips { printError("note: \(skip)") }
        printError("\(session.engineName ?? "no engine"): \(pictures) pictures → \(output)")
        return pictures > 0 ? 0 : 1
    }

    /// The Y4M frame rate: the SPS's VUI timing, else 25 fps (what FFmpeg assumes for a raw stream).
    /// Decodes a chunk; a frame that cannot be decoded is left for the report of `close()`.
    private static func decode(_ chunk: [UInt8], in session: DecompressionSession) async throws(CodecError) {
        do {
            try await session.decode(annexB: chunk)
        } catch {
            guard case .undecodableFrame = error else { throw error }
        }
    }

    private static func frameRate(of format: FormatDescription?) -> Y4MRatio {
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

    func decodeAudio<Source: ByteSource>(head: [UInt8], rest: inout Source) throws -> Int32 {
        var bytes = head
        bytes += try rest.readToEnd()
        let scan = ADTSFrameScanner.scan(bytes)
        guard let first = scan.frames.first else {
            printError("streamkit decode: no ADTS frame in \(input)")
            return 1
        }
        // channel_configuration 0: the layout is in a program config element at the start of the first block.
        let pce = first.header.channelConfiguration == .definedInStream
            ? AACChannelLayout.programConfigElement(atStartOf: first.payload) : nil
        let rate = first.header.samplingFrequencyIndex.hertz
        guard let channels = first.header.channelConfiguration.channelCount ?? pce?.channelCount, channels > 0 else {
            printError("streamkit decode: channel_configuration 0 and no program config element at the start of the first frame")
            return 1
        }
        let config = try AudioSpecificConfig(adtsHeader: first.header, programConfigElement: pce)
        let description = AudioFormatDescription(codec: .aac, sampleRate: rate, channelCount: channels,
                                                 profile: first.header.audioObjectType.profileName ?? "LC", audioSpecificConfig: try config.serialized())
        let engine = try EngineSetup.registry().decoderEngine(for: .aac, named: engineName)
        let decoder = try engine.makeAudioDecoder(description)
        var writer = try WAVWriter(path: output, sampleRate: rate, channelCount: channels, sampleFormat: .int16,
                                   channelMask: WAVChannelMask(aacChannelConfiguration: Self.speakerConfiguration(first.header.channelConfiguration, pce: pce)))
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

    /// The channel configuration whose speakers a stream has: its own, or for a layout in a program config
    /// element the configuration with the same elements (FFmpeg's `-aac_pce` 5.1, for example), else 0.
    static func speakerConfiguration(_ configuration: ChannelConfiguration, pce: ProgramConfigElement?) -> ChannelConfiguration {
        guard configuration == .definedInStream, let pce else { return configuration }
        let layout = AACChannelLayout(programConfigElement: pce)
        for value in UInt8(1)...7 {
            if let candidate = ChannelConfiguration(rawValue: value), AACChannelLayout(configuration: candidate) == layout { return candidate }
        }
        return configuration
    }
}
