/// One media section of a WebRTC offer, as JSEP (RFC 8829 §5.8) and the browsers write it: what the answerer needs.
public struct WebRTCMediaOffer: Hashable, Sendable {
    /// `audio`, `video` or `application`.
    public var kind: String
    /// The transport protocol (`UDP/TLS/RTP/SAVPF`).
    public var transportProtocol: String
    /// `a=mid` (RFC 9143 §3): its identification within BUNDLE.
    public var mid: String?
    /// The offerer's direction: `sendrecv` (the default), `sendonly`, `recvonly` or `inactive` (RFC 8866 §6.7).
    public var direction: String
    /// `a=ice-ufrag` (here or at session level).
    public var iceUserFragment: String?
    /// `a=ice-pwd` (here or at session level).
    public var icePassword: String?
    /// `a=fingerprint` (RFC 8122 §5): hash function and value, `sha-256 AB:CD:…`.
    public var fingerprint: String?
    /// `a=setup` (RFC 4145 §4): `actpass` in an offer.
    public var setup: String?
    /// Whether `a=rtcp-mux` is present (RFC 5761).
    public var rtcpMux: Bool
    /// Whether `a=rtcp-rsize` is present (RFC 5506).
    public var rtcpReducedSize: Bool
    /// The candidates (`a=candidate`).
    public var candidates: [WebRTCCandidate]
    /// The header extensions offered (`a=extmap`: id and URI, RFC 8285 §8).
    public var headerExtensions: [Int: String]
    /// The codecs, in the order of the `m=` line (the offerer's preference).
    public var codecs: [WebRTCCodec]

    /// A media section with no attributes yet.
    /// - Parameters:
    ///   - kind: `audio` or `video`.
    ///   - transportProtocol: the protocol.
    public init(kind: String, transportProtocol: String = "UDP/TLS/RTP/SAVPF") {
        self.kind = kind
        self.transportProtocol = transportProtocol
        direction = "sendrecv"
        rtcpMux = false
        rtcpReducedSize = false
        candidates = []
        headerExtensions = [:]
        codecs = []
    }

    /// The codec of a payload type.
    /// - Parameter payloadType: the payload type.
    /// - Returns: the codec, or `nil`.
    public func codec(_ payloadType: UInt8) -> WebRTCCodec? {
        codecs.first { $0.payloadType == payloadType }
    }

    /// The `rtx` payload type that repairs `payloadType`, if offered.
    /// - Parameter payloadType: the media payload type.
    /// - Returns: the rtx payload type.
    public func retransmissionPayloadType(for payloadType: UInt8) -> UInt8? {
        codecs.first { $0.associatedPayloadType == payloadType }?.payloadType
    }

}
