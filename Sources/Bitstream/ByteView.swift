/// A read-only view of bytes that live in someone else's storage: an array, a buffer the view's owner
/// allocated, or memory a C library handed out. Slicing a view never copies; the view keeps its storage
/// alive for as long as it (or any slice of it) exists.
///
/// A NAL unit, an RTP payload or an MP4 sample travels as a `ByteView` into the buffer it arrived in
/// until something must own it (`Array(view)` makes the copy explicit).
///
/// The verbs follow swift-nio's `ByteBuffer`: `get…(at:)` and `peek…` read without moving,
/// `read…` reads and moves ``readerIndex``; a read past the end returns `nil` and never traps.
/// As a `RandomAccessCollection` the view's indices run from 0 to ``count`` whatever the reader index.
///
/// Swift 6.3's `RawSpan` is the non-escaping form of the same idea; it cannot be stored in an escapable
/// type (a parser, a scanner, a queued frame), so StreamKit uses this escapable view with an owner.
public struct ByteView: @unchecked Sendable {
    // @unchecked: the memory is never written while a view covers it (see `Owner`), and every owner is
    // `Sendable`; only the raw pointer keeps the compiler from proving it.

    /// What keeps the memory alive.
    @usableFromInline
    enum Owner: Sendable {
        /// Memory that needs no owner (static, or empty).
        case none
        /// An array whose buffer holds the bytes; it is a `let` copy, never mutated, so its address is stable.
        case array([UInt8])
        /// An array slice whose buffer holds the bytes.
        case slice(ArraySlice<UInt8>)
        /// An object (a ``ByteStorage``, or a caller's wrapper around C memory) that frees the memory when it goes.
        case object(any AnyObject & Sendable)
    }

    /// The first byte of the view (`nil` only when the view is empty).
    @usableFromInline let base: UnsafeRawPointer?
    /// The number of bytes in the view.
    public let count: Int
    /// The position of the next byte `read…` returns, counted from the start of the view.
    public private(set) var readerIndex: Int
    /// What keeps the memory alive.
    @usableFromInline let owner: Owner

    @usableFromInline
    init(base: UnsafeRawPointer?, count: Int, owner: Owner) {
        self.base = count == 0 ? nil : base
        self.count = count
        self.readerIndex = 0
        self.owner = count == 0 ? .none : owner
    }

    /// An empty view.
    public init() {
        self.init(base: nil, count: 0, owner: .none)
    }

    /// A view of an array's bytes, without copying them: the view holds the array's buffer.
    /// - Parameter bytes: the bytes.
    public init(_ bytes: [UInt8]) {
        // The array stays in `owner` unmodified, so its buffer neither moves nor is freed while the view lives.
        let base = bytes.withUnsafeBytes { $0.baseAddress }
        self.init(base: base, count: bytes.count, owner: .array(bytes))
    }

    /// A view of an array slice's bytes, without copying them: the view holds the slice's buffer.
    /// - Parameter bytes: the bytes.
    public init(_ bytes: ArraySlice<UInt8>) {
        let base = bytes.withUnsafeBytes { $0.baseAddress }
        self.init(base: base, count: bytes.count, owner: .slice(bytes))
    }

    /// A view of memory that `owner` keeps alive and nobody writes while the view exists, for example
    /// a packet a C library allocated, wrapped in a class that frees it in `deinit`.
    /// - Parameters:
    ///   - bytes: the memory.
    ///   - owner: the object that keeps `bytes` valid for its whole lifetime; `nil` for static memory.
    public init(unsafeBytes bytes: UnsafeRawBufferPointer, owner: (any AnyObject & Sendable)?) {
        self.init(base: bytes.baseAddress, count: bytes.count, owner: owner.map { .object($0) } ?? .none)
    }

    /// A view of a fresh copy of `bytes` (one allocation, one copy).
    /// - Parameter bytes: the bytes to copy.
    public init<Bytes: Sequence>(copying bytes: Bytes) where Bytes.Element == UInt8 {
        let copy: [UInt8] = bytes.withContiguousStorageIfAvailable { Array($0) } ?? Array(bytes)
        self.init(copy)
    }

    /// The number of bytes from ``readerIndex`` to the end.
    @inlinable public var readableByteCount: Int { count &- readerIndex }

    /// Calls `body` with the view's memory (all of it, whatever the reader index).
    /// - Parameter body: receives the bytes; the pointer must not escape it.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    @inlinable
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withExtendedLifetime(self) { () throws(Failure) -> Result in
            try body(UnsafeRawBufferPointer(start: base, count: count))
        }
    }

    /// Whether two views are views of the same memory (same address, same length), not just equal bytes.
    /// - Parameter other: the other view.
    /// - Returns: `true` when both cover exactly the same bytes of the same storage.
    public func isSameMemory(as other: ByteView) -> Bool {
        base == other.base && count == other.count
    }

    /// Moves ``readerIndex`` to `index`.
    /// - Parameter index: 0 through ``count``.
    /// - Returns: whether `index` was inside the view (the reader index is unchanged if not).
    @discardableResult
    public mutating func moveReaderIndex(to index: Int) -> Bool {
        guard index >= 0, index <= count else { return false }
        readerIndex = index
        return true
    }

    /// Moves ``readerIndex`` forward by `offset` bytes.
    /// - Parameter offset: the number of bytes to skip; not negative.
    /// - Returns: whether that many bytes were readable (the reader index is unchanged if not).
    @discardableResult
    public mutating func moveReaderIndex(forwardBy offset: Int) -> Bool {
        guard offset >= 0, offset <= readableByteCount else { return false }
        readerIndex &+= offset
        return true
    }
}
