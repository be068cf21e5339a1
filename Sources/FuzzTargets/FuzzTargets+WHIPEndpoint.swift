import Bitstream
import HTTPMessages
import POSIX
import RTP
import Transport

extension FuzzTargets {
    /// The event loop and certificate of the WHIP fuzz entry (made once; `nil` without OpenSSL).
    private static let whipPeer: (loop: EventLoop, certificate: DTLSCertificate)? = {
        guard let certificate = try? DTLSCertificate(), let loop = try? EventLoop() else { return nil }
        return (loop, certificate)
    }()

    /// The WHIP request path (RFC 9725 §4): the input as an HTTP request stream; each request goes to a
    /// ``WHIPEndpoint`` with a bearer token (POST with an offer, DELETE, PATCH, whatever the method, path and
    /// `Authorization`) and must get a response in the set WHIP uses — 401 always with `WWW-Authenticate`, 201 always
    /// with a `Location` and an answer that parses, receives and takes a DTLS role (`a=setup:active` or `passive`); a session made from a hostile offer is closed at once.
    /// Without OpenSSL the requests are still parsed and routed.
    static func whip(_ bytes: [UInt8]) {
        var parser = HTTPRequestParser(limits: HTTPMessageLimits(maximumStartLineLength: 512, maximumHeaderCount: 16,
                                                                 maximumHeaderSectionLength: 2048, maximumBodyLength: 16_384))
        parser.append(bytes)
        var requests: [HTTPRequest] = []
        while requests.count < 4, let request = try? parser.next() { requests.append(request) }
        let route = HTTPRoute(.post, "/live/whip") { _ in HTTPResponse(status: .ok) }
        guard let peer = whipPeer else {
            for request in requests { _ = route.remainder(of: request.path) }
            return
        }
        let token = bytes.first.map { $0 & 1 == 0 ? "t" : nil } ?? nil
        let endpoint = WHIPEndpoint(path: "/live/whip", mediaAddress: .loopback(.ipv4, port: 0), on: peer.loop, certificate: peer.certificate,
                                    token: token, maximumSessions: 2) { _ in }
        for request in requests {
            guard let rest = route.remainder(of: request.path) else { continue }
            let response = endpoint.respond(to: HTTPServerRequest(request: request, peer: .loopback(.ipv4, port: 9), remainingPath: rest))
            precondition([201, 200, 400, 401, 404, 405, 415, 500, 503].contains(response.status.code), "WHIP: unexpected status \(response.status.code)")
            if response.status.code == 401 { precondition(response.headers["WWW-Authenticate"] == "Bearer", "WHIP: 401 without a challenge") }
            if response.status.code == 201 {
                precondition(response.headers["Location"]?.hasPrefix("/live/whip/") == true, "WHIP: 201 without a Location")
                guard let answer = try? WebRTCOffer(parsing: String(decoding: response.body, as: UTF8.self)) else {
                    preconditionFailure("WHIP: our answer does not parse")
                }
                precondition(answer.media.contains { $0.direction == "recvonly" || $0.direction == "sendrecv" }, "WHIP: 201 for an answer that receives nothing")
                precondition(answer.media.filter { !$0.candidates.isEmpty }.allSatisfy { $0.setup == "active" || $0.setup == "passive" },
                             "WHIP: an accepted section without a DTLS role (a=setup active or passive)")
            }
        }
        endpoint.closeAll()
    }
}
