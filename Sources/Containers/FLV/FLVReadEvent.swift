/// What ``FLVReader/next()`` found: a tag, the clean end of the file, or a file that stops inside a tag
/// (a recording cut off, or a file still being written) — a normal outcome, apart from malformed-input errors.
public enum FLVReadEvent: Sendable, Hashable {
    /// A tag, and the byte offset of its header in the file.
    case tag(FLVTag, offset: Int)
    /// The file ended after a complete tag (or right after the header).
    case end
    /// The file ended inside a tag: where that tag starts, and the field that was cut off.
    case truncated(offset: Int, field: String)
}
