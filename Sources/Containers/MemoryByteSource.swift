/// A ``ByteSource`` over bytes in memory: the entry point for tests and fuzz targets.
public struct MemoryByteSource: ByteSource, Sendable {
    /// All the bytes of the stream.
    public let bytes: [UInt8]
    /// The offset of the next byte to hand out.
    public private(set) var position: Int = 0

    /// Creates a source that hands out `bytes` from the start.
    /// - Parameter bytes: the whole stream.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Copies the next bytes into `buffer`.
    /// - Parameter buffer: where to put them.
    /// - Returns: the number of bytes copied; 0 at the end.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = Swift.min(buffer.count, bytes.count - position)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            guard let from = source.baseAddress, let to = buffer.baseAddress else { return }
            to.copyMemory(from: from + position, byteCount: count)
        }
        position += count
        return count
    }

    /// The bytes not yet handed out.
    public var remainingByteCount: Int? { bytes.count - position }
}
