/// A stream id in SRT's access-control syntax (the SRT Alliance's "SRT Access Control" guideline):
/// `#!::` and then `key=value` pairs separated by commas, for example `#!::r=live/cam,m=publish,u=alice`.
///
/// Standard keys: `r` the resource, `m` the mode (`request`, `publish`, `bidirectional`), `u` the user, `s` a
/// session id, `h` the host, `t` the type (`stream`, `file`, `auth`). A stream id without the `#!::` prefix is taken
/// whole as the resource name, as MediaMTX and SRS do.
public struct SRTStreamID: Hashable, Sendable, CustomStringConvertible {
    /// What the caller wants to do with the resource.
    public enum Mode: String, Hashable, Sendable {
        /// Receive (play) the resource.
        case request
        /// Send (publish) to the resource.
        case publish
        /// Both.
        case bidirectional
    }

    /// The resource (`r`), for example `live/cam`.
    public var resource: String?
    /// The mode (`m`); `nil` when absent (a listener usually reads that as `request`).
    public var mode: Mode?
    /// The user (`u`).
    public var user: String?
    /// The session id (`s`).
    public var session: String?
    /// Every pair as written, the standard ones included, in order.
    public var pairs: [(key: String, value: String)]
    /// Whether it was given bare (without `#!::`): then it is the resource name, written back as it came.
    public var isBare: Bool

    /// A stream id from its parts.
    /// - Parameters:
    ///   - resource: the resource name.
    ///   - mode: publish, request or both.
    ///   - user: the user name.
    public init(resource: String, mode: Mode? = nil, user: String? = nil) {
        self.resource = resource
        self.mode = mode
        self.user = user
        self.session = nil
        self.isBare = false
        var pairs: [(key: String, value: String)] = [("r", resource)]
        if let mode { pairs.append(("m", mode.rawValue)) }
        if let user { pairs.append(("u", user)) }
        self.pairs = pairs
    }

    /// Reads a stream id.
    /// - Parameter text: the stream id the caller sent.
    /// - Throws: ``SRTError/rejected(_:)`` with ``SRTRejectionReason/badRequest`` when the `#!::` syntax is broken
    ///   (a pair without `=`, an empty key, a key given twice, an unknown mode) — what a listener answers such a caller.
    public init(parsing text: String) throws(SRTError) {
        resource = nil
        mode = nil
        user = nil
        session = nil
        pairs = []
        isBare = !text.hasPrefix("#!::")
        guard !isBare else {
            resource = text
            pairs = [("r", text)]
            return
        }
        var seen = Set<String>()
        for item in text.dropFirst(4).split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = item.firstIndex(of: "=") else { throw .rejected(.badRequest) }
            let key = String(item[..<equals]), value = String(item[item.index(after: equals)...])
            guard !key.isEmpty, seen.insert(key).inserted else { throw .rejected(.badRequest) }
            pairs.append((key, value))
            switch key {
            case "r": resource = value
            case "u": user = value
            case "s": session = value
            case "m":
                guard let parsed = Mode(rawValue: value) else { throw .rejected(.badMode) }
                mode = parsed
            default: break
            }
        }
    }

    /// The value of a key, standard or not.
    /// - Parameter key: for example `"h"` or an application's own key.
    /// - Returns: the value, or `nil` when the key is absent.
    public func value(of key: String) -> String? { pairs.first { $0.key == key }?.value }

    /// The stream id as sent: `#!::r=…,m=…` (or the bare resource when it was given bare).
    public var description: String {
        if isBare, let resource { return resource }
        return "#!::" + pairs.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    /// Two stream ids are equal when they are written the same.
    public static func == (lhs: SRTStreamID, rhs: SRTStreamID) -> Bool { lhs.description == rhs.description }
    /// Hashes the written form.
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
