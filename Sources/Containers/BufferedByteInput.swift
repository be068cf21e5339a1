/// A look-ahead buffer over a ``ByteSource``: reads text lines (Y4M headers) and exact byte counts
/// (frames, chunks), and counts the stream offset of every byte for error messages.
///
/// Large reads go straight from the source into the result array, so a frame is copied once.
struct BufferedByteInput<Source: ByteSource> {
    /// What ``readLine(maximumLength:)`` found.
    enum Line {
        /// A whole line, without its `\n`.
        case line([UInt8])
        /// The stream ended before a `\n`; the bytes after the last line (possibly none).
        case endOfData([UInt8])
        /// No `\n` within the allowed length.
        case tooLong
    }

    /// The underlying source.
    private(set) var source: Source
    /// Look-ahead bytes; `storage[start..<end]` are not yet consumed.
    private var storage: [UInt8]
    private var start = 0
    private var end = 0
    private var sourceEnded = false
    /// The stream offset of the next byte to be consumed.
    private(set) var offset = 0
    /// How many bytes one refill asks for.
    let chunkSize: Int

    /// Creates a buffered input.
    /// - Parameters:
    ///   - source: where the bytes come from.
    ///   - chunkSize: how many bytes each refill asks for.
    init(source: Source, chunkSize: Int = 64 << 10) {
        self.source = source
        self.chunkSize = Swift.max(16, chunkSize)
        self.storage = []
    }

    /// The bytes buffered and not yet consumed.
    private var bufferedCount: Int { end - start }

    /// Reads more bytes from the source into the look-ahead buffer.
    /// - Returns: `false` when the source has ended.
    private mutating func refill() throws(ContainerIOError) -> Bool {
        guard !sourceEnded else { return false }
        if storage.isEmpty { storage = [UInt8](repeating: 0, count: chunkSize) }
        if start > 0 {
            // Move the unread tail to the front.
            if bufferedCount > 0 {
                let (from, count) = (start, bufferedCount)
                storage.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    (base).copyMemory(from: base + from, byteCount: count)
                }
            }
            end = bufferedCount
            start = 0
        }
        if end == storage.count { storage.append(contentsOf: repeatElement(0, count: storage.count)) }
        var failure: ContainerIOError?
        var count = 0
        let filled = end
        storage.withUnsafeMutableBytes { raw in
            do throws(ContainerIOError) {
                count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
            } catch { failure = error }
        }
        if let failure { throw failure }
        if count == 0 { sourceEnded = true; return false }
        end += count
        return true
    }

    /// Whether every byte has been consumed and the source has ended.
    mutating func isAtEnd() throws(ContainerIOError) -> Bool {
        if bufferedCount > 0 { return false }
        return try !refill()
    }

    /// Reads up to and including the next `\n`.
    /// - Parameter maximumLength: the longest line accepted, `\n` excluded.
    /// - Returns: the line, the bytes left at the end of the stream, or `.tooLong` (nothing consumed).
    mutating func readLine(maximumLength: Int) throws(ContainerIOError) -> Line {
        var searched = 0
        while true {
            if let newline = storage[(start + searched)..<end].firstIndex(of: 0x0A) {
                let length = newline - start
                guard length <= maximumLength else { return .tooLong }
                let line = Array(storage[start..<newline])
                start = newline + 1
                offset += length + 1
                return .line(line)
            }
            searched = bufferedCount
            if searched > maximumLength { return .tooLong }
            guard try refill() else {
                let rest = Array(storage[start..<end])
                offset += rest.count
                start = end
                return .endOfData(rest)
            }
        }
    }

    /// Reads `count` bytes, or fewer if the stream ends first.
    ///
    /// The result is allocated once, no larger than what the source says remains.
    /// - Parameter count: the number of bytes wanted.
    /// - Returns: the bytes; shorter than `count` only at the end of the stream.
    mutating func read(count: Int) throws(ContainerIOError) -> [UInt8] {
        guard count > 0 else { return [] }
        var capacity = count
        if let remaining = source.remainingByteCount, count - bufferedCount > remaining {
            capacity = bufferedCount + remaining
        }
        var failure: ContainerIOError?
        let result = [UInt8](unsafeUninitializedCapacity: capacity) { output, initialized in
            let fromBuffer = Swift.min(bufferedCount, capacity)
            if fromBuffer > 0, let target = output.baseAddress {
                storage.withUnsafeBufferPointer { buffered in
                    guard let base = buffered.baseAddress else { return }
                    target.initialize(from: base + start, count: fromBuffer)
                }
                start += fromBuffer
            }
            var filled = fromBuffer
            while filled < capacity && !sourceEnded {
                do throws(ContainerIOError) {
                    let got = try source.read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: output[filled..<capacity])))
                    if got == 0 { sourceEnded = true }
                    filled += got
                } catch {
                    failure = error
                    break
                }
            }
            initialized = filled
        }
        offset += result.count
        if let failure { throw failure }
        return result
    }

    /// Skips `count` bytes, or fewer if the stream ends first.
    /// - Parameter count: the number of bytes to skip.
    /// - Returns: the number skipped.
    mutating func skip(count: Int) throws(ContainerIOError) -> Int {
        var skipped = 0
        while skipped < count {
            if bufferedCount == 0 {
                guard try refill() else { break }
            }
            let step = Swift.min(bufferedCount, count - skipped)
            start += step
            skipped += step
        }
        offset += skipped
        return skipped
    }
}
