/// What is wrong with an Opus structure (the `OpusHead` identification header, a `dOps` box's payload, a
/// packet's table-of-contents byte) and where: the field as its specification names it, the byte offset from
/// the start of the structure, and why.
public struct OpusSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The field, for example `ChannelMappingFamily` or `frame count byte`.
    public var field: String
    /// Where the field starts, in bytes from the start of the structure.
    public var byteOffset: Int
    /// Why the field was rejected.
    public var reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - field: the field's name.
    ///   - byteOffset: where it starts.
    ///   - reason: what is wrong.
    public init(field: String, byteOffset: Int, reason: String) {
        self.field = field
        self.byteOffset = byteOffset
        self.reason = reason
    }

    /// A one-line explanation, for example `ChannelMappingFamily: family 0 carries 1 or 2 channels, not 3 (byte 18)`.
    public var description: String { "\(field): \(reason) (byte \(byteOffset))" }
}
