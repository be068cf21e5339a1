import Bitstream
import Containers
import Foundation
import MediaCore
import Transport

/// What `receive rtmp://…` writes from the messages it gets: the tags as they came (`.flv`), the video as Annex B
/// (`.h264`/`.h265`, byte-identical to `ffmpeg -c copy -bsf:v h264_mp4toannexb`), the pictures decoded (`.y4m`),
/// and the AAC frames as ADTS (`.aac`, or `--audio-output`).
final class RTMPRecording {
    private let output: String
    private let audioOutput: String?
    private var reader = RTMPMediaReader()
    private var flv: FileByteSink?
    private var video: ReceivedMediaWriter?
    private var audio: ADTSWriter<FileByteSink>?
    private(set) var videoFrames = 0
    private(set) var audioFrames = 0
    private(set) var tags = 0
    private(set) var summary: [String] = []
    private var pictures: Int?

    /// Opens the outputs that need no format (`.flv`); the others open at their sequence header.
    /// - Parameters:
    ///   - output: `.flv`, `.h264`/`.264`, `.h265`/`.265`/`.hevc`, `.y4m` or `.aac`.
    ///   - audioOutput: an `.aac` file for the audio next to a video output.
    /// - Throws: file errors.
    init(output: String, audioOutput: String?) throws {
        self.output = output
        self.audioOutput = audioOutput
        if Self.extensionOf(output) == "flv" {
            let sink = try FileByteSink(path: output)
            try sink.write(FLVHeader(hasAudio: true, hasVideo: true).bytes + [0, 0, 0, 0])
            flv = sink
        }
    }

    private static func extensionOf(_ path: String) -> String { (path as NSString).pathExtension.lowercased() }

    private var videoPathIsHEVC: Bool { ["h265", "265", "hevc"].contains(Self.extensionOf(output)) }
    private var wantsElementaryVideo: Bool { ["h264", "264", "h265", "265", "hevc", "y4m"].contains(Self.extensionOf(output)) }
    private var audioPath: String? { Self.extensionOf(output) == "aac" ? output : audioOutput }

    /// Takes one message.
    /// - Parameter message: an audio, video or data message.
    /// - Returns: whether it was a picture (what `--frames` counts; an audio frame for an audio-only output).
    /// - Throws: tag and file errors.
    func take(_ message: RTMPMessage) async throws -> Bool {
        guard [.audio, .video, .dataAMF0].contains(message.type) else { return false }
        let event = try reader.read(message)
        if let flv { try writeTag(message, event: event, to: flv) }
        switch event {
        case let .videoFormat(format):
            summary.append("video: \(format.codec.rawValue) \(format.width)x\(format.height)")
            if wantsElementaryVideo, video == nil {
                if Self.extensionOf(output) != "y4m", videoPathIsHEVC != (format.codec == .hevc) {
                    throw CommandLineError.conflict("the stream's video is \(format.codec.rawValue), not what \(output) holds")
                }
                video = try ReceivedMediaWriter(path: output, videoCodec: format.codec, audioFormat: nil, frameRate: nil)
            }
        case let .video(annexB, _, _, _):
            videoFrames += 1
            try await video?.write(annexB: annexB)
            return true
        case let .audioFormat(format):
            summary.append("audio: AAC \(format.sampleRate) Hz, \(format.channelCount) channels")
            if let audioPath, audio == nil { audio = try ADTSWriter(path: audioPath) }
        case let .audio(frame):
            audioFrames += 1
            try audio?.write(frame)
            return Self.extensionOf(output) == "aac"
        case .metadata, .ignored:
            break
        }
        return false
    }

    /// The tag as it came (FLV §E.4.1), with `@setDataFrame` taken off a data message.
    private func writeTag(_ message: RTMPMessage, event: RTMPMediaEvent, to sink: FileByteSink) throws {
        let type: FLVTagType
        var body = message.payload
        switch message.type {
        case .audio: type = .audio
        case .video: type = .video
        default:
            guard case let .metadata(script) = event else { return }
            type = .scriptData
            body = ByteView(try script.bytes())
        }
        var header: [UInt8] = []
        header.reserveCapacity(FLVTag.headerByteCount)
        try FLVTag.appendHeader(type: type, timestamp: message.timestamp, bodyByteCount: body.count, to: &header)
        try sink.write(header)
        try body.withUnsafeBytes { bytes throws(ContainerIOError) in try sink.write(bytes) }
        let size = UInt32(FLVTag.headerByteCount + body.count)
        try sink.write([UInt8(size >> 24), UInt8(truncatingIfNeeded: size >> 16), UInt8(truncatingIfNeeded: size >> 8),
                        UInt8(truncatingIfNeeded: size)])
        tags += 1
    }

    /// Finishes every file.
    /// - Throws: file and decoder errors.
    func finish() async throws {
        var failure: (any Error)?
        do { try flv?.close() } catch { failure = error }
        do { pictures = try await video?.finish() } catch { failure = failure ?? error }
        do { try audio?.finish() } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    /// What was written, one line each.
    var report: [String] {
        var lines = summary
        lines.append("received \(videoFrames) video frames, \(audioFrames) audio frames" + (flv == nil ? "" : ", wrote \(tags) FLV tags"))
        if let pictures { lines.append("decoded \(pictures) pictures") }
        return lines
    }
}
