import Codecs
import Containers
import Foundation
import H264
import HEVC
import MediaCore

/// A whole file decoded into a file: an H.264/H.265 stream — Annex B (detected from its bytes), the video track of
/// an `.mp4`/`.mov`/`.m4v`, the video tags of an `.flv` or the video PES packets of a `.ts` — through a ``DecompressionSession`` into `.y4m` or raw
/// `.yuv` pictures, or AAC — ADTS, an MP4's AAC track, an FLV's AAC tags or a TS's ADTS stream — into a `.wav`
/// (`ffmpeg -i in.h264 out.y4m`, `ffmpeg -i in.aac out.wav`).
///
/// ```swift
/// let decoder = FileDecoder(input: "camera.h264", output: "camera.y4m")
/// let report = try await decoder.run { note in print(note) }
/// print(report)  // "ffmpeg: 200 pictures → camera.y4m"
/// ```
public struct FileDecoder: Sendable {
    /// The input file.
    public var input: String
    /// The output: `.y4m` or `.yuv` (video), `.wav` (audio).
    public var output: String
    /// The decoder engine to use, `nil` for the registry's choice.
    public var engineName: String?
    /// The layout of raw `.yuv` pictures (a `.y4m` is always I420).
    public var pixelFormat: PixelFormat
    /// The engines to decode with.
    public var registry: CodecEngineRegistry

    /// The extensions of the outputs.
    public static let outputExtensions: Set<String> = ["y4m", "yuv", "wav"]
    /// The extensions read as MP4.
    public static let mp4Extensions: Set<String> = ["mp4", "mov", "m4v", "m4a"]

    /// Describes a decode.
    /// - Parameters:
    ///   - input: the input file.
    ///   - output: the `.y4m`, `.yuv` or `.wav` file.
    ///   - engineName: the decoder engine, `nil` for the registry's choice.
    ///   - pixelFormat: the layout of raw `.yuv` pictures.
    ///   - registry: the engines (every engine of the build by default).
    public init(input: String, output: String, engineName: String? = nil, pixelFormat: PixelFormat = .i420,
                registry: CodecEngineRegistry = .default) {
        self.input = input
        self.output = output
        self.engineName = engineName
        self.pixelFormat = pixelFormat
        self.registry = registry
    }

    /// Whether the output is audio (`.wav`).
    var writesAudio: Bool { (output as NSString).pathExtension.lowercased() == "wav" }

    /// Decodes the whole input into the output.
    /// - Parameter note: told each notice on the way — a conversion to 8-bit 4:2:0, pictures that failed or were
    ///   withheld until a key frame, skipped or truncated bytes — one sentence each.
    /// - Returns: what was written, as a sentence: "ffmpeg: 200 pictures → out.y4m".
    /// - Throws: ``FileDecoderError`` when the input has nothing to decode into the output; file, container and
    ///   codec errors.
    public func run(note: @escaping @Sendable (String) -> Void = { _ in }) async throws -> String {
        let kind = (input as NSString).pathExtension.lowercased()
        if Self.mp4Extensions.contains(kind) { return try await decodeMP4(note: note) }
        if kind == "flv" { return try await decodeFLV(note: note) }
        if kind == "ts" { return try await decodeTS(note: note) }
        var source = try FileByteSource(path: input)
        defer { try? source.close() }
        let head = try source.read(upToCount: 1 << 20)
        guard let format = ElementaryStreamFormat.detect(head) else {
            throw FileDecoderError(input: input, reason: "is not an H.264/H.265 Annex B stream nor ADTS AAC")
        }
        let isAudio = format == .adts
        guard isAudio == writesAudio else {
            throw FileDecoderError(input: input, reason: "is \(isAudio ? "audio" : "video"), which cannot be written to \(output)")
        }
        if isAudio { return try decodeAudio(head: head, rest: &source, note: note) }
        return try await decodeVideo(codec: format == .hevcAnnexB ? .hevc : .h264, head: head, rest: &source, note: note)
    }

    /// An MP4 input: its first video track (or, into a `.wav`, its first AAC track) read as an elementary stream.
    private func decodeMP4(note: @escaping @Sendable (String) -> Void) async throws -> String {
        let file = try MP4File(contentsOf: input)
        let audio = writesAudio
        let track = file.tracks.first { track in
            switch track.format {
            case .video: return !audio
            case .audio: return audio
            case .unsupported: return false
            }
        }
        guard let track, let codec = track.codec else {
            throw FileDecoderError(input: input, reason: "has no \(audio ? "AAC" : "H.264/H.265") track for \(output)")
        }
        var source = try MP4ElementaryStreamSource(file: file, track: track)
        let head = try source.read(upToCount: 1 << 20)
        if audio { return try decodeAudio(head: head, rest: &source, note: note) }
        return try await decodeVideo(codec: codec, head: head, rest: &source, note: note)
    }

