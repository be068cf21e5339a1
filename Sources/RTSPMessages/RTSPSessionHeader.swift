/// A `Session` header (RFC 2326 §12.37): the session identifier and, from the server, its timeout in seconds.
public struct RTSPSessionHeader: Hashable, Sendable, CustomStringConvertible {
    /// The identifier (at least 8 characters from the server, RFC 2326 §3.4).
    public var identifier: String
    /// `timeout=`: seconds without a request after which the server may end the session (60 when not said).
    public var timeout: Int?

    /// A header.
    /// - Parameters:
    ///   - identifier: the session identifier.
    ///   - timeout: its timeout in seconds, if said.
    public init(identifier: String, timeout: Int? = nil) {
        self.identifier = identifier
        self.timeout = timeout
    }

    /// The longest identifier taken.
    public static let maximumIdentifierLength = 256

    /// Parses `12345678;timeout=60`.
    /// - Parameter value: the header value.
    /// - Throws: ``RTSPHeaderError`` for an empty or over-long identifier, or a bad timeout.
    public init(parsing value: String) throws(RTSPHeaderError) {
        let parts = value.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingRTSPWhitespace() }
        guard let identifier = parts.first, !identifier.isEmpty else { throw .missingPart(header: "Session", part: "session identifier") }
        guard identifier.utf8.count <= Self.maximumIdentifierLength else {
            throw .tooLong(header: "Session", limit: Self.maximumIdentifierLength)
        }
        guard identifier.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ";") }) else {
            throw .malformedParameter(header: "Session", parameter: String(identifier), reason: "not a session identifier")
        }
        self.identifier = String(identifier)
        for parameter in parts.dropFirst() {
            let pieces = parameter.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2, pieces[0].trimmingRTSPWhitespace().lowercased() == "timeout" else { continue }
            let text = pieces[1].trimmingRTSPWhitespace()
            guard text.utf8.count <= 9, let seconds = Int(text), seconds > 0 else {
                throw .malformedParameter(header: "Session", parameter: String(parameter), reason: "timeout is not a positive number of seconds")
            }
            timeout = seconds
        }
    }

    /// `12345678;timeout=60`.
    public var headerValue: String {
        identifier + (timeout.map { ";timeout=\($0)" } ?? "")
    }

    /// The ``headerValue``.
    public var description: String { headerValue }
}
