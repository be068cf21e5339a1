/// Why an SRT connection was refused: the code carried in the handshake's rejection (libsrt's `SRT_REJ_*` below
/// 1000, the stream-id access-control codes of `access_control.h` from 1000, an application's own from 2000).
public struct SRTRejectionReason: Hashable, Sendable, CustomStringConvertible {
    /// The code as SRT carries it.
    public let code: Int

    /// A reason from its code.
    /// - Parameter code: libsrt's rejection code.
    public init(code: Int) { self.code = code }

    /// The passphrase did not match (`SRT_REJ_BADSECRET`).
    public static let badSecret = SRTRejectionReason(code: 10)
    /// One side wants encryption and the other has none, or their key lengths differ (`SRT_REJ_UNSECURE`).
    public static let unsecure = SRTRejectionReason(code: 11)
    /// The connection timed out before the handshake ended (`SRT_REJ_TIMEOUT`).
    public static let timeout = SRTRejectionReason(code: 16)
    /// Access denied to the resource (the access-control code 1403, "forbidden").
    public static let forbidden = SRTRejectionReason(code: 1403)
    /// The resource is not there (the access-control code 1404).
    public static let notFound = SRTRejectionReason(code: 1404)
    /// The stream id's `m=` mode is not served (the access-control code 1405).
    public static let badMode = SRTRejectionReason(code: 1405)
    /// The resource is already being published (the access-control code 1409, "conflict").
    public static let conflict = SRTRejectionReason(code: 1409)
    /// Authentication failed (the access-control code 1401).
    public static let unauthorized = SRTRejectionReason(code: 1401)
    /// The stream id could not be read (the access-control code 1400).
    public static let badRequest = SRTRejectionReason(code: 1400)

    /// What the code means, for example `wrong passphrase (SRT_REJ_BADSECRET)` or `forbidden (access control 1403)`.
    public var description: String {
        if let name = Self.libraryNames[code] { return name }
        if let name = Self.accessControlNames[code] { return "\(name) (access control \(code))" }
        if code >= 2000 { return "refused by the application (code \(code))" }
        return "rejection code \(code)"
    }

    /// libsrt's `SRT_REJ_*` (srt.h, `SRT_REJECT_REASON`), in its order.
    private static let libraryNames: [Int: String] = [
        0: "unknown reason (SRT_REJ_UNKNOWN)", 1: "system error (SRT_REJ_SYSTEM)", 2: "the peer refused (SRT_REJ_PEER)",
        3: "resource allocation failed (SRT_REJ_RESOURCE)", 4: "the handshake was rogue (SRT_REJ_ROGUE)",
        5: "the listener's backlog is full (SRT_REJ_BACKLOG)", 6: "internal program error (SRT_REJ_IPE)",
        7: "the socket was closed during the handshake (SRT_REJ_CLOSE)",
        8: "the peer's SRT version is too old (SRT_REJ_VERSION)",
        9: "rendezvous cookie collision (SRT_REJ_RDVCOOKIE)", 10: "wrong passphrase (SRT_REJ_BADSECRET)",
        11: "one side without encryption, or different key lengths (SRT_REJ_UNSECURE)",
        12: "the message API does not match (SRT_REJ_MESSAGEAPI)", 13: "congestion control does not match (SRT_REJ_CONGESTION)",
        14: "packet filter does not match (SRT_REJ_FILTER)", 15: "group settings do not match (SRT_REJ_GROUP)",
        16: "the connection timed out (SRT_REJ_TIMEOUT)", 17: "crypto setup failed (SRT_REJ_CRYPTO)",
    ]

    /// The access-control codes of SRT's stream-id convention (`access_control.h`), after HTTP's.
    private static let accessControlNames: [Int: String] = [
        1000: "refused", 1001: "stream id key not supported", 1002: "bad file path", 1003: "host not found",
        1400: "bad request", 1401: "unauthorized", 1402: "overloaded", 1403: "forbidden", 1404: "not found",
        1405: "mode not supported", 1406: "unacceptable parameters", 1409: "conflict: already published",
        1415: "media type not supported", 1423: "locked", 1424: "failed dependency", 1500: "internal server error",
        1501: "not implemented", 1502: "gateway error", 1503: "service down", 1505: "SRT version not supported",
        1507: "no room",
    ]
}
