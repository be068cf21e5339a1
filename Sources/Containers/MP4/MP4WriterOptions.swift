/// How an ``MP4Writer`` lays out its file.
public struct MP4WriterOptions: Sendable, Hashable {
    /// Put `moov` before `mdat` (progressive download, `-movflags +faststart`): the writer still
    /// writes the samples first, then inserts `moov` after `ftyp` at the end, moving `mdat` along and
    /// rewriting the chunk offsets. Needs an ``InsertingByteSink`` (``FileByteSink``, ``MemoryByteSink``).
    public var faststart: Bool
    /// Write `co64` chunk offsets even when every offset fits 32 bits (they are chosen automatically
    /// once one passes 4 GiB); for players' and tests' sake.
    public var usesLargeChunkOffsets: Bool

    /// Creates options.
    /// - Parameters:
    ///   - faststart: `moov` before `mdat`.
    ///   - usesLargeChunkOffsets: always `co64`.
    public init(faststart: Bool = false, usesLargeChunkOffsets: Bool = false) {
        self.faststart = faststart
        self.usesLargeChunkOffsets = usesLargeChunkOffsets
    }
}
