/// What an RTP sender keeps from packet to packet (RFC 3550 §5.1): its SSRC, the next sequence number and the
/// random offset added to every timestamp. RFC 3550 asks for random initial values of all three (so a
/// known-plaintext attack on encryption is harder, and two sources rarely collide); tests inject their own.
public struct RTPSenderState: Sendable, Hashable {
    /// The payload type written in every packet (96…127 for the dynamic types of video and AAC).
    public var payloadType: UInt8
    /// The synchronisation source identifier.
    public var ssrc: UInt32
    /// The sequence number of the next packet.
    public var nextSequenceNumber: UInt16
    /// Added (modulo 2^32) to every media timestamp to make the RTP timestamp.
    public var timestampOffset: UInt32

    /// A sender with chosen values (tests, or a restart that must continue a stream).
    /// - Parameters:
    ///   - payloadType: 0 through 127.
    ///   - ssrc: the SSRC.
    ///   - sequenceNumber: the first sequence number.
    ///   - timestampOffset: the offset of the RTP timestamps.
    public init(payloadType: UInt8, ssrc: UInt32, sequenceNumber: UInt16, timestampOffset: UInt32) {
        self.payloadType = payloadType & 0x7F
        self.ssrc = ssrc
        self.nextSequenceNumber = sequenceNumber
        self.timestampOffset = timestampOffset
    }

    /// A sender with random SSRC, initial sequence number and timestamp offset (RFC 3550 §5.1).
    /// - Parameters:
    ///   - payloadType: 0 through 127.
    ///   - generator: the source of randomness (the system's by default).
    public init<Generator: RandomNumberGenerator>(payloadType: UInt8, using generator: inout Generator) {
        self.init(payloadType: payloadType, ssrc: generator.next(), sequenceNumber: generator.next(),
                  timestampOffset: generator.next())
    }

    /// A sender whose SSRC is already chosen (named in an SDP's `a=ssrc`, as WebRTC does) with a random initial
    /// sequence number and timestamp offset from the system generator (RFC 3550 §5.1).
    /// - Parameters:
    ///   - payloadType: 0 through 127.
    ///   - ssrc: the SSRC.
    public init(payloadType: UInt8, ssrc: UInt32) {
        var generator = SystemRandomNumberGenerator()
        self.init(payloadType: payloadType, ssrc: ssrc, sequenceNumber: generator.next(), timestampOffset: generator.next())
    }

    /// A sender with random SSRC, initial sequence number and timestamp offset from the system generator.
    /// - Parameter payloadType: 0 through 127.
    public init(payloadType: UInt8) {
        var generator = SystemRandomNumberGenerator()
        self.init(payloadType: payloadType, using: &generator)
    }

    /// Takes the next sequence number.
    /// - Returns: the sequence number for the packet being written.
    @inline(__always)
    mutating func takeSequenceNumber() -> UInt16 {
        defer { nextSequenceNumber &+= 1 }
        return nextSequenceNumber
    }
}
