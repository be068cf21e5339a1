import MediaCore

/// Gives pictures that arrive in decode order (an Annex B stream, which carries no time) their presentation
/// times from their picture order counts, the way a decoder's picture buffer puts them out: the "bumping"
/// process of ITU-T H.264 §C.4.5.3 with `max_num_reorder_frames` — a picture waits until more than that many
/// are waiting, then the one with the smallest picture order count goes out; a picture that resets the order
/// (IDR, `memory_management_control_operation` 5) first sends out every picture waiting.
///
/// The k-th picture put out gets pts = (k + reorder depth) · frame duration, so that no picture is shown before
/// it is decoded (dts = its decode index · frame duration, as the caller gave it: a constant frame duration is assumed,
/// as Annex B has); frames come back in decode order, each once its pts is known — at most `reorderDepth` + 1
/// pictures later.
///
/// ```swift
/// var timer = PresentationOrderTimer(reorderDepth: 2)
/// for (frame, poc, isIDR) in pictures { send(timer.append(frame, pictureOrderCount: poc, resetsOrder: isIDR)) }
/// send(timer.finish())
/// ```
public struct PresentationOrderTimer: Sendable {
    /// How many pictures may precede a picture in decode order and follow it in output order
    /// (`max_num_reorder_frames`, H.264 E.2.1), at most 16.
    public let reorderDepth: Int
    /// The pictures not yet handed back, in decode order, each with its pts once its output slot is known.
    private var decoded: [(frame: EncodedFrame, pts: MediaTime?)] = []
    /// Decode-order indices (into `decoded`, offset by `firstIndex`) still waiting for their output slot, with their order count.
    private var waiting: [(index: Int, order: Int)] = []
    private var firstIndex = 0
    private var outputCount: Int64 = 0

    /// Creates a timer.
    /// - Parameter reorderDepth: `max_num_reorder_frames` of the stream (0 for a stream without reordering).
    public init(reorderDepth: Int) {
        self.reorderDepth = min(max(reorderDepth, 0), 16)
        decoded.reserveCapacity(self.reorderDepth + 2)
        waiting.reserveCapacity(self.reorderDepth + 2)
    }

    /// Takes the next picture in decode order.
    /// - Parameters:
    ///   - frame: the picture; its dts and duration are kept, its pts is replaced.
    ///   - pictureOrderCount: `PicOrderCnt` of the picture (H.264 §8.2.1).
    ///   - resetsOrder: whether it is an IDR picture or carries `memory_management_control_operation` 5.
    /// - Returns: the pictures whose pts is now known, in decode order.
    public mutating func append(_ frame: EncodedFrame, pictureOrderCount: Int, resetsOrder: Bool) -> [EncodedFrame] {
        if resetsOrder { bump(all: true) }
        decoded.append((frame, nil))
        waiting.append((firstIndex + decoded.count - 1, pictureOrderCount))
        bump(all: false)
        return release()
    }

    /// Ends the stream: every waiting picture goes out.
    /// - Returns: the remaining pictures, in decode order.
    public mutating func finish() -> [EncodedFrame] {
        bump(all: true)
        return release()
    }

    private mutating func bump(all: Bool) {
        while waiting.count > (all ? 0 : reorderDepth) {
            var smallest = 0
            for candidate in waiting.indices.dropFirst() where waiting[candidate].order < waiting[smallest].order { smallest = candidate }
            let picture = waiting.remove(at: smallest)
            let duration = decoded[picture.index - firstIndex].frame.duration
            decoded[picture.index - firstIndex].pts = MediaTime(value: (outputCount + Int64(reorderDepth)) * duration.value, timescale: duration.timescale)
            outputCount += 1
        }
    }

    private mutating func release() -> [EncodedFrame] {
        var ready: [EncodedFrame] = []
        while let first = decoded.first, let pts = first.pts {
            var frame = first.frame
            frame.pts = pts
            ready.append(frame)
            decoded.removeFirst()
            firstIndex += 1
        }
        return ready
    }
}
