import MediaCore

/// ``OutputPolicy/drop`` for encoded video: what to drop when the buffer is full, so that every frame
/// that is passed on still decodes.
///
/// In this order: a buffered frame no other frame references (the oldest first); else the incoming
/// frame if nothing references it; else the rest of the group of pictures — the incoming frame and
/// every later one up to the next key frame (and the session asks the engine for a key frame so the
/// gap is short). When a key frame arrives into a full buffer, the tail of the last buffered group
/// (back to its key frame) is dropped to make room: nothing after a key frame refers to what precedes
/// it (StreamKit's encoders write closed groups of pictures).
struct CompressionDropPolicy: Sendable {
    /// Dropping every frame up to the next key frame.
    private(set) var skippingToKeyFrame = false

    /// Admits one frame into the buffer under the stream's lock.
    /// - Parameters:
    ///   - frame: the frame the engine produced.
    ///   - index: its index in input order.
    ///   - slots: the buffer.
    ///   - capacity: the most frames it may hold.
    /// - Returns: whether the session should force a key frame on the next picture.
    mutating func admit(_ frame: EncodedFrame, index: Int, into slots: inout [SessionOutputStream<CompressionOutput>.Slot],
                        capacity: Int) -> Bool {
        typealias Slot = SessionOutputStream<CompressionOutput>.Slot
        let report = { (frame: EncodedFrame, index: Int, reason: DropReason) in
            Slot(element: .dropped(FramePosition(index: index, pts: frame.pts), reason: reason), isMedia: false, tag: index)
        }
        let incoming = Slot(element: .frame(frame), isMedia: true, tag: index)
        if skippingToKeyFrame && !frame.isKeyFrame {
            slots.append(report(frame, index, .restOfGroupOfPictures))
            return false
        }
        if frame.isKeyFrame { skippingToKeyFrame = false }
        let frames = slots.reduce(0) { $0 + ($1.isMedia ? 1 : 0) }
        guard frames >= capacity else { slots.append(incoming); return false }
        // 1. The oldest buffered frame nothing references.
        if let position = slots.firstIndex(where: { slot in
            if case let .frame(queued) = slot.element { return !FrameDependency.isReferenced(queued) }
            return false
        }), case let .frame(queued) = slots[position].element {
            slots[position] = report(queued, slots[position].tag, .nonReferenceFrame)
            slots.append(incoming)
            return false
        }
        // 2. The incoming frame, if nothing references it.
        if !FrameDependency.isReferenced(frame) {
            slots.append(report(frame, index, .nonReferenceFrame))
            return false
        }
        // 3. The rest of this group of pictures.
        if !frame.isKeyFrame {
            skippingToKeyFrame = true
            slots.append(report(frame, index, .restOfGroupOfPictures))
            return true
        }
        // 4. A key frame into a full buffer: drop the tail of the last buffered group, back to (and, if the
        //    group has nothing else buffered, including) its key frame.
        var position = slots.count - 1
        var dropped = 0
        while position >= 0 {
            if case let .frame(queued) = slots[position].element {
                if queued.isKeyFrame && dropped > 0 { break }
                slots[position] = report(queued, slots[position].tag, .restOfGroupOfPictures)
                dropped += 1
                if queued.isKeyFrame { break }
            }
            position -= 1
        }
        slots.append(incoming)
        return false
    }
}
