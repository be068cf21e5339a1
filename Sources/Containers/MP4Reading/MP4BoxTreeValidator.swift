import Bitstream

/// Walks every container box of a top-level box once (ISO/IEC 14496-12 §4.2), so that every header in the file
/// is checked against its parent, the nesting depth against ``MP4ReaderLimits/maxBoxDepth`` (a `meta` in a
/// `udta` in a `meta` … is refused, not followed) and the number of boxes against ``MP4ReaderLimits/maxBoxCount``.
struct MP4BoxTreeValidator {
    let bytes: ByteView
    let limits: MP4ReaderLimits
    private(set) var boxCount = 0

    /// Containers whose payload is only boxes.
    private static let containers: Set<String> = [
        "moov", "trak", "edts", "mdia", "minf", "dinf", "stbl", "mvex", "moof", "traf", "udta", "tref", "mfra",
        "sinf", "schi", "rinf", "ilst", "wave",
    ]

    init(bytes: ByteView, limits: MP4ReaderLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    mutating func validate(_ header: MP4BoxHeader, path: String, depth: Int) throws(MP4ReadError) {
        boxCount += 1
        guard boxCount <= limits.maxBoxCount else {
            throw .limitExceeded(path: path, byteOffset: header.offset, limit: "the limit of \(limits.maxBoxCount) boxes")
        }
        guard depth <= limits.maxBoxDepth else {
            throw .limitExceeded(path: path, byteOffset: header.offset, limit: "the box nesting limit of \(limits.maxBoxDepth)")
        }
        var range = header.payloadRange
        switch header.type {
        case let type where Self.containers.contains(type):
            break
        case "meta":
            // ISO `meta` is a FullBox (4 bytes of version and flags before its boxes); QuickTime's is a plain container.
            if range.count >= 4, bytes.getInteger(at: range.lowerBound, as: UInt32.self) == 0 {
                range = (range.lowerBound + 4)..<range.upperBound
            }
        default:
            return
        }
        var children = MP4BoxIterator(bytes: bytes, range: range, parentPath: path)
        var index = 0
        while let child = try children.next() {
            try validate(child, path: children.path(of: child, index: Self.indexed(child.type) ? index : nil), depth: depth + 1)
            if Self.indexed(child.type) { index += 1 }
        }
    }

    private static func indexed(_ type: String) -> Bool { type == "trak" || type == "traf" || type == "trun" }
}
