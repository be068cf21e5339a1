import Bitstream
import Containers
import Foundation
import MediaCore
import Transport

/// What `receive rtmp://…` writes from the messages themselves: the tags as they came (`.flv`), or the video as
/// Annex B (`.h264`/`.h265`, byte-identical to `ffmpeg -c copy -bsf:v h264_mp4toannexb`, through
/// ``RTMPMediaReader``), and the AAC frames as ADTS when `--audio-output` names a file. (`.mp4`, `.y4m` and `.aac`
/// go through ``RTMPSource`` and ``LivePipeline``.)
final class RTMPRecording {
    private var reader = RTMPMediaReader()
    private let flv: FileByteSink?
    private let video: FileByteSink?
    private let videoIsHEVC: Bool
    private let audioOutput: String?
    private var audio: ADTSWriter<FileByteSink>?
    private(set) var videoFrames = 0
    private(set) var audioFrames = 0
    private(set) var tags = 0
    private(set) var summary: [String] = []

    /// Opens the `.flv` or Annex B file; the `.aac` opens at the AAC sequence header.
    /// - Parameters:
    ///   - output: the `.flv`, `.h264`/`.264` or `.h265`/`.265`/`.hevc` file.
    ///   - audioOutput: an `.aac` file for the audio beside it.
    /// - Throws: file errors.
    init(output: String, audioOutput: String?) throws {
        self.audioOutput = audioOutput
        let kind = (output as NSString).pathExtension.lowercased()
        videoIsHEVC = ["h265", "265", "hevc"].contains(kind)
        if kind == "flv" {
            let sink = try FileByteSink(path: output)
            try sink.write(FLVHeader(hasAudio: true, hasVideo: true).bytes + [0, 0, 0, 0])
            (flv, video) = (sink, nil)
        } else {
            (flv, video) = (nil, try FileByteSink(path: output))
        }
    }

    /// Takes one message.
    /// - Parameter message: an audio, video or data message.
    /// - Returns: whether it was a picture (what `--frames` counts).
    /// - Throws: tag and file errors.
    func take(_ message: RTMPMessage) throws -> Bool {
        guard [.audio, .video, .dataAMF0].contains(message.type) else { return false }
        let event = try reader.read(message)
        if let flv { try writeTag(message, event: event, to: flv) }
        switch event {
        case let .videoFormat(format):
            summary.append("video: \(format.codec.rawValue) \(format.width)x\(format.height)")
            if video != nil, videoIsHEVC != (format.codec == .hevc) {
                throw CommandLineError.conflict("the stream's video is \(format.codec.rawValue), not what the output holds")
            }
        case let .video(annexB, _, _, _):
            videoFrames += 1
            try video?.write(annexB)
            return true
        case let .audioFormat(format):
            summary.append("audio: AAC \(format.sampleRate) Hz, \(format.channelCount) channels")
            if let audioOutput, audio == nil { audio = try ADTSWriter(path: audioOutput) }
        case let .audio(frame):
            audioFrames += 1
            try audio?.write(frame)
        case .metadata, .ignored:
            break
        }
        return false
    }

    /// The tag as it came (FLV §E.4.1), with `@setDataFrame` taken off a data message.
    private func writeTag(_ message: RTMPMessage, event: RTMPMediaEvent, to flv: FileByteSink) throws {
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
        try flv.write(header)
        try body.withUnsafeBytes { bytes throws(ContainerIOError) in try flv.write(bytes) }
        let size = UInt32(FLVTag.headerByteCount + body.count)
        try flv.write([UInt8(size >> 24), UInt8(truncatingIfNeeded: size >> 16), UInt8(truncatingIfNeeded: size >> 8),
                       UInt8(truncatingIfNeeded: size)])
        tags += 1
    }

    /// Finishes every file.
    /// - Throws: file errors.
    func finish() throws {
        var failure: (any Error)?
        do { try flv?.close() } catch { failure = error }
        do { try video?.close() } catch { failure = failure ?? error }
        do { try audio?.finish() } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    /// What was written, one line each.
    var report: [String] {
        summary + ["received \(videoFrames) video frames, \(audioFrames) audio frames" + (flv == nil ? "" : ", wrote \(tags) FLV tags")]
    }
}
