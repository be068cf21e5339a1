/// Where a writer puts its bytes: a file (``FileByteSink``), memory (``MemoryByteSink``), or anything
/// else that takes a stream of bytes.
///
/// Writers that must fix up a header once the length is known (WAV) also call
/// ``overwrite(_:at:)``; a sink that cannot go back (a pipe, a socket) throws there.
public protocol ByteSink {
    /// Appends bytes to the stream.
    /// - Parameter bytes: the bytes, in order.
    /// - Throws: ``ContainerIOError`` when the bytes cannot be written.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(ContainerIOError)

    /// Replaces bytes written earlier (a size field in a header).
    /// - Parameters:
    ///   - bytes: the new bytes.
    ///   - offset: where they go, counted from the first byte ever written; `offset + bytes.count`
    ///     must not pass the end of what was written.
    /// - Throws: ``ContainerIOError`` (operation `overwrite`) when the sink cannot go back or the
    ///   range was never written.
    mutating func overwrite(_ bytes: [UInt8], at offset: Int) throws(ContainerIOError)

    /// Makes every byte written so far reach its destination (empties buffers).
    /// - Throws: ``ContainerIOError`` when the bytes cannot be written.
    mutating func flush() throws(ContainerIOError)

    /// Flushes and closes the sink; later writes fail.
    /// - Throws: ``ContainerIOError`` when flushing or closing fails.
    mutating func close() throws(ContainerIOError)
}

extension ByteSink {
    /// Appends the bytes of an array.
    /// - Parameter bytes: the bytes, in order.
    /// - Throws: ``ContainerIOError`` when the bytes cannot be written.
    public mutating func write(_ bytes: [UInt8]) throws(ContainerIOError) {
        var failure: ContainerIOError?
        bytes.withUnsafeBytes { raw in
            do throws(ContainerIOError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Appends the bytes of an array slice.
    /// - Parameter bytes: the bytes, in order.
    /// - Throws: ``ContainerIOError`` when the bytes cannot be written.
    public mutating func write(_ bytes: ArraySlice<UInt8>) throws(ContainerIOError) {
        var failure: ContainerIOError?
        bytes.withUnsafeBytes { raw in
            do throws(ContainerIOError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}

/// A ``ByteSink`` that can also insert bytes before ones already written, moving them along (what
/// an MP4 writer's faststart needs to put `moov` before `mdat` at the end).
public protocol InsertingByteSink: ByteSink {
    /// Inserts bytes at `offset`; the bytes from `offset` on move `bytes.count` further.
    /// - Parameters:
    ///   - bytes: the bytes to insert.
    ///   - offset: where they go, from the first byte ever written; at most the number written.
    /// - Throws: ``ContainerIOError`` (operation `overwrite`) when the range was never written or
    ///   the destination cannot go back.
    mutating func insert(_ bytes: [UInt8], at offset: Int) throws(ContainerIOError)
}
