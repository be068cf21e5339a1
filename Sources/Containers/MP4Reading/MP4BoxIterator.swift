import Bitstream

/// Reads the boxes inside one range of a file, one after another (ISO/IEC 14496-12 §4.2): the box
/// reader every part of ``MP4File`` uses, public for tools that walk a file's structure.
///
/// Each header is checked against its parent before it is handed out: a size of 2…7, a `largesize` below 16
/// or past the parent, a box larger than its parent, and a size of 0 (to the end of the file) anywhere but
/// at the top level are ``MP4ReadError/malformedBox(path:byteOffset:reason:)`` naming the path and offset.
public struct MP4BoxIterator {
    /// The bytes of the whole file.
    public let bytes: ByteView
    /// The path of the parent (empty at the top level), as errors name it.
    public let parentPath: String
    private let end: Int
    private var position: Int
    private let isTopLevel: Bool

    /// Creates an iterator over the boxes in `range`.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - range: the parent's payload (or the whole file at the top level); clamped to `bytes`.
    ///   - parentPath: the parent's path for errors, empty at the top level.
    public init(bytes: ByteView, range: Range<Int>? = nil, parentPath: String = "") {
        self.bytes = bytes
        let whole = 0..<bytes.count
        let range = (range ?? whole).clamped(to: whole)
        self.position = range.lowerBound
        self.end = range.upperBound
        self.parentPath = parentPath
        self.isTopLevel = parentPath.isEmpty
    }

    /// The offset of the next box.
    public var offset: Int { position }

    /// The path of a child of this iterator's parent.
    /// - Parameters:
    ///   - header: the child.
    ///   - index: its index among siblings of its type, shown in brackets when not `nil`.
    /// - Returns: `parent/type` or `parent/type[index]`.
    public func path(of header: MP4BoxHeader, index: Int? = nil) -> String {
        let name = index.map { "\(header.type)[\($0)]" } ?? header.type
        return parentPath.isEmpty ? name : parentPath + "/" + name
    }

    /// Reads the next box header and moves past the box.
    /// - Returns: the header, or `nil` at the end of the range (a tail of fewer than 8 zero bytes, which
    ///   QuickTime writes at the end of `udta`, also ends it).
    /// - Throws: ``MP4ReadError/malformedBox(path:byteOffset:reason:)`` for a header that does not fit.
    public mutating func next() throws(MP4ReadError) -> MP4BoxHeader? {
        let remaining = end - position
        guard remaining > 0 else { return nil }
        let here = parentPath.isEmpty ? "top level" : parentPath
        if remaining < 8 {
            if (position..<end).allSatisfy({ bytes.getByte(at: $0) == 0 }) { position = end; return nil }
            throw .malformedBox(path: here, byteOffset: position,
                                reason: "\(remaining) bytes left, too few for a box header (8)")
        }
        guard let size32 = bytes.getInteger(at: position, as: UInt32.self),
              let typeCode = bytes.getInteger(at: position + 4, as: UInt32.self) else {
            throw .malformedBox(path: here, byteOffset: position, reason: "box header cut off")
        }
        let typeName = MP4FourCC.string(typeCode)
        let boxPath = parentPath.isEmpty ? typeName : parentPath + "/" + typeName
        var headerSize = 8
        let size: Int
        switch size32 {
        case 1:
            guard remaining >= 16, let large = bytes.getInteger(at: position + 8, as: UInt64.self) else {
                throw .malformedBox(path: boxPath, byteOffset: position, reason: "64-bit largesize cut off")
            }
            headerSize = 16
            guard large >= 16 else {
                throw .malformedBox(path: boxPath, byteOffset: position, reason: "largesize \(large) is below the 16-byte header")
            }
            guard large <= UInt64(remaining) else {
                throw .malformedBox(path: boxPath, byteOffset: position,
                                    reason: "largesize \(large) is larger than its parent (\(remaining) bytes left)")
            }
            size = Int(large)
        case 0:
            guard isTopLevel else {
                throw .malformedBox(path: boxPath, byteOffset: position,
                                    reason: "size 0 (to the end of the file) is allowed only for a top-level box")
            }
            size = remaining
        case 2..<8:
            throw .malformedBox(path: boxPath, byteOffset: position, reason: "size \(size32) is below the 8-byte header")
        default:
            guard Int(size32) <= remaining else {
                throw .malformedBox(path: boxPath, byteOffset: position,
                                    reason: "size \(size32) is larger than its parent (\(remaining) bytes left)")
            }
            size = Int(size32)
        }
        var extendedType: [UInt8]?
        if typeCode == MP4FourCC.code("uuid") {
            guard size >= headerSize + 16, let user = bytes.getView(at: position + headerSize, byteCount: 16) else {
                throw .malformedBox(path: boxPath, byteOffset: position, reason: "uuid box without its 16-byte extended type")
            }
            extendedType = Array(user)
            headerSize += 16
        }
        let header = MP4BoxHeader(typeCode: typeCode, offset: position, headerSize: headerSize, size: size,
                                  extendedType: extendedType)
        position += size
        return header
    }
}
