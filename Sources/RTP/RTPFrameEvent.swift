/// What a depacketizer hands on: a whole frame, or the report of one it could not pass on as good.
public enum RTPFrameEvent<Frame: Sendable>: Sendable {
    /// A complete, undamaged frame.
    case frame(Frame)
    /// A frame that lost packets, or had a malformed or oversized one: it is not handed on.
    case lost(RTPFrameLoss)
    /// A complete frame held back because an earlier one was lost (or the stream was joined mid-way) and it
    /// depends on pictures the receiver does not have; frames are withheld until the next key frame.
    case withheld(RTPFrameLoss)
}

/// Which frame was not handed on and why.
public struct RTPFrameLoss: Sendable, Hashable, CustomStringConvertible {
    /// Why a frame was not handed on as good.
    public enum Reason: Sendable, Hashable {
        /// Packets of the frame never arrived (the first missing sequence number and how many).
        case packetsMissing(firstSequenceNumber: UInt16, count: Int)
        /// A fragment arrived without the fragment that starts its NAL unit (normal when joining a stream).
        case fragmentWithoutStart
        /// A fragmented NAL unit was not ended (its E fragment never came) before another began.
        case fragmentWithoutEnd
        /// One of its packets was malformed.
        case malformedPacket(RTPPayloadError)
        /// The frame grew past the depacketizer's largest access unit.
        case accessUnitTooLarge(limit: Int)
        /// The frame had more NAL units than the depacketizer's limit.
        case tooManyNALUnits(limit: Int)
        /// An earlier frame was lost, or the stream was joined mid-way: frames are withheld until a key frame.
        case waitingForKeyFrame
    }

    /// The frame's RTP timestamp.
    public var timestamp: UInt32
    /// The sequence number of the first packet received for it.
    public var firstSequenceNumber: UInt16
    /// The sequence number of the last packet received for it.
    public var lastSequenceNumber: UInt16
    /// The first reason it was not handed on.
    public var reason: Reason

    /// A report.
    /// - Parameters:
    ///   - timestamp: the RTP timestamp.
    ///   - firstSequenceNumber: the first packet received for the frame.
    ///   - lastSequenceNumber: the last packet received for it.
    ///   - reason: why it is not handed on.
    public init(timestamp: UInt32, firstSequenceNumber: UInt16, lastSequenceNumber: UInt16, reason: Reason) {
        self.timestamp = timestamp
        self.firstSequenceNumber = firstSequenceNumber
        self.lastSequenceNumber = lastSequenceNumber
        self.reason = reason
    }

    /// Which frame and why, for logs.
    public var description: String {
        "frame at RTP time \(timestamp), packets \(firstSequenceNumber)…\(lastSequenceNumber): \(reason)"
    }
}

/// What became of one packet given to a depacketizer. Frames it completed are handed to the event closure.
public enum RTPPacketOutcome: Sendable, Hashable {
    /// The packet was taken; its frame needs more packets.
    case needMorePackets
    /// The packet was taken and completed its frame (marker bit).
    case completedFrame
    /// The packet repeats the last one; dropped.
    case duplicate
    /// The packet is older than one already taken (arrived after its turn); dropped.
    case late
    /// A fragment whose start was never received (normal when joining a running stream); dropped, its frame is
    /// reported lost.
    case fragmentWithoutStart
}
