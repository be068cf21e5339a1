/// The path of an RTSP Request-URI (RFC 2326 §3.2): `rtsp://host:port/live/trackID=0` → `live/trackID=0`, with
/// `%XX` decoded and the query dropped — and refused when a segment is `.` or `..`, so a client cannot climb
/// out of the streams the server publishes.
enum RTSPRequestPath {
    /// Why a Request-URI is refused.
    enum Refusal: Error {
        case notRTSP, dotSegment, badEscape
    }

    /// The decoded path without its leading and trailing `/`.
    /// - Parameter uri: an absolute `rtsp://` or `rtsps://` URI, or an absolute path.
    /// - Returns: the path (empty for the root).
    /// - Throws: ``Refusal``.
    static func path(of uri: String) throws(Refusal) -> String {
        var rest = Substring(uri)
        let lower = uri.lowercased()
        if lower.hasPrefix("rtsp://") || lower.hasPrefix("rtsps://") || lower.hasPrefix("rtspu://") {
            rest = rest.dropFirst(lower.hasPrefix("rtsp://") ? 7 : 8)
            guard let slash = rest.firstIndex(of: "/") else { return "" }
            rest = rest[slash...]
        } else if uri == "*" {
            return ""
        } else if !uri.hasPrefix("/") {
            throw .notRTSP
        }
        if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<query] }
        guard let decoded = PercentDecoding.decode(rest) else { throw .badEscape }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        guard !segments.contains(where: { $0 == ".." || $0 == "." }), !decoded.contains("\0"), !decoded.contains("\\") else {
            throw .dotSegment
        }
        return segments.joined(separator: "/")
    }
}
