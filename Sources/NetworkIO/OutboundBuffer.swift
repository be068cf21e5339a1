/// A fixed-capacity byte ring: what a ``TCPConnection`` has accepted but the kernel has not yet taken.
///
/// Its storage is allocated once; appending copies into it, and nothing allocates afterwards.
struct OutboundBuffer {
    private var storage: [UInt8]
    private var start = 0
    private(set) var count = 0

    /// A ring of `capacity` bytes (at least 1).
    init(capacity: Int) {
        storage = [UInt8](repeating: 0, count: max(1, capacity))
    }

    var capacity: Int { storage.count }
    var freeCount: Int { storage.count - count }
    var isEmpty: Bool { count == 0 }

    /// Copies `bytes` in if they fit whole.
    /// - Returns: whether they were appended.
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count <= freeCount else { return false }
        appendPrefix(bytes)
        return true
    }

    /// Copies in as many of `bytes` as fit.
    /// - Returns: how many were appended.
    @discardableResult
    mutating func appendPrefix(_ bytes: UnsafeRawBufferPointer) -> Int {
        let total = min(bytes.count, freeCount)
        guard total > 0, let source = bytes.baseAddress else { return 0 }
        storage.withUnsafeMutableBytes { ring in
            guard let base = ring.baseAddress else { return }
            let end = (start + count) % ring.count
            let first = min(total, ring.count - end)
            (base + end).copyMemory(from: source, byteCount: first)
            if first < total { base.copyMemory(from: source + first, byteCount: total - first) }
        }
        count += total
        return total
    }

    /// Calls `body` with the longest run of buffered bytes stored contiguously (from the oldest on), and drops
    /// as many bytes as it returns.
    mutating func drain(_ body: (UnsafeRawBufferPointer) -> Int) {
        guard count > 0 else { return }
        let run = min(count, storage.count - start)
        let consumed = storage.withUnsafeBytes { ring in
            body(UnsafeRawBufferPointer(rebasing: ring[start..<(start + run)]))
        }
        let taken = max(0, min(consumed, run))
        start = (start + taken) % storage.count
        count -= taken
        if count == 0 { start = 0 }
    }
}
