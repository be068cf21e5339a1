extension ByteSource {
    /// Reads up to `count` bytes into a new array: fewer only at the end of the stream.
    /// - Parameter count: the most bytes to read.
    /// - Returns: the bytes; empty at the end of the stream.
    /// - Throws: ``ContainerIOError`` when the underlying read fails.
    public mutating func read(upToCount count: Int) throws(ContainerIOError) -> [UInt8] {
        try readBytes(from: &self, upToCount: count)
    }

    /// Reads the rest of the stream into one array (a file's whole contents).
    /// - Parameter chunkSize: how much is read at a time when the size is unknown (a pipe).
    /// - Returns: every remaining byte.
    /// - Throws: ``ContainerIOError`` when the underlying read fails.
    public mutating func readToEnd(chunkSize: Int = 1 << 20) throws(ContainerIOError) -> [UInt8] {
        try readRest(of: &self, chunkSize: chunkSize)
    }
}

extension ByteSource where Self: AnyObject {
    /// Reads up to `count` bytes into a new array from a source that is a reference (``FileByteSource``),
    /// so a `let` will do.
    /// - Parameter count: the most bytes to read.
    /// - Returns: the bytes; empty at the end of the stream.
    /// - Throws: ``ContainerIOError`` when the underlying read fails.
    public func read(upToCount count: Int) throws(ContainerIOError) -> [UInt8] {
        var source = self
        return try readBytes(from: &source, upToCount: count)
    }

    /// Reads the rest of a source that is a reference (``FileByteSource``) into one array.
    /// - Parameter chunkSize: how much is read at a time when the size is unknown (a pipe).
    /// - Returns: every remaining byte.
    /// - Throws: ``ContainerIOError`` when the underlying read fails.
    public func readToEnd(chunkSize: Int = 1 << 20) throws(ContainerIOError) -> [UInt8] {
        var source = self
        return try readRest(of: &source, chunkSize: chunkSize)
    }
}

/// Reads up to `count` bytes, calling `read(into:)` until they are there or the stream ends.
private func readBytes<Source: ByteSource>(from source: inout Source, upToCount count: Int) throws(ContainerIOError) -> [UInt8] {
    guard count > 0 else { return [] }
    var failure: ContainerIOError?
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        initialized = 0
        while initialized < count {
            let rest = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[initialized...])
            do throws(ContainerIOError) {
                let read = try source.read(into: rest)
                if read == 0 { return }
                initialized += read
            } catch {
                failure = error
                return
            }
        }
    }
    if let failure { throw failure }
    return bytes
}

/// Reads to the end: what a regular file says is left at once, a pipe a chunk at a time. A file that says
/// nothing is left is still read a page at a time (the end check; files in `/proc` report size 0).
private func readRest<Source: ByteSource>(of source: inout Source, chunkSize: Int) throws(ContainerIOError) -> [UInt8] {
    var all: [UInt8] = []
    while true {
        let wanted = source.remainingByteCount.map { $0 > 0 ? $0 : 4096 } ?? Swift.max(1, chunkSize)
        let chunk = try readBytes(from: &source, upToCount: wanted)
        if chunk.isEmpty { return all }
        if all.isEmpty { all = chunk } else { all += chunk }
    }
}
