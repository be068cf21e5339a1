/// What ``ADTSFrameScanner`` found in the stream, in stream order.
///
/// Frames are the normal outcome; skipped bytes and a truncated last frame are reported rather than
/// dropped silently, so every byte of the input is accounted for.
public enum ADTSScanEvent: Hashable, Sendable {
    /// A complete frame.
    case frame(ADTSFrame)
    /// Bytes that are not ADTS frames: an ID3v2 tag, or data skipped while looking for the next syncword.
    case skipped(ADTSSkippedBytes)
    /// The stream ended inside a frame (reported by ``ADTSFrameScanner/finish()`` only).
    case truncated(ADTSTruncation)
}

/// A run of bytes the scanner did not turn into frames.
public struct ADTSSkippedBytes: Hashable, Sendable, CustomStringConvertible {
    /// Why the bytes were skipped.
    public enum Reason: Hashable, Sendable {
        /// An ID3v2 tag (ID3v2.4 §3.1), as found before the audio in `.aac` files and HLS segments.
        case id3v2Tag
        /// No valid frame started here; `firstError` says what was wrong at the first skipped byte.
        case lostSync(firstError: ADTSError)
    }

    /// Where the run starts, in bytes from the start of the stream.
    public var byteOffset: Int
    /// How many bytes were skipped.
    public var count: Int
    /// Why.
    public var reason: Reason

    /// Creates a skipped run.
    /// - Parameters:
    ///   - byteOffset: where it starts in the stream.
    ///   - count: how many bytes.
    ///   - reason: why they were skipped.
    public init(byteOffset: Int, count: Int, reason: Reason) {
        self.byteOffset = byteOffset
        self.count = count
        self.reason = reason
    }

    /// For example `skipped 10 bytes at 0: ID3v2 tag`.
    public var description: String {
        switch reason {
        case .id3v2Tag: return "skipped \(count) bytes at \(byteOffset): ID3v2 tag"
        case let .lostSync(error): return "skipped \(count) bytes at \(byteOffset): lost sync (\(error))"
        }
    }
}

/// A last frame the stream cut short: which frame, where, how long it should be and how much arrived.
public struct ADTSTruncation: Error, Hashable, Sendable, CustomStringConvertible {
    /// The index the frame would have had.
    public var frameIndex: Int
    /// Where the frame starts, in bytes from the start of the stream.
    public var byteOffset: Int
    /// The bytes the frame needs: `aac_frame_length`, or the header length when even the header is cut.
    public var needed: Int
    /// The bytes that arrived.
    public var available: Int
    /// The header, when it arrived whole.
    public var header: ADTSHeader?

    /// Creates a truncation report.
    /// - Parameters:
    ///   - frameIndex: the frame's index.
    ///   - byteOffset: where it starts in the stream.
    ///   - needed: the bytes it needs.
    ///   - available: the bytes that arrived.
    ///   - header: its header, if complete.
    public init(frameIndex: Int, byteOffset: Int, needed: Int, available: Int, header: ADTSHeader?) {
        self.frameIndex = frameIndex
        self.byteOffset = byteOffset
        self.needed = needed
        self.available = available
        self.header = header
    }

    /// For example `frame 143 at byte 30960 is truncated: needs 201 bytes, 171 available`.
    public var description: String {
        "frame \(frameIndex) at byte \(byteOffset) is truncated: needs \(needed) bytes, \(available) available"
    }
}

/// Everything a whole-buffer scan found (``ADTSFrameScanner/scan(_:)``).
public struct ADTSScanResult: Hashable, Sendable {
    /// The complete frames, in order.
    public var frames: [ADTSFrame]
    /// The skipped runs (ID3v2 tags, garbage), in order.
    public var skipped: [ADTSSkippedBytes]
    /// The truncated last frame, if the data ended inside one.
    public var truncation: ADTSTruncation?

    /// Creates a scan result.
    /// - Parameters:
    ///   - frames: the frames.
    ///   - skipped: the skipped runs.
    ///   - truncation: the truncated last frame.
    public init(frames: [ADTSFrame] = [], skipped: [ADTSSkippedBytes] = [], truncation: ADTSTruncation? = nil) {
        self.frames = frames
        self.skipped = skipped
        self.truncation = truncation
    }

    /// Sorts events into the three lists.
    /// - Parameter events: scanner events in stream order.
    public init(events: [ADTSScanEvent]) {
        self.init()
        for event in events {
            switch event {
            case let .frame(frame): frames.append(frame)
            case let .skipped(run): skipped.append(run)
            case let .truncated(cut): truncation = cut
            }
        }
    }
}
