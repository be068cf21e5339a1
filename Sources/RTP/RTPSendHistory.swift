/// The RTP packets a sender sent last, kept by sequence number so that a NACK (RFC 4585 §6.2.1) can be answered with
/// the packet itself or its RFC 4588 retransmission. Bounded: a ring of the newest ``capacity`` packets (of at most
/// ``maximumPacketSize`` bytes each) whose slots are reused, so that keeping a packet does not allocate once the ring
/// has filled. A sequence number older than the ring is simply not found.
public struct RTPSendHistory: Sendable {
    private var slots: [[UInt8]]
    private var numbers: [UInt16]
    private var occupied: [Bool]
    private var next = 0

    /// How many packets are kept.
    public let capacity: Int
    /// The largest packet kept (a longer one is not kept).
    public let maximumPacketSize: Int

    /// An empty history.
    /// - Parameters:
    ///   - capacity: packets kept (at least 1; 512 covers about a second of 4 Mbit/s video, as Chromium keeps).
    ///   - maximumPacketSize: the largest packet kept.
    public init(capacity: Int = 512, maximumPacketSize: Int = 1500) {
        self.capacity = max(1, capacity)
        self.maximumPacketSize = max(12, maximumPacketSize)
        slots = Array(repeating: [], count: self.capacity)
        numbers = Array(repeating: 0, count: self.capacity)
        occupied = Array(repeating: false, count: self.capacity)
    }

    /// Keeps an unprotected RTP packet under its sequence number (bytes 2–3 of its header, RFC 3550 §5.1), replacing
    /// the oldest one once the ring is full.
    /// - Parameter packet: the packet; one shorter than an RTP header or longer than ``maximumPacketSize`` is not kept.
    public mutating func record(_ packet: UnsafeRawBufferPointer) {
        guard packet.count >= 12, packet.count <= maximumPacketSize else { return }
        let number = UInt16(packet[2]) << 8 | UInt16(packet[3])
        slots[next].removeAll(keepingCapacity: true)
        slots[next].append(contentsOf: packet)
        numbers[next] = number
        occupied[next] = true
        next = (next + 1) % capacity
    }

    /// The packet sent with a sequence number, if it is still kept (the newest one of that number).
    /// - Parameter sequenceNumber: the number a NACK names.
    /// - Returns: the packet's bytes.
    public func packet(_ sequenceNumber: UInt16) -> [UInt8]? {
        var index = (next - 1 + capacity) % capacity
        for _ in 0..<capacity {
            if occupied[index], numbers[index] == sequenceNumber { return slots[index] }
            index = (index - 1 + capacity) % capacity
        }
        return nil
    }
}
