/// What an SRT connection is set up with: the socket options both sides agree on in the handshake, with FFmpeg's
/// defaults.
///
/// SRT (draft-sharabayko-srt §3.2.1, the handshake extensions) negotiates the latency (the larger of the two sides'
/// wins), the encryption (a passphrase from which both derive the key; PBKDF2, AES-CTR) and carries the caller's
/// stream id to the listener.
public struct SRTOptions: Hashable, Sendable {
    /// How the socket finds its peer.
    public var mode: SRTMode
    /// The latency: how long the receiver holds a packet for retransmissions before it hands it on (libsrt's
    /// `SRTO_LATENCY`, both directions; default 120 ms).
    public var latency: Duration
    /// The passphrase the key is derived from (10 to 79 characters), or `nil` for no encryption.
    public var passphrase: String?
    /// The AES key length in bytes: 16, 24 or 32 (`pbkeylen`; default 16 when a passphrase is set).
    public var keyLength: Int
    /// The stream id a caller sends to the listener (at most 512 bytes), for example `#!::r=live/cam,m=publish`.
    public var streamID: String?
    /// How long a caller waits for the listener (rendezvous: both sides) before giving up (default 3 s).
    public var connectTimeout: Duration
    /// The bytes of one SRT data packet's payload: 1316 (seven MPEG-TS packets), at most 1456.
    public var payloadSize: Int
    /// How long closing a socket that has sent waits for the peer to acknowledge what is still in flight (FFmpeg's
    /// `linger`); zero closes at once.
    public var linger: Duration
    /// Whether the receiver holds each packet until its time (timestamp-based packet delivery, FFmpeg's `tsbpd`;
    /// on by default). Off, packets are handed on as soon as they are complete and in order, and a stream's last
    /// packets are not lost when the sender closes within the latency — for an ingest that records.
    public var timestampBasedDelivery: Bool

    /// Options with FFmpeg's defaults, unencrypted.
    /// - Parameters:
    ///   - mode: how the socket finds its peer.
    ///   - latency: the receiver's buffer time (120 ms).
    ///   - passphrase: the encryption passphrase, or `nil`.
    ///   - keyLength: 16, 24 or 32.
    ///   - streamID: what a caller tells the listener it wants.
    ///   - connectTimeout: how long to wait for the peer.
    ///   - payloadSize: bytes per packet (1316).
    ///   - linger: how long closing waits for the peer's acknowledgements (2 s).
    ///   - timestampBasedDelivery: whether the receiver holds packets until their time (on).
    public init(mode: SRTMode = .caller, latency: Duration = .milliseconds(120), passphrase: String? = nil,
                keyLength: Int = 16, streamID: String? = nil, connectTimeout: Duration = .seconds(3),
                payloadSize: Int = 1316, linger: Duration = .seconds(2), timestampBasedDelivery: Bool = true) {
        self.mode = mode
        self.latency = latency
        self.passphrase = passphrase
        self.keyLength = keyLength
        self.streamID = streamID
        self.connectTimeout = connectTimeout
        self.payloadSize = payloadSize
        self.linger = linger
        self.timestampBasedDelivery = timestampBasedDelivery
    }

    /// Checks the values against what libsrt accepts, so that a mistake is named before any socket exists.
    /// - Throws: ``SRTError/invalidOption(name:reason:)`` naming the first bad option.
    public func validate() throws(SRTError) {
        if let passphrase, !(10...79).contains(passphrase.utf8.count) {
            throw .invalidOption(name: "passphrase", reason: "must be 10 to 79 characters long, not \(passphrase.utf8.count)")
        }
        guard [16, 24, 32].contains(keyLength) else {
            throw .invalidOption(name: "pbkeylen", reason: "must be 16, 24 or 32 bytes, not \(keyLength)")
        }
        if let streamID, streamID.utf8.count > 512 {
            throw .invalidOption(name: "streamid", reason: "is \(streamID.utf8.count) bytes long; SRT carries at most 512")
        }
        guard (1...1456).contains(payloadSize) else {
            throw .invalidOption(name: "payload_size", reason: "must be 1 to 1456 bytes, not \(payloadSize)")
        }
        guard latency >= .zero, latency <= .seconds(60) else {
            throw .invalidOption(name: "latency", reason: "must be between 0 and 60 s")
        }
        guard connectTimeout > .zero else { throw .invalidOption(name: "connect_timeout", reason: "must be positive") }
        guard linger >= .zero else { throw .invalidOption(name: "linger", reason: "must not be negative") }
    }
}
