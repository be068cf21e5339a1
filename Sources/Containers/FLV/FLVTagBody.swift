import Bitstream

/// The body of an FLV audio or video tag (FLV 10.1 §E.4.2.1 AUDIODATA, §E.4.3.1 VIDEODATA; Enhanced RTMP's
/// ExVideoTagHeader): a header of a few bytes, then the payload — a view into its buffer, never copied until
/// the body is written. A conforming type says how its header is written; writing the whole body is shared.
public protocol FLVTagBody: Sendable {
    /// The bytes after the header (a view, no copy).
    var payload: ByteView { get }

    /// The number of header bytes before ``payload``.
    var headerByteCount: Int { get }

    /// Appends the header (everything before ``payload``) to `buffer`.
    /// - Parameter buffer: where the header goes.
    /// - Throws: ``FLVError/Reason/unrepresentable(_:)`` for a field that does not fit its bits.
    func appendHeader(to buffer: inout [UInt8]) throws(FLVError)
}

extension FLVTagBody {
    /// The body's size: header and payload.
    public var byteCount: Int { headerByteCount + payload.count }

    /// Appends the whole body — header and payload — to `buffer`.
    /// - Parameter buffer: where the body goes.
    /// - Throws: what ``appendHeader(to:)`` throws.
    public func write(to buffer: inout [UInt8]) throws(FLVError) {
        try appendHeader(to: &buffer)
        payload.withUnsafeBytes { buffer.append(contentsOf: $0) }
    }

    /// The whole body as bytes (one allocation).
    /// - Returns: header and payload.
    /// - Throws: what ``appendHeader(to:)`` throws.
    public func bytes() throws(FLVError) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(byteCount)
        try write(to: &buffer)
        return buffer
    }
}
