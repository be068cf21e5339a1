import Containers
import Foundation
import MediaCore

/// An `.flv` input of `publish` and `stream`: its H.264/H.265 pictures and AAC frames as they are (no
/// re-encode, like `ffmpeg -re -i x.flv -c copy`), read by ``FLVMediaReader`` in file order (decode order,
/// audio and video interleaved as the file has them), optionally paced to their decode times.
///
/// The first tags are read ahead when it opens, until a picture and an audio frame were both seen (or
/// ``readAhead`` events, or the end), so the formats a sender announces first (SDP, RTMP configuration) are
/// known; those are handed out first.
struct FLVFeed {
    /// How many events are read ahead at most to find both formats.
    static let readAhead = 256
    /// The file.
    let path: String
    private var reader: FLVMediaReader<FileByteSource>
    private var held: [FeedItem] = []
    private var heldIndex = 0
    private var ended = false
    /// The video format (of the first picture), if the file has video.
    private(set) var videoFormat: FormatDescription?
    /// The audio format (of the first audio frame), if the file has AAC.
    private(set) var audioFormat: AudioFormatDescription?
    /// The video's frame rate: from the first picture's duration (`onMetaData`'s `framerate`, else the gap
    /// between the first pictures), if known.
    var frameRate: Double? {
        for case let .video(frame) in held.dropFirst(heldIndex) where frame.duration.seconds > 0 { return 1 / frame.duration.seconds }
        return nil
    }
    /// Where the file was cut off, if it was.
    private(set) var truncation: String?

    /// Opens the file and reads ahead to its formats.
    /// - Parameter path: the `.flv` file.
    /// - Throws: ``FLVError`` or ``ContainerIOError``; ``CommandLineError`` for a file with neither H.264/H.265 nor AAC.
    init(path: String) throws {
        self.path = path
        reader = FLVMediaReader(reader: try FLVReader(source: try FileByteSource(path: path)))
        var events = 0
        while events < Self.readAhead, videoFormat == nil || audioFormat == nil, let item = try read() {
            held.append(item)
            events += 1
            switch item {
            case let .video(frame): videoFormat = videoFormat ?? frame.format
            case let .audio(frame): audioFormat = audioFormat ?? frame.format
            }
        }
        guard videoFormat != nil || audioFormat != nil else {
            throw CommandLineError.conflict("\(path) has no H.264/H.265 pictures and no AAC frames")
        }
    }

    /// The next picture or audio frame in file order.
    /// - Returns: the item, `nil` at the end (or where the file was cut off).
    /// - Throws: ``FLVError`` for a malformed tag.
    mutating func next() throws -> FeedItem? {
        if heldIndex < held.count {
            defer { heldIndex += 1; if heldIndex == held.count { held = []; heldIndex = 0 } }
            return held[heldIndex]
        }
        return try read()
    }

    private mutating func read() throws -> FeedItem? {
        while !ended {
            switch try reader.next() {
            case let .video(frame): return .video(frame)
            case let .audio(frame): return .audio(frame)
            case .metadata: continue
            case .end: ended = true
            case let .truncated(offset, field):
                ended = true
                truncation = "\(path) ends inside a tag (byte \(offset), \(field)): what came before it was sent"
            }
        }
        return nil
    }

    /// Hands every item to `deliver`, in real time (each at its decode time after the first) or as fast as
    /// `deliver` takes them, until the end, `limit` pictures, or Ctrl-C.
    /// - Parameters:
    ///   - realTime: whether to pace the items to their decode times.
    ///   - limit: the most pictures, if any.
    ///   - deliver: the sender.
    /// - Returns: the pictures and audio frames delivered.
    /// - Throws: what reading or `deliver` threw.
    mutating func run(realTime: Bool, limit: Int? = nil, deliver: (FeedItem) async throws -> Void) async throws -> (video: Int, audio: Int) {
        var counts = (video: 0, audio: 0)
        let start = ContinuousClock.now
        var origin: MediaTime?
        while !Interruption.isRequested, let item = try next() {
            let decodeTime: MediaTime
            switch item {
            case let .video(frame):
                if let limit, counts.video >= limit { return counts }
                decodeTime = frame.dts
            case let .audio(frame):
                decodeTime = frame.pts
            }
            let first = origin ?? decodeTime
            origin = first
            if realTime {
                let seconds = max(0, (decodeTime - first).seconds)
                try await Task.sleep(until: start.advanced(by: .seconds(seconds)), clock: .continuous)
            }
            try await deliver(item)
            if case .video = item { counts.video += 1 } else { counts.audio += 1 }
        }
        if let truncation { printError("note: \(truncation)") }
        return counts
    }
}
