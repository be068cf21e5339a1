/// A fixed-size block of memory that ``ByteView``s can share: the storage behind the chunked scanners'
/// buffers and other views that own their bytes.
///
/// The block is written only where no view points (past the bytes handed out), so views on other
/// threads never race with the writer; moving bytes inside it is allowed only while the writer holds
/// the sole reference (`isKnownUniquelyReferenced`).
final class ByteStorage: @unchecked Sendable {
    /// The first byte.
    let pointer: UnsafeMutableRawPointer
    /// The size of the block in bytes.
    let capacity: Int

    /// Allocates an uninitialised block.
    /// - Parameter capacity: its size in bytes (at least 1 is allocated).
    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        self.pointer = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { pointer.deallocate() }

    /// A view of the bytes in `range`, keeping this storage alive.
    /// - Parameter range: offsets into the block; must be inside it.
    /// - Returns: the view.
    func view(_ range: Range<Int>) -> ByteView {
        ByteView(base: UnsafeRawPointer(pointer + range.lowerBound), count: range.count, owner: .object(self))
    }
}
