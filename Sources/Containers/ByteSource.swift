/// Where a reader gets its bytes: a file (``FileByteSource``), memory (``MemoryByteSource``), or
/// anything else that can hand out the next bytes of a stream.
///
/// Readers pull through a source incrementally, so a 1 GB file is never loaded at once.
public protocol ByteSource {
    /// Reads the next bytes of the stream.
    /// - Parameter buffer: where to put them; up to `buffer.count` bytes are written.
    /// - Returns: the number of bytes read; 0 only at the end of the stream.
    /// - Throws: ``ContainerIOError`` when the underlying read fails.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ContainerIOError) -> Int

    /// How many bytes are known to remain, or `nil` when that is unknown (a pipe).
    ///
    /// Readers use it to size their buffers, so a header that declares a huge frame does not make
    /// them allocate more than the stream can deliver.
    var remainingByteCount: Int? { get }
}
