import Bitstream
import Containers
import Foundation
import MediaCore
import Transport

/// A recording of an RTMP stream's messages as they came (``RTMPMessageFeed``): the tags themselves into an `.flv`
/// file, or the video as Annex B (`.h264`/`.h265`, byte-identical to `ffmpeg -c copy -bsf:v h264_mp4toannexb`,
/// through ``RTMPMediaReader`` and Containers' `FLVAnnexBFramer`), and the AAC frames as ADTS beside it when asked.
/// Both keep what a ``LivePipeline`` does not: the tags' own bytes and timestamps, and FFmpeg's start-code framing.
///
/// ```swift
/// let feed = try await RTMPMessageFeed.playing(url, trust: .systemRoots)
/// let recording = try RTMPRecording(output: "stream.flv")
/// try await recording.record(from: feed)
/// print(recording.report.joined(separator: "\n"))
/// ```
public final class RTMPRecording {
    /// The extensions of the files a recording writes: `.flv` (the tags) and Annex B.
    public static let fileExtensions: Set<String> = ["flv", "h264", "264", "h265", "265", "hevc"]

    private var reader = RTMPMediaReader()
    private let output: String
    private let flv: FileByteSink?
    private let video: FileByteSink?
    private let videoIsHEVC: Bool
    private let audioOutput: String?
    private var audio: ADTSWriter<FileByteSink>?
    /// Pictures received.
    public private(set) var videoFrames = 0
    /// AAC frames received.
    public private(set) var audioFrames = 0
    /// FLV tags written.
    public private(set) var tags = 0
    private var summary: [String] = []

    /// Whether a file is one a recording writes (``fileExtensions``).
    /// - Parameter path: the output file.
    /// - Returns: `true` for `.flv` and Annex B.
    public static func writes(_ path: String) -> Bool {
        fileExtensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// Opens the `.flv` or Annex B file; the `.aac` opens at the AAC sequence header.
    /// - Parameters:
    ///   - output: the `.flv`, `.h264`/`.264` or `.h265`/`.265`/`.hevc` file.
    ///   - audioOutput: an `.aac` file for the audio beside it.
    /// - Throws: ``ContainerIOError`` when a file cannot be created.
    public init(output: String, audioOutput: String? = nil) throws {
        self.output = output
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

    /// Records a feed until it ends (the publisher leaves, the server ends the stream, ``RTMPMessageFeed/stop()``),
    /// or the frame limit; then closes the feed and finishes every file.
    /// - Parameters:
    ///   - feed: the messages.
    ///   - frameLimit: the most pictures.
    ///   - arrival: called as each message arrives (a watchdog for silence listens here).
    /// - Throws: tag and file errors; ``LiveDestinationError/refused(destination:reason:)`` when the stream's video is not the
    ///   codec the Annex B file holds.
    public func record(from feed: RTMPMessageFeed, frameLimit: Int? = nil, arrival: () -> Void = {}) async throws {
        var failure: (any Error)?
        var pictures = 0
        for await message in feed.messages {
            arrival()
            do {
                if try take(message) { pictures += 1 }
            } catch {
                failure = error
                break
            }
            if let frameLimit, pictures >= frameLimit { break }
        }
        await feed.close()
        do { try finish() } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    /// Takes one message.
    /// - Parameter message: an audio, video or data message.
    /// - Returns: whether it was a picture (what a frame limit counts).
    /// - Throws: tag and file errors; ``LiveDestinationError/refused(destination:reason:)`` for video of the other codec.
    public func take(_ message: RTMPMessage) throws -> Bool {
        guard [.audio, .video, .dataAMF0].contains(message.type) else { return false }
        let event = try reader.read(message)
        if let flv { try writeTag(message, event: event, to: flv) }
        switch event {
        case let .videoFormat(format):
            summary.append("video: \(format.codec.rawValue) \(format.width)x\(format.height)")
            if video != nil, videoIsHEVC != (format.codec == .hevc) {
                throw LiveDestinationError.refused(destination: output, reason: "the stream's video is \(format.codec.rawValue), not what the file holds")
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
    /// - Throws: file errors (the first one; every file is closed).
    public func finish() throws {
        var failure: (any Error)?
        do { try flv?.close() } catch { failure = error }
        do { try video?.close() } catch { failure = failure ?? error }
        do { try audio?.finish() } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    /// What was received and written, one sentence a line: the formats, then the counts.
    public var report: [String] {
        summary + ["received \(videoFrames) video frames, \(audioFrames) audio frames" + (flv == nil ? "" : ", wrote \(tags) FLV tags")]
    }
}
