import Testing
@testable import Bitstream

/// `ByteView`: a view shares its storage (slices never copy), the get/peek/read verbs move or not as
/// named, and every read past the end is `nil`.
@Suite struct ByteViewTests {
    static let bytes: [UInt8] = [0x00, 0x00, 0x01, 0x67, 0x42, 0xC0, 0x1E, 0x95, 0xA0, 0x50]

    private func address(_ view: ByteView) -> UnsafeRawPointer? { view.withUnsafeBytes { $0.baseAddress } }

    @Test func viewOfAnArraySharesItsBuffer() {
        let array = Self.bytes
        let view = ByteView(array)
        let arrayAddress = array.withUnsafeBytes { $0.baseAddress }
        #expect(address(view) == arrayAddress)
        #expect(Array(view) == array)
        #expect(view.count == array.count)
    }

    @Test func slicesPointIntoTheSameMemory() throws {
        let view = ByteView(Self.bytes)
        let base = try #require(address(view))
        let slice = try #require(view.getView(at: 3, byteCount: 5))
        #expect(address(slice) == base + 3)
        let inner = try #require(slice.getView(in: 1..<3))
        #expect(address(inner) == base + 4)
        #expect(Array(inner) == [0x42, 0xC0])
        var reader = view
        let moved = reader.moveReaderIndex(forwardBy: 3)
        #expect(moved)
        let read = reader.readView(byteCount: 2)
        #expect(read.map(address) == base + 3)
        #expect(reader.readerIndex == 5)
        // A view of an array slice also shares the array's buffer.
        let fromSlice = ByteView(Self.bytes[2..<6])
        #expect(Array(fromSlice) == [0x01, 0x67, 0x42, 0xC0])
    }

    @Test func viewKeepsItsStorageAlive() {
        var view = ByteView()
        do {
            let temporary = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            view = ByteView(temporary).getView(at: 500, byteCount: 10) ?? ByteView()
        }
        #expect(Array(view) == (500..<510).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    }

    @Test func getAndPeekDoNotMoveReadMoves() {
        var view = ByteView(Self.bytes)
        #expect(view.getInteger(at: 3, as: UInt16.self) == 0x6742)
        #expect(view.getInteger(at: 3, endianness: .little, as: UInt16.self) == 0x4267)
        #expect(view.getUnsignedBigEndian(at: 0, byteCount: 3) == 1)
        #expect(view.peekInteger(as: UInt32.self) == 0x0000_0167)
        #expect(view.readerIndex == 0)
        #expect(view.readInteger(as: UInt32.self) == 0x0000_0167)
        #expect(view.readerIndex == 4)
        #expect(view.readByte() == 0x42)
        #expect(view.peekByte() == 0xC0)
        #expect(view.readUnsignedBigEndian(byteCount: 2) == 0xC01E)
        #expect(view.readableByteCount == 3)
        #expect(view.readInteger(as: UInt64.self) == nil, "too few bytes: nil, no move")
        #expect(view.readerIndex == 7)
    }

    @Test func readsPastTheEndAreNil() {
        var view = ByteView(Self.bytes)
        #expect(view.getByte(at: 10) == nil)
        #expect(view.getByte(at: -1) == nil)
        #expect(view.getInteger(at: 9, as: UInt16.self) == nil)
        #expect(view.getInteger(at: Int.max, as: UInt16.self) == nil)
        #expect(view.getView(at: 8, byteCount: 3) == nil)
        #expect(view.getView(at: -1, byteCount: 1) == nil)
        #expect(view.getUnsignedBigEndian(at: 0, byteCount: 9) == nil)
        let movedPastTheEnd = view.moveReaderIndex(forwardBy: 11)
        #expect(!movedPastTheEnd)
        let movedToTheEnd = view.moveReaderIndex(to: 10)
        #expect(movedToTheEnd)
        let byte = view.readByte()
        #expect(byte == nil)
        let pastEnd = view.readView(byteCount: 1)
        #expect(pastEnd == nil)
        let nothing = view.readView(byteCount: 0)
        #expect(nothing == ByteView())
        let empty = ByteView()
        #expect(empty.getByte(at: 0) == nil && empty.peekInteger(as: UInt8.self) == nil && empty.isEmpty)
    }

    @Test func equalityIsByContent() {
        let first = ByteView(Self.bytes)
        let second = ByteView(copying: Self.bytes)
        #expect(first == second)
        #expect(!first.isSameMemory(as: second))
        #expect(first.hashValue == second.hashValue)
        #expect(first.getView(at: 0, byteCount: 3) != first.getView(at: 1, byteCount: 3))
    }

    @Test func unsafeBytesWithAnOwner() {
        final class Owner: @unchecked Sendable {  // the test never writes the memory after init
            let pointer: UnsafeMutableRawBufferPointer
            init() {
                pointer = .allocate(byteCount: 4, alignment: 1)
                pointer.copyBytes(from: [9, 8, 7, 6])
            }
            deinit { pointer.deallocate() }
        }
        let owner = Owner()
        let view = ByteView(unsafeBytes: UnsafeRawBufferPointer(owner.pointer), owner: owner)
        #expect(Array(view) == [9, 8, 7, 6])
        #expect(view.getInteger(at: 0, as: UInt32.self) == 0x0908_0706)
    }
}
