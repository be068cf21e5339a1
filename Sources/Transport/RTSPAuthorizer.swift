import Foundation

/// Answers a server's `WWW-Authenticate` challenge: RFC 2617 §2 Basic, or RFC 2617 §3 / RFC 7616 Digest
/// with MD5 (what cameras and RTSP servers use), `qop=auth` when offered, else the RFC 2069 form.
struct RTSPAuthorizer: Sendable {
    private enum Scheme: Sendable {
        case basic
        case digest(realm: String, nonce: String, opaque: String?, qop: Bool)
    }

    private let scheme: Scheme
    private let credentials: RTSPCredentials
    private let clientNonce: String

    /// Picks the strongest challenge it can answer (Digest MD5 before Basic).
    /// - Parameters:
    ///   - challenges: the `WWW-Authenticate` values.
    ///   - credentials: the user and password.
    /// - Returns: `nil` when no challenge has a scheme it answers.
    init?(challenges: [String], credentials: RTSPCredentials) {
        self.credentials = credentials
        clientNonce = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        var basic = false
        for challenge in challenges {
            let trimmed = challenge.trimmingSpaces()
            let lowered = trimmed.lowercased()
            if lowered.hasPrefix("digest") {
                let parameters = Self.parameters(of: String(trimmed.dropFirst("digest".count)))
                let algorithm = parameters["algorithm"]?.lowercased() ?? "md5"
                guard algorithm == "md5", let realm = parameters["realm"], let nonce = parameters["nonce"] else { continue }
                let qop = parameters["qop"].map { $0.lowercased().split(separator: ",").contains { $0.trimmingSpaces() == "auth" } } ?? false
                scheme = .digest(realm: realm, nonce: nonce, opaque: parameters["opaque"], qop: qop)
                return
            }
            if lowered.hasPrefix("basic") { basic = true }
        }
        guard basic else { return nil }
        scheme = .basic
    }

    /// The `Authorization` value for one request.
    /// - Parameters:
    ///   - method: the request's method.
    ///   - uri: the URL the request names.
    /// - Returns: the header value.
    func authorization(method: String, uri: String) -> String {
        switch scheme {
        case .basic:
            return "Basic " + Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
        case let .digest(realm, nonce, opaque, qop):
            let ha1 = MD5.hex(of: "\(credentials.user):\(realm):\(credentials.password)")
            let ha2 = MD5.hex(of: "\(method):\(uri)")
            var value = "Digest username=\"\(credentials.user)\", realm=\"\(realm)\", nonce=\"\(nonce)\", uri=\"\(uri)\""
            if qop {
                let count = "00000001"
                let response = MD5.hex(of: "\(ha1):\(nonce):\(count):\(clientNonce):auth:\(ha2)")
                value += ", qop=auth, nc=\(count), cnonce=\"\(clientNonce)\", response=\"\(response)\""
            } else {
                value += ", response=\"\(MD5.hex(of: "\(ha1):\(nonce):\(ha2)"))\""
            }
            if let opaque { value += ", opaque=\"\(opaque)\"" }
            return value + ", algorithm=MD5"
        }
    }

    /// The `name=value` / `name="value"` pairs of a challenge (RFC 2617 §1.2), names lowercased.
    private static func parameters(of text: String) -> [String: String] {
        var result: [String: String] = [:]
        var characters = Substring(text)
        while !characters.isEmpty {
            characters = characters.drop { $0 == " " || $0 == "," || $0 == "\t" }
            guard let equals = characters.firstIndex(of: "=") else { break }
            let name = characters[..<equals].trimmingSpaces().lowercased()
            characters = characters[characters.index(after: equals)...]
            var value = ""
            if characters.first == "\"" {
                characters = characters.dropFirst()
                while let character = characters.first, character != "\"" {
                    characters = characters.dropFirst()
                    if character == "\\", let escaped = characters.first {
                        value.append(escaped)
                        characters = characters.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                characters = characters.dropFirst()
            } else {
                let end = characters.firstIndex(of: ",") ?? characters.endIndex
                value = characters[..<end].trimmingSpaces()
                characters = characters[end...]
            }
            result[name] = value
        }
        return result
    }
}

extension Substring {
    /// The text without spaces and tabs at either end.
    func trimmingSpaces() -> String { String(self).trimmingSpaces() }
}
