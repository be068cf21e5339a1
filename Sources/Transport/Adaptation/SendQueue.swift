import MediaCore

/// A publisher's bounded queue of media messages waiting for a slow link, measured in bytes and in media
/// time, with the live drop policy of DESIGN.md's session contract.
///
/// When a message would take the queue past a bound, in this order: the oldest queued picture nothing
/// references; else the incoming picture if nothing references it; else the rest of the group of pictures
/// (the incoming picture and every later one up to the next key frame — ``SendQueueEvent/keyFrameNeeded``
/// asks the encoder for one); a key frame into a full queue drops the newest queued pictures, which nothing
/// after a key frame refers to (StreamKit's encoders write closed groups of pictures). Audio is never
/// dropped while a picture could be: only when the queue holds no video and audio alone passes twice the
/// bounds does the oldest audio go. Every drop is reported with its track, index, pts and reason.
///
/// A value type, used under its owner's lock; it never suspends (``SendQueueLimits/Policy/wait`` is the
/// owner's job: it asks ``hasRoom`` before it enqueues).
public struct SendQueue: Sendable {
    /// The bounds.
    public let limits: SendQueueLimits
    private var items: [OutgoingMedia] = []
    private var head = 0
    /// The payload bytes queued.
    public private(set) var byteCount = 0
    /// Dropping every picture up to the next key frame (after a group-of-pictures drop or a reconnection).
    public private(set) var isSkippingToKeyFrame = false
    /// Why pictures are being skipped.
    private var skipReason = SendDropReason.restOfGroupOfPictures

    /// Creates an empty queue.
    /// - Parameter limits: its bounds and policy.
    public init(limits: SendQueueLimits) { self.limits = limits }

    /// How many messages are queued.
    public var count: Int { items.count - head }

    /// Whether nothing is queued.
    public var isEmpty: Bool { count == 0 }

    /// The media time queued, in seconds: the longer of the two tracks' spans (oldest decode time to the end
    /// of the newest message).
    public var queuedSeconds: Double {
        var video: (first: Double, end: Double)?
        var audio: (first: Double, end: Double)?
        for item in items[head...] {
            let start = item.decodeTime.seconds, end = start + item.duration.seconds
            if item.isVideo {
                video = (video?.first ?? start, max(video?.end ?? end, end))
            } else {
                audio = (audio?.first ?? start, max(audio?.end ?? end, end))
            }
        }
        return max((video.map { $0.end - $0.first }) ?? 0, (audio.map { $0.end - $0.first }) ?? 0)
    }

    /// Whether a message of this size fits without passing a bound (an empty queue takes anything).
    /// - Parameter byteCount: the payload size.
    /// - Returns: whether it fits.
    public func hasRoom(for byteCount: Int) -> Bool {
        isEmpty || (self.byteCount + byteCount <= limits.maximumBytes && queuedSeconds < limits.maximumSeconds)
    }

    private var isOverBounds: Bool {
        byteCount > limits.maximumBytes || queuedSeconds > limits.maximumSeconds
    }

    /// Adds a message at the end, dropping what the policy says when a bound is passed.
    /// - Parameter item: the message.
    /// - Returns: what happened besides the enqueue: drops, and ``SendQueueEvent/keyFrameNeeded``.
    public mutating func enqueue(_ item: OutgoingMedia) -> [SendQueueEvent] {
        var events: [SendQueueEvent] = []
        if case let .video(frame, _) = item {
            if isSkippingToKeyFrame {
                guard frame.isKeyFrame else {
                    return [.dropped(item.position, reason: skipReason)]
                }
                isSkippingToKeyFrame = false
            }
        }
        append(item)
        guard limits.policy == .drop, isOverBounds else { return events }
        // 1. The oldest queued pictures nothing references (not the incoming one yet).
        var position = head
        while isOverBounds, position < items.count - 1 {
            if case let .video(queued, _) = items[position], !queued.isReferenced {
                events.append(.dropped(items[position].position, reason: .nonReferenceFrame))
                remove(at: position)
            } else {
                position += 1
            }
        }
        guard isOverBounds else { return events }
        if case let .video(frame, _) = item {
            // 2. The incoming picture, if nothing references it.
            if !frame.isReferenced {
                events.append(.dropped(item.position, reason: .nonReferenceFrame))
                remove(at: items.count - 1)
                return events
            }
            // 3. The rest of this group of pictures.
            if !frame.isKeyFrame {
                events.append(.dropped(item.position, reason: .restOfGroupOfPictures))
                remove(at: items.count - 1)
                isSkippingToKeyFrame = true
                skipReason = .restOfGroupOfPictures
                events.append(.keyFrameNeeded)
                return events
            }
            // 4. A key frame into a full queue: the newest queued pictures before it, newest first (a suffix in
            //    decode order, so whatever stays still decodes).
            var scan = items.count - 2
            while isOverBounds, scan >= head {
                if items[scan].isVideo {
                    events.append(.dropped(items[scan].position, reason: .restOfGroupOfPictures))
                    remove(at: scan)
                }
                scan -= 1
            }
        }
        // 5. Audio only when no picture is left to drop and audio alone passes twice the bounds.
        while byteCount > 2 * limits.maximumBytes || queuedSeconds > 2 * limits.maximumSeconds {
            guard !items[head...].contains(where: { $0.isVideo }), let oldest = items[head...].first, !oldest.isVideo,
                  count > 1 else { break }
            events.append(.dropped(oldest.position, reason: .audioOverflow))
            remove(at: head)
        }
        return events
    }

    /// Takes the oldest message.
    /// - Returns: it, or `nil` when the queue is empty.
    public mutating func dequeue() -> OutgoingMedia? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        byteCount -= item.byteCount
        if head > 64, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }

    /// After a lost connection: drops every queued picture before the first queued key frame (reported with
    /// ``SendDropReason/reconnecting``) and, when none is queued, skips incoming pictures up to the next one.
    /// Audio stays.
    /// - Returns: the drops, and ``SendQueueEvent/keyFrameNeeded`` when no key frame was queued.
    public mutating func resumeAtKeyFrame() -> [SendQueueEvent] {
        var events: [SendQueueEvent] = []
        var position = head
        while position < items.count {
            if items[position].isKeyFrame { return events }
            if items[position].isVideo {
                events.append(.dropped(items[position].position, reason: .reconnecting))
                remove(at: position)
            } else {
                position += 1
            }
        }
        isSkippingToKeyFrame = true
        skipReason = .reconnecting
        events.append(.keyFrameNeeded)
        return events
    }

    /// Appends without looking at the bounds.
    private mutating func append(_ item: OutgoingMedia) {
        items.append(item)
        byteCount += item.byteCount
    }

    private mutating func remove(at position: Int) {
        byteCount -= items[position].byteCount
        items.remove(at: position)
    }
}
