// The get/peek/read verbs of `ByteView`: integers and sub-views. `get…(at:)` and `peek…` do not move the
// reader index, `read…` moves it past what it returns; every read past the end returns nil.

extension ByteView {
    /// The byte order of a multi-byte integer.
    public enum Endianness: Sendable {
        /// Most significant byte first (network order; every length and header field in H.264, H.265, MP4, RTP).
        case big
        /// Least significant byte first (WAV, some Annex G extensions).
        case little
    }

    /// The byte at `index`, or `nil` outside the view.
    /// - Parameter index: counted from the start of the view.
    /// - Returns: the byte.
    @inlinable
    public func getByte(at index: Int) -> UInt8? {
        guard index >= 0, index < count, let base else { return nil }
        return base.load(fromByteOffset: index, as: UInt8.self)
    }

    /// The integer stored in the `MemoryLayout<Integer>.size` bytes at `index`, or `nil` if they are not all inside.
    /// - Parameters:
    ///   - index: where the integer starts, counted from the start of the view.
    ///   - endianness: the byte order (big-endian by default).
    ///   - type: the integer type.
    /// - Returns: the value.
    @inlinable
    public func getInteger<Integer: FixedWidthInteger>(
        at index: Int, endianness: Endianness = .big, as type: Integer.Type = Integer.self
    ) -> Integer? {
        let size = MemoryLayout<Integer>.size
        guard index >= 0, size <= count &- index, let base else { return nil }
        let raw = base.loadUnaligned(fromByteOffset: index, as: Integer.self)
        return endianness == .big ? Integer(bigEndian: raw) : Integer(littleEndian: raw)
    }

    /// The unsigned big-endian integer in the `byteCount` bytes at `index` (a 1-, 2-, 3- or 4-byte
    /// length prefix, for example), or `nil` if they are not all inside.
    /// - Parameters:
    ///   - index: where the integer starts.
    ///   - byteCount: 0 through 8.
    /// - Returns: the value.
    @inlinable
    public func getUnsignedBigEndian(at index: Int, byteCount: Int) -> UInt64? {
        guard byteCount >= 0, byteCount <= 8, index >= 0, byteCount <= count &- index else { return nil }
        guard let base else { return 0 }
        var value: UInt64 = 0
        for offset in 0..<byteCount {
            value = value &<< 8 | UInt64(base.load(fromByteOffset: index &+ offset, as: UInt8.self))
        }
        return value
    }

    /// A view of the `byteCount` bytes at `index`, sharing this view's storage (no copy), or `nil` if
    /// they are not all inside. The new view's reader index is 0.
    /// - Parameters:
    ///   - index: where the sub-view starts.
    ///   - byteCount: its length.
    /// - Returns: the sub-view.
    @inlinable
    public func getView(at index: Int, byteCount: Int) -> ByteView? {
        guard index >= 0, byteCount >= 0, byteCount <= count &- index else { return nil }
        return ByteView(base: base.map { $0 + index }, count: byteCount, owner: owner)
    }

    /// A view of the bytes in `range`, sharing this view's storage (no copy), or `nil` if the range is not inside.
    /// - Parameter range: offsets from the start of the view.
    /// - Returns: the sub-view.
    @inlinable
    public func getView(in range: Range<Int>) -> ByteView? {
        getView(at: range.lowerBound, byteCount: range.count)
    }

    /// The next byte, without moving, or `nil` at the end.
    /// - Returns: the byte at ``readerIndex``.
    @inlinable
    public func peekByte() -> UInt8? { getByte(at: readerIndex) }

    /// The integer at ``readerIndex``, without moving, or `nil` if too few bytes remain.
    /// - Parameters:
    ///   - endianness: the byte order (big-endian by default).
    ///   - type: the integer type.
    /// - Returns: the value.
    @inlinable
    public func peekInteger<Integer: FixedWidthInteger>(
        endianness: Endianness = .big, as type: Integer.Type = Integer.self
    ) -> Integer? {
        getInteger(at: readerIndex, endianness: endianness, as: type)
    }

    /// A view of the next `byteCount` bytes, without moving, or `nil` if fewer remain.
    /// - Parameter byteCount: the length of the sub-view.
    /// - Returns: the sub-view (no copy).
    @inlinable
    public func peekView(byteCount: Int) -> ByteView? { getView(at: readerIndex, byteCount: byteCount) }

    /// Reads the next byte and moves past it, or returns `nil` (without moving) at the end.
    /// - Returns: the byte.
    @inlinable
    public mutating func readByte() -> UInt8? {
        guard let byte = peekByte() else { return nil }
        moveReaderIndex(forwardBy: 1)
        return byte
    }

    /// Reads an integer and moves past it, or returns `nil` (without moving) if too few bytes remain.
    /// - Parameters:
    ///   - endianness: the byte order (big-endian by default).
    ///   - type: the integer type.
    /// - Returns: the value.
    @inlinable
    public mutating func readInteger<Integer: FixedWidthInteger>(
        endianness: Endianness = .big, as type: Integer.Type = Integer.self
    ) -> Integer? {
        guard let value = peekInteger(endianness: endianness, as: type) else { return nil }
        moveReaderIndex(forwardBy: MemoryLayout<Integer>.size)
        return value
    }

    /// Reads an unsigned big-endian integer of `byteCount` bytes and moves past it, or returns `nil`
    /// (without moving) if fewer remain.
    /// - Parameter byteCount: 0 through 8.
    /// - Returns: the value.
    @inlinable
    public mutating func readUnsignedBigEndian(byteCount: Int) -> UInt64? {
        guard let value = getUnsignedBigEndian(at: readerIndex, byteCount: byteCount) else { return nil }
        moveReaderIndex(forwardBy: byteCount)
        return value
    }

    /// Reads the next `byteCount` bytes as a view and moves past them, or returns `nil` (without moving)
    /// if fewer remain.
    /// - Parameter byteCount: the length of the sub-view.
    /// - Returns: the sub-view (no copy).
    @inlinable
    public mutating func readView(byteCount: Int) -> ByteView? {
        guard let view = peekView(byteCount: byteCount) else { return nil }
        moveReaderIndex(forwardBy: byteCount)
        return view
    }
}
