/// Why a source of a ``LivePipeline`` failed.
public struct LiveSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in kinds a program can act on.
    public enum Kind: Sendable, Hashable {
        /// The file could not be opened or the server could not be reached.
        case unavailable
        /// The source's bytes are not what its format says (a damaged or foreign file, a malformed packet).
        case malformed
        /// The source carries nothing the pipeline can send (no track, a codec no destination takes).
        case unsupported
        /// The connection was lost midway.
        case disconnected
    }

    /// The source: a path or a URL.
    public var source: String
    /// The kind of failure.
    public var kind: Kind
    /// The underlying reason, as the layer below reported it.
    public var reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - source: the path or URL.
    ///   - kind: the kind of failure.
    ///   - reason: the underlying reason.
    public init(source: String, kind: Kind, reason: String) {
        self.source = source
        self.kind = kind
        self.reason = reason
    }

    /// The error in words: "x.flv is malformed: …".
    public var description: String {
        switch kind {
        case .unavailable: return "\(source) cannot be opened: \(reason)"
        case .malformed: return "\(source) is malformed: \(reason)"
        case .unsupported: return "\(source) cannot be sent: \(reason)"
        case .disconnected: return "\(source) was lost: \(reason)"
        }
    }
}
