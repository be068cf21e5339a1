import Containers

/// The information object of `onStatus`, `_result` and `_error` (Adobe RTMP specification 1.0 §7.2.1.1, §7.2.2):
/// level, code and description.
public struct RTMPStatus: Sendable, Hashable {
    /// `status`, `warning` or `error`.
    public var level: String
    /// For example `NetConnection.Connect.Success`, `NetStream.Publish.Start`, `NetStream.Publish.BadName`.
    public var code: String
    /// Free text.
    public var description: String

    /// A status.
    /// - Parameters:
    ///   - level: `status`, `warning` or `error`.
    ///   - code: the code.
    ///   - description: free text.
    public init(level: String, code: String, description: String = "") {
        self.level = level
        self.code = code
        self.description = description
    }

    /// Reads a status from an information object; `nil` when it has no `code` string.
    /// - Parameter object: the information object.
    public init?(_ object: AMF0Object) {
        guard let code = object["code"]?.string else { return nil }
        self.code = code
        level = object["level"]?.string ?? "status"
        description = object["description"]?.string ?? ""
    }

    /// Whether the level is `error`.
    public var isError: Bool { level == "error" }

    /// The information object to send.
    public var object: AMF0Object {
        ["level": .string(level), "code": .string(code), "description": .string(description)]
    }
}
