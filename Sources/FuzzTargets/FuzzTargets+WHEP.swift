import Bitstream
import HTTPMessages
import POSIX
import RTP
import Transport

extension FuzzTargets {
    /// RTCP feedback to a media sender (RFC 4585 §6, RFC 5104 §4.3.1): the input as one SRTCP-unprotected datagram is
    /// gathered into ``RTCPFeedbackRequests`` (PLI, FIR, generic NACK) within its bounds, and read as a FIR body; the
    /// input as an RTP packet is kept in a send history and wrapped as an RFC 4588 retransmission, which must keep
    /// the original sequence number and payload.
    static func rtcpFeedback(_ bytes: [UInt8]) {
        if let requests = try? RTCPFeedbackRequests(parsing: ByteView(bytes)) {
            for numbers in requests.lostSequenceNumbers.values {
                precondition(numbers.count <= RTCPFeedbackRequests.maximumLostPerSource, "RTCP feedback: too many NACKed numbers kept")
                precondition(Set(numbers).count == numbers.count, "RTCP feedback: a NACKed number repeated")
            }
            for ssrc in requests.fullIntraRequests.keys {
                precondition(requests.keyFrameSSRCs.contains(ssrc), "RTCP feedback: a FIR not counted as a key-frame request")
            }
        }
        if let request = try? RTCPFullIntraRequest(body: ByteView(bytes), offset: 0) {
            precondition(request.entries.count <= RTCPFullIntraRequest.maximumEntryCount, "FIR: too many entries")
            if let written = try? request.serialized() {
                guard let reread = try? RTCPFeedbackRequests(parsing: ByteView(written)) else { preconditionFailure("FIR: ours does not parse") }
                precondition(Set(request.entries.map(\.ssrc)).isSubset(of: reread.keyFrameSSRCs), "FIR: entries lost on the way through")
            }
        }
        var history = RTPSendHistory(capacity: 4, maximumPacketSize: 2048)
        bytes.withUnsafeBytes { history.record($0) }
        guard bytes.count >= 12, bytes.count <= 2048 else { return }
        let number = UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        precondition(history.packet(number) == bytes, "send history: the packet kept is not the one recorded")
        if let header = RTPRetransmission.headerLength(of: bytes),
           let repair = RTPRetransmission.packet(repairing: bytes, payloadType: 97, ssrc: 0x1234_5678, sequenceNumber: 7) {
            precondition(repair.count >= header + 2 && repair[header] == bytes[2] && repair[header + 1] == bytes[3],
                         "rtx: the original sequence number is not first in the payload")
            precondition(repair[1] & 0x7F == 97 && repair[2] == 0 && repair[3] == 7, "rtx: header fields not replaced")
        }
    }

    /// The event loop and certificate of the WHEP fuzz entry (made once; `nil` without OpenSSL).
    private static let whepPeer: (loop: EventLoop, certificate: DTLSCertificate)? = {
        guard let certificate = try? DTLSCertificate(), let loop = try? EventLoop() else { return nil }
        return (loop, certificate)
    }()

    /// The WHEP request path: the input as an HTTP request stream; each request goes to a ``WHEPEndpoint`` (POST with an
    /// offer, DELETE, PATCH, whatever the method and path) and must get a response in the set WHEP uses; a session
    /// made from a hostile offer is closed at once. Without OpenSSL the requests are still parsed and routed.
    static func whep(_ bytes: [UInt8]) {
        var parser = HTTPRequestParser(limits: HTTPMessageLimits(maximumStartLineLength: 512, maximumHeaderCount: 16,
                                                                 maximumHeaderSectionLength: 2048, maximumBodyLength: 16_384))
        parser.append(bytes)
        var requests: [HTTPRequest] = []
        while requests.count < 4, let request = try? parser.next() { requests.append(request) }
        let route = HTTPRoute(.post, "/live/whep") { _ in HTTPResponse(status: .ok) }
        guard let peer = whepPeer else {
            for request in requests { _ = route.remainder(of: request.path) }
            return
        }
        let endpoint = WHEPEndpoint(path: "/live/whep", mediaAddress: .loopback(.ipv4, port: 0), on: peer.loop,
                                    certificate: peer.certificate, sendingSSRCs: [.video: 1, .audio: 2],
                                    retransmissionSSRCs: [.video: 3]) { $0.close() }
        for request in requests {
            guard let rest = route.remainder(of: request.path) else { continue }
            let response = endpoint.respond(to: HTTPServerRequest(request: request, peer: .loopback(.ipv4, port: 9), remainingPath: rest))
            precondition([201, 200, 400, 404, 405, 415, 500, 503].contains(response.status.code),
                          "WHEP: unexpected status \(response.status.code)")
            if response.status.code == 201 {
                precondition(response.headers["Location"]?.hasPrefix("/live/whep/") == true, "WHEP: 201 without a Location")
                precondition((try? SessionDescription(parsing: response.body)) != nil, "WHEP: our answer does not parse")
            }
        }
        endpoint.closeAll()
    }
}
