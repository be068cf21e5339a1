// `ByteView` as a collection of bytes: indices 0..<count, contiguous storage for the fast paths of
// generic byte functions (emulation prevention, parsers that take `some Collection<UInt8>`), and
// equality by content.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ByteView: RandomAccessCollection {
    /// The first index: always 0.
    @inlinable public var startIndex: Int { 0 }
    /// One past the last index: ``count``.
    @inlinable public var endIndex: Int { count }

    /// The byte at `position`.
    /// - Parameter position: 0 through ``count`` − 1 (outside traps, as for every collection; use
    ///   ``getByte(at:)`` for input-driven offsets).
    @inlinable
    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "ByteView index out of range")
        return base.unsafelyUnwrapped.load(fromByteOffset: position, as: UInt8.self)
    }

    /// Calls `body` with the bytes as a typed buffer (always available: a view is contiguous).
    /// - Parameter body: receives the bytes.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    @inlinable
    public func withContiguousStorageIfAvailable<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result? {
        try withExtendedLifetime(self) {
            try body(UnsafeBufferPointer(start: base?.assumingMemoryBound(to: UInt8.self), count: count))
        }
    }
}

extension ByteView: Equatable {
    /// Whether two views hold the same bytes (wherever they live; reader indices are ignored).
    /// - Parameters:
    ///   - lhs: a view.
    ///   - rhs: another view.
    /// - Returns: `true` for equal contents.
    public static func == (lhs: ByteView, rhs: ByteView) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard lhs.base != rhs.base, let left = lhs.base, let right = rhs.base else { return true }
        return withExtendedLifetime((lhs, rhs)) { memcmp(left, right, lhs.count) == 0 }
    }
}

extension ByteView: Hashable {
    /// Hashes the bytes.
    /// - Parameter hasher: the hasher.
    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

extension ByteView: CustomStringConvertible {
    /// The length and the first bytes in hex, for example `ByteView(5 bytes: 67 42 c0 1e 95)`.
    public var description: String {
        let shown = prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }
        return "ByteView(\(count) bytes: \(shown.joined(separator: " "))\(count > 16 ? " …" : ""))"
    }
}

extension Array where Element == UInt8 {
    /// A copy of the bytes of a view (the one place a view's bytes become owned).
    /// - Parameter view: the view.
    public init(_ view: ByteView) {
        self = view.withUnsafeBytes { Array($0) }
    }
}
