/// An RTSP method (RFC 2326 §6.1, §10): the standard ones by name, any other token kept as written so a server
/// can answer it with 501 Not Implemented.
public struct RTSPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as written, for example `DESCRIBE`.
    public let rawValue: String

    /// A method from its token (case-sensitive, as RFC 2326 §6.1 says).
    /// - Parameter rawValue: the token.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The token.
    public var description: String { rawValue }

    /// `OPTIONS` (RFC 2326 §10.1).
    public static let options = RTSPMethod(rawValue: "OPTIONS")
    /// `DESCRIBE` (§10.2).
    public static let describe = RTSPMethod(rawValue: "DESCRIBE")
    /// `ANNOUNCE` (§10.3).
    public static let announce = RTSPMethod(rawValue: "ANNOUNCE")
    /// `SETUP` (§10.4).
    public static let setup = RTSPMethod(rawValue: "SETUP")
    /// `PLAY` (§10.5).
    public static let play = RTSPMethod(rawValue: "PLAY")
    /// `PAUSE` (§10.6).
    public static let pause = RTSPMethod(rawValue: "PAUSE")
    /// `TEARDOWN` (§10.7).
    public static let teardown = RTSPMethod(rawValue: "TEARDOWN")
    /// `GET_PARAMETER` (§10.8), also the usual keep-alive.
    public static let getParameter = RTSPMethod(rawValue: "GET_PARAMETER")
    /// `SET_PARAMETER` (§10.9).
    public static let setParameter = RTSPMethod(rawValue: "SET_PARAMETER")
    /// `REDIRECT` (§10.10).
    public static let redirect = RTSPMethod(rawValue: "REDIRECT")
    /// `RECORD` (§10.11).
    public static let record = RTSPMethod(rawValue: "RECORD")

    /// The value of a `Public` header (RFC 2326 §12.28) listing `methods`: `OPTIONS, DESCRIBE, …`.
    /// - Parameter methods: the methods.
    /// - Returns: the header value.
    public static func publicHeaderValue(_ methods: [RTSPMethod]) -> String {
        methods.map(\.rawValue).joined(separator: ", ")
    }

    /// The methods a `Public` header lists (RFC 2326 §12.28); empty entries are skipped.
    /// - Parameter value: the header value.
    /// - Returns: the methods.
    public static func methods(inPublicHeader value: String) -> [RTSPMethod] {
        value.split(separator: ",").map { RTSPMethod(rawValue: String($0.trimmingRTSPWhitespace())) }.filter { !$0.rawValue.isEmpty }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    package func trimmingRTSPWhitespace() -> Substring {
        let text = Substring(self)
        guard let first = text.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        guard let last = text.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return text[first...last]
    }
}
