/// An `srt://HOST:PORT?option=value&…` URL, read with FFmpeg's option names and units so that a URL works the same
/// in `ffmpeg` and in StreamKit.
///
/// Options (FFmpeg's `libsrt` protocol): `mode` (`caller`, `listener`, `rendezvous`), `latency` (microseconds),
/// `passphrase`, `pbkeylen` (16, 24, 32), `streamid` (also `srt_streamid`), `connect_timeout` (milliseconds),
/// `payload_size` or `pkt_size` (bytes), `linger` (seconds), `tsbpd` (0 or 1). Values may be percent-encoded (a stream id's `#!::`
/// as `%23%21%3A%3A`). Options FFmpeg has and StreamKit does not use are kept in ``ignoredOptions`` so a caller can
/// say so; an option nobody knows is an error.
public struct SRTURL: Hashable, Sendable, CustomStringConvertible {
    /// The host: an IPv4 or IPv6 address or a name; empty for a listener on every address.
    public var host: String
    /// The UDP port.
    public var port: UInt16
    /// The options from the query, over FFmpeg's defaults.
    public var options: SRTOptions
    /// FFmpeg options in the URL that StreamKit accepts but does not use (for example `maxbw`, `tlpktdrop`).
    public var ignoredOptions: [String]

    /// FFmpeg's `libsrt` options that change nothing here.
    private static let ignorable: Set<String> = [
        "maxbw", "oheadbw", "inputbw", "tlpktdrop", "nakreport", "rcvbuf", "sndbuf", "transtype", "smoother",
        "messageapi", "timeout", "listen_timeout", "send_buffer_size", "recv_buffer_size", "ipttl", "iptos",
        "tsbpddelay", "enforced_encryption", "kmrefreshrate", "kmpreannounce", "snddropdelay", "lossmaxttl",
        "minversion", "ffs", "rcvlatency", "peerlatency",
    ]

    /// Reads a URL.
    /// - Parameter string: `srt://HOST:PORT` with an optional query; `srt://:PORT` listens on every address.
    /// - Throws: ``SRTError/invalidURL(_:reason:)`` naming the bad part, or ``SRTError/invalidOption(name:reason:)``.
    public init(_ string: String) throws(SRTError) {
        guard string.lowercased().hasPrefix("srt://") else { throw .invalidURL(string, reason: "it does not start with srt://") }
        let rest = string.dropFirst("srt://".count)
        let authority: Substring
        let query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            authority = rest[..<mark]
            query = rest[rest.index(after: mark)...]
        } else {
            authority = rest
            query = nil
        }
        var hostPart: Substring
        let portPart: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL(string, reason: "an IPv6 address lacks its ]") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.hasPrefix(":") else { throw .invalidURL(string, reason: "no port after the address") }
            portPart = after.dropFirst()
        } else {
            guard let colon = authority.lastIndex(of: ":") else { throw .invalidURL(string, reason: "no port (srt://HOST:PORT)") }
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        if hostPart.hasSuffix("/") { hostPart = hostPart.dropLast() }
        let trimmedPort = portPart.hasSuffix("/") ? portPart.dropLast() : portPart
        guard let port = UInt16(trimmedPort), port > 0 else {
            throw .invalidURL(string, reason: "the port \"\(trimmedPort)\" is not a number from 1 to 65535")
        }
        self.host = String(hostPart)
        self.port = port
        self.options = SRTOptions(mode: hostPart.isEmpty ? .listener : .caller)
        self.ignoredOptions = []
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let name: String, rawValue: Substring
            if let equals = pair.firstIndex(of: "=") {
                name = String(pair[..<equals]).lowercased()
                rawValue = pair[pair.index(after: equals)...]
            } else {
                name = String(pair).lowercased()
                rawValue = ""
            }
            guard let value = Self.percentDecoded(rawValue) else {
                throw .invalidURL(string, reason: "option \(name) has a bad percent escape")
            }
            try apply(name: name, value: value, url: string)
        }
        if options.mode != .listener && host.isEmpty {
            throw .invalidURL(string, reason: "a \(options.mode.rawValue) needs a host")
        }
        try options.validate()
    }

    /// Sets one option from the query.
    private mutating func apply(name: String, value: String, url: String) throws(SRTError) {
        func integer() throws(SRTError) -> Int {
            guard let number = Int(value), number >= 0 else { throw .invalidOption(name: name, reason: "\"\(value)\" is not a number") }
            return number
        }
        switch name {
        case "mode":
            guard let mode = SRTMode(rawValue: value.lowercased()) else {
                throw .invalidOption(name: name, reason: "\"\(value)\" is not caller, listener or rendezvous")
            }
            options.mode = mode
        case "latency": options.latency = .microseconds(try integer())
        case "passphrase": options.passphrase = value.isEmpty ? nil : value
        case "pbkeylen": options.keyLength = try integer()
        case "streamid", "srt_streamid": options.streamID = value.isEmpty ? nil : value
        case "connect_timeout": options.connectTimeout = .milliseconds(try integer())
        case "payload_size", "pkt_size": options.payloadSize = try integer()
        case "linger": options.linger = .seconds(try integer())
        case "tsbpd":
            guard value == "0" || value == "1" else { throw .invalidOption(name: name, reason: "must be 0 or 1, not \"\(value)\"") }
            options.timestampBasedDelivery = value == "1"
        default:
            guard Self.ignorable.contains(name) else { throw .invalidURL(url, reason: "unknown option \(name)") }
            ignoredOptions.append(name)
        }
    }

    /// `%XX` escapes decoded (RFC 3986 §2.1); `nil` for a broken escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The URL without its secrets, for logs: `srt://127.0.0.1:9000?mode=caller&streamid=…` (no passphrase).
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        var text = "srt://\(shownHost):\(port)?mode=\(options.mode.rawValue)"
        if let streamID = options.streamID { text += "&streamid=\(streamID)" }
        if options.passphrase != nil { text += "&passphrase=…" }
        return text
    }
}
