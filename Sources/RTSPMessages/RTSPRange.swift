/// A `Range` header in normal play time (RFC 2326 §12.29, §3.6): `npt=0.000-`, `npt=now-`, `npt=10-20.5`.
public struct RTSPRange: Hashable, Sendable, CustomStringConvertible {
    /// The start in seconds, or `nil` for `now` (a live stream).
    public var start: Double?
    /// The end in seconds, or `nil` for open-ended.
    public var end: Double?

    /// A range.
    /// - Parameters:
    ///   - start: the start in seconds, or `nil` for `now`.
    ///   - end: the end, or `nil`.
    public init(start: Double?, end: Double? = nil) {
        self.start = start
        self.end = end
    }

    /// Parses an `npt=` range (other units — `smpte=`, `clock=` — are refused).
    /// - Parameter value: the header value (a `;time=` part is ignored).
    /// - Throws: ``RTSPHeaderError`` naming the malformed part.
    public init(parsing value: String) throws(RTSPHeaderError) {
        guard value.utf8.count <= 256 else { throw .tooLong(header: "Range", limit: 256) }
        let spec = value.split(separator: ";").first.map { $0.trimmingRTSPWhitespace() } ?? ""
        guard spec.lowercased().hasPrefix("npt=") else {
            throw .malformedParameter(header: "Range", parameter: String(spec), reason: "only npt= ranges are supported")
        }
        let bounds = spec.dropFirst(4).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2 else { throw .malformedParameter(header: "Range", parameter: String(spec), reason: "no '-'") }
        func seconds(_ text: Substring) throws(RTSPHeaderError) -> Double? {
            let text = text.trimmingRTSPWhitespace()
            if text.isEmpty || text.lowercased() == "now" { return nil }
            // npt-hhmmss (h:mm:ss.frac) or npt-sec.
            let fields = text.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count == 1 || fields.count == 3 else {
                throw .malformedParameter(header: "Range", parameter: String(text), reason: "not a time")
            }
            var total = 0.0
            for field in fields {
                guard !field.isEmpty, field.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") }),
                      let number = Double(field), number.isFinite else {
                    throw .malformedParameter(header: "Range", parameter: String(text), reason: "not a time")
                }
                total = total * 60 + number
            }
            return total
        }
        start = try seconds(bounds[0])
        end = try seconds(bounds[1])
    }

    /// `npt=0.000-`, `npt=now-` or `npt=1.500-3.000`.
    public var headerValue: String {
        func format(_ value: Double) -> String {
            let milliseconds = Int((value * 1000).rounded())
            let fraction = String(milliseconds % 1000)
            return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
        }
        return "npt=" + (start.map(format) ?? "now") + "-" + (end.map(format) ?? "")
    }

    /// The ``headerValue``.
    public var description: String { headerValue }
}