    /// An FLV input: its video (as Annex B) or, into a `.wav`, its AAC (as ADTS), read out of the tags by
    /// `FLVElementaryStreamSource`.
    private func decodeFLV(note: @escaping @Sendable (String) -> Void) async throws -> String {
        let audio = writesAudio
        let reader = try FLVReader(source: try FileByteSource(path: input))
        var source = FLVElementaryStreamSource(reader: reader, stream: audio ? .audio : .video)
        let head = try source.read(upToCount: 1 << 20)
        guard !head.isEmpty else {
            throw FileDecoderError(input: input, reason: "has no \(audio ? "AAC" : "H.264/H.265") stream for \(output)")
        }
        if audio { return try decodeAudio(head: head, rest: &source, note: note) }
        guard let codec = source.videoFormat?.codec else {
            throw FileDecoderError(input: input, reason: "has no H.264/H.265 sequence header")
        }
        return try await decodeVideo(codec: codec, head: head, rest: &source, note: note)
    }

    /// An MPEG-TS input: its first H.264/H.265 stream (Annex B) or, into a `.wav`, its first AAC stream (ADTS), read
    /// out of the PES packets by `TSElementaryStreamSource`; what went wrong in the transport stream is noted.
    private func decodeTS(note: @escaping @Sendable (String) -> Void) async throws -> String {
        let audio = writesAudio
        var source = TSElementaryStreamSource(source: try FileByteSource(path: input), stream: audio ? .audio : .video)
        let head = try source.read(upToCount: 1 << 20)
        guard !head.isEmpty, let type = source.streamType else {
            throw FileDecoderError(input: input, reason: "has no \(audio ? "AAC" : "H.264/H.265") stream for \(output)")
        }
        defer { for issue in source.issues { note("\(input): \(issue)") } }
        if audio { return try decodeAudio(head: head, rest: &source, note: note) }
        return try await decodeVideo(codec: type == .hevc ? .hevc : .h264, head: head, rest: &source, note: note)
    }

    /// Feeds an Annex B stream to a decompression session while a task of its own writes the pictures.
    private func decodeVideo<Source: ByteSource>(codec: CodecType, head: [UInt8], rest: inout Source,
                                                 note: @escaping @Sendable (String) -> Void) async throws -> String {
        let isY4M = (output as NSString).pathExtension.lowercased() == "y4m"
        let session = try DecompressionSession(annexBStreamOf: codec, registry: registry, outputFormat: isY4M ? .i420 : pixelFormat,
                                               engineName: engineName)
        let output = self.output
        let interlacing = DecodedStreamFormat.interlacing(of: codec, head: head)
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
                        note(notice)
                    }
                    if isY4M {
                        if y4m == nil {
                            y4m = try Y4MWriter(path: output, header: Y4MHeader(width: picture.picture.width, height: picture.picture.height,
                                                                                frameRate: Self.frameRate(of: session.format),
                                                                                interlacing: interlacing))
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
        do {
            let report = try await session.close()
            for error in report.failures { note("error: \(error)") }
            if report.dropped > 0 { note("note: \(report.dropped) frames withheld until the next key frame") }
        } catch {
            failure = failure ?? error
        }
        let written = await consumer.value
        if let failure = failure ?? written.failure { throw failure }
        for skip in session.skips { note("note: \(skip)") }
        guard written.pictures > 0 else { throw FileDecoderError(input: input, reason: "gave no picture") }
        return "\(session.engineName ?? "no engine"): \(written.pictures) pictures → \(output)"
    }

    /// Decodes a chunk; a frame that cannot be decoded is left for the report of `close()`.
    private static func decode(_ chunk: [UInt8], in session: DecompressionSession) async throws(CodecError) {
        do {
            try await session.decode(annexB: chunk)
        } catch {
            guard case .undecodableFrame = error else { throw error }
        }
    }

    /// The Y4M frame rate: the SPS's VUI timing, else 25 fps (what FFmpeg assumes for a raw stream).
    private static func frameRate(of format: FormatDescription?) -> Y4MRatio {
        var rate: Double?
        if let format {
            switch format.codec {
            case .h264: rate = format.parameterSets.first.flatMap { try? H264SequenceParameterSet(nalUnit: $0) }?.frameRate
            case .hevc: rate = format.parameterSets.dropFirst().first.flatMap { try? HEVCSequenceParameterSet(nalUnit: $0) }?.frameRate
            case .aac, .opus: rate = nil
            }
        }
        guard let rate, rate > 0, rate < 1000 else { return Y4MRatio(25, 1) }
        if rate.rounded() == rate { return Y4MRatio(Int(rate), 1) }
        return Y4MRatio(Int((rate * 1001).rounded()), 1001)
    }
}
