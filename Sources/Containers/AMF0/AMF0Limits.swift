/// The hard caps of ``AMF0Decoder``: what hostile bytes may ask for before decoding stops with an
/// ``AMF0Error``. Memory stays proportional to the input and bounded, and recursion stays shallow.
public struct AMF0Limits: Sendable, Hashable {
    /// The deepest nesting of objects, ECMA arrays, strict arrays and typed objects (a top-level value
    /// is depth 1).
    public var maximumDepth: Int
    /// The most values (at every depth, properties included) one decode call may produce.
    public var maximumValueCount: Int
    /// The longest string, long string, XML document or property name, in bytes.
    public var maximumStringByteCount: Int

    /// Creates limits.
    /// - Parameters:
    ///   - maximumDepth: the deepest nesting, 32 by default (RTMP commands and `onMetaData` use 3 or fewer).
    ///   - maximumValueCount: the most values a decode, 65 536 by default.
    ///   - maximumStringByteCount: the longest string, 1 MiB by default.
    public init(maximumDepth: Int = 32, maximumValueCount: Int = 1 << 16, maximumStringByteCount: Int = 1 << 20) {
        self.maximumDepth = maximumDepth
        self.maximumValueCount = maximumValueCount
        self.maximumStringByteCount = maximumStringByteCount
    }

    /// The default caps.
    public static let `default` = AMF0Limits()
}
