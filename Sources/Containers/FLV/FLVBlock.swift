import Bitstream

/// A block of memory an ``FLVReader`` reads into and hands out views of. It is written only past the bytes
/// already handed out, so views never see a change; it is freed when the last view of it goes.
final class FLVBlock: @unchecked Sendable {
    // @unchecked: bytes are written only where no view points yet (see the type's comment).
    let pointer: UnsafeMutableRawPointer
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        pointer = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { pointer.deallocate() }

    func view(_ range: Range<Int>) -> ByteView {
        ByteView(unsafeBytes: UnsafeRawBufferPointer(start: pointer + range.lowerBound, count: range.count), owner: self)
    }
}
