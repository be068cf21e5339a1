import SRTP
#if OpenSSL
import COpenSSL
#endif

/// What feeding a datagram to a ``DTLSEngine`` produced.
public enum DTLSEvent: Sendable, Equatable {
    /// The handshake finished, the peer's certificate matched the fingerprint, and these are the SRTP keys.
    case handshakeComplete(DTLSSRTPKeys)
    /// Application data from the peer (after the handshake; WebRTC data channels carry SCTP this way).
    case applicationData([UInt8])
    /// The peer sent close_notify.
    case closed
}

/// One DTLS 1.2 session for DTLS-SRTP (RFC 6347, RFC 5764, RFC 5763) whose records go through memory BIOs instead of
/// a socket, datagram by datagram: the caller hands each UDP datagram that arrives to ``feed(_:)``, sends what
/// ``takeOutgoingDatagrams()`` returns, and calls ``handleTimeout()`` when ``retransmissionTimeout`` has passed
/// (RFC 6347 §4.2.4: lost flights are resent on a timer).
///
/// The peer is authenticated by the fingerprint of its certificate from the remote SDP, not by a CA: a
/// certificate that hashes to anything else fails the handshake with ``DTLSError/fingerprintMismatch(expected:actual:)``.
/// The use_srtp extension offers AEAD_AES_128_GCM and AES128_CM_SHA1_80 (RFC 7714 §14.2, RFC 5764 §4.1.2); once the
/// handshake completes, ``srtpKeys`` holds the keys exported with the label `EXTRACTOR-dtls_srtp` (RFC 5764 §4.2).
/// Not thread-safe: call it from one thread (the event loop of its socket).
public final class DTLSEngine: @unchecked Sendable {
    /// Our role.
    public let role: DTLSRole
    /// The fingerprint the peer's certificate must have.
    public let remoteFingerprint: DTLSFingerprint
    /// The keys, once the handshake is complete.
    public private(set) var srtpKeys: DTLSSRTPKeys?
    /// The error the session failed with; every later call throws it again.
    public private(set) var failure: DTLSError?
    /// The largest datagram ``takeOutgoingDatagrams()`` returns (records are packed into datagrams up to this size).
    public let maximumDatagramSize: Int

    /// Whether the handshake is complete (and the fingerprint checked).
    public var isHandshakeComplete: Bool { srtpKeys != nil }

    private var outgoing: [[UInt8]] = []

    #if OpenSSL
    private let context: OpaquePointer
    private let ssl: OpaquePointer
    private let readBIO: OpaquePointer
    private let writeBIO: OpaquePointer
    private let certificate: DTLSCertificate
    private let check: FingerprintCheck
    private let profiles: [SRTPProtectionProfile]
    #endif

    /// Sets up a session.
    /// - Parameters:
    ///   - role: ``DTLSRole/client`` (sends the ClientHello in ``start()``) or ``DTLSRole/server``.
    ///   - certificate: our certificate (its fingerprint is in our SDP).
    ///   - remoteFingerprint: the fingerprint from the peer's SDP.
    ///   - profiles: the SRTP profiles to offer, in order of preference.
    ///   - maximumDatagramSize: the path MTU for DTLS records (1200 keeps under any tunnel, as browsers do).
    /// - Throws: ``DTLSError/setupFailed(reason:)``; ``DTLSError/unavailable`` without OpenSSL.
    public init(role: DTLSRole, certificate: DTLSCertificate, remoteFingerprint: DTLSFingerprint,
                profiles: [SRTPProtectionProfile] = [.aeadAES128GCM, .aes128CounterModeHMACSHA1_80],
                maximumDatagramSize: Int = 1200) throws(DTLSError)
    {
        self.role = role
        self.remoteFingerprint = remoteFingerprint
        self.maximumDatagramSize = max(256, maximumDatagramSize)
        #if OpenSSL
        guard !profiles.isEmpty else { throw .setupFailed(reason: "no SRTP profile to offer") }
        ERR_clear_error()
        guard let context = SSL_CTX_new(DTLS_method()) else { throw .setupFailed(reason: OpenSSLErrors.text()) }
        let configured = streamkit_ssl_ctx_set_dtls12(context) == 1
            && SSL_CTX_use_certificate(context, certificate.certificate) == 1
            && SSL_CTX_use_PrivateKey(context, certificate.privateKey) == 1
            && SSL_CTX_check_private_key(context) == 1
            && SSL_CTX_set_tlsext_use_srtp(context, profiles.map(\.dtlsName).joined(separator: ":")) == 0
            && streamkit_ssl_ctx_set_ecdh_auto(context) == 1
        guard configured else {
            let reason = OpenSSLErrors.text()
            SSL_CTX_free(context)
            throw .setupFailed(reason: reason)
        }
        _ = SSL_CTX_set_options(context, streamkit_ssl_op_no_query_mtu())
        SSL_CTX_set_verify(context, streamkit_ssl_verify_peer_required(), dtlsVerifyFingerprint)
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw .setupFailed(reason: OpenSSLErrors.text())
        }
        guard let readBIO = BIO_new(BIO_s_mem()), let writeBIO = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            SSL_CTX_free(context)
            throw .setupFailed(reason: "cannot allocate memory BIOs")
        }
        _ = streamkit_bio_set_eof_on_empty(readBIO)
        _ = streamkit_bio_set_eof_on_empty(writeBIO)
        SSL_set_bio(ssl, readBIO, writeBIO)  // the session owns both now
        _ = streamkit_dtls_set_link_mtu(ssl, self.maximumDatagramSize)
        switch role {
        case .client: SSL_set_connect_state(ssl)
        case .server: SSL_set_accept_state(ssl)
        }
        let check = FingerprintCheck(expected: remoteFingerprint)
        SSL_set_ex_data(ssl, 0, Unmanaged.passUnretained(check).toOpaque())
        self.context = context
        self.ssl = ssl
        self.readBIO = readBIO
        self.writeBIO = writeBIO
        self.certificate = certificate
        self.check = check
        self.profiles = profiles
        #else
        throw .unavailable
        #endif
    }

    #if OpenSSL
    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }
    #endif

    /// Starts the handshake: the client's first flight (ClientHello) is queued for ``takeOutgoingDatagrams()``; a
    /// server waits for it.
    /// - Throws: ``DTLSError/handshakeFailed(reason:)``.
    public func start() throws(DTLSError) {
        if let failure { throw failure }
        #if OpenSSL
        if role == .client { _ = try stepHandshake() }
        #else
        throw .unavailable
        #endif
    }

    /// Starts the handshake (``start()``) and returns what is to be sent: the client's first flight, nothing for a server.
    /// - Returns: the datagrams of the first flight (RFC 6347 §4.2.4), possibly none.
    /// - Throws: ``DTLSError/handshakeFailed(reason:)``.
    public func startHandshake() throws(DTLSError) -> [[UInt8]] {
        try start()
        return takeOutgoingDatagrams()
    }

    /// Hands one datagram from the peer to the session, and runs the handshake or reads the records it holds.
    /// Records that do not authenticate or parse are dropped, as RFC 6347 §4.1.2.7 asks.
    /// - Parameter datagram: the UDP payload (one or more DTLS records).
    /// - Returns: what happened, in order (often nothing).
    /// - Throws: ``DTLSError/fingerprintMismatch(expected:actual:)``, ``DTLSError/noPeerCertificate``,
    ///   ``DTLSError/noSRTPProfile``, ``DTLSError/handshakeFailed(reason:)``, ``DTLSError/keyExportFailed(reason:)``,
    ///   ``DTLSError/recordFailed(reason:)``; after one of them the session is dead.
    public func feed(_ datagram: [UInt8]) throws(DTLSError) -> [DTLSEvent] {
        if let failure { throw failure }
        #if OpenSSL
        guard !datagram.isEmpty else { return [] }
        _ = streamkit_bio_reset(readBIO)
        let written = datagram.withUnsafeBytes { BIO_write(readBIO, $0.baseAddress, Int32(clamping: $0.count)) }
        guard written == datagram.count else { return [] }
        var events: [DTLSEvent] = []
        if srtpKeys == nil {
            if let keys = try stepHandshake() { events.append(.handshakeComplete(keys)) }
        }
        if srtpKeys != nil { try readApplicationData(into: &events) }
        _ = streamkit_bio_reset(readBIO)  // whatever OpenSSL left of this datagram is not the start of the next
        return events
        #else
        throw .unavailable
        #endif
    }

    /// The datagrams to send to the peer since the last call: the records OpenSSL wrote, packed into datagrams of at
    /// most ``maximumDatagramSize`` bytes without splitting a record.
    /// - Returns: the datagrams, possibly none.
    public func takeOutgoingDatagrams() -> [[UInt8]] {
        #if OpenSSL
        drainWriteBIO()
        #endif
        defer { outgoing.removeAll() }
        return outgoing
    }

    /// How long until ``handleTimeout()`` must be called, or `nil` when no retransmission timer runs
    /// (`DTLSv1_get_timeout`).
    public var retransmissionTimeout: Duration? {
        #if OpenSSL
        guard failure == nil else { return nil }
        var seconds = 0, microseconds = 0
        guard streamkit_dtls_get_timeout(ssl, &seconds, &microseconds) == 1 else { return nil }
        return .seconds(seconds) + .microseconds(microseconds)
        #else
        return nil
        #endif
    }

    /// Retransmits the last flight if its timer has expired (`DTLSv1_handle_timeout`); the flight is then waiting in
    /// ``takeOutgoingDatagrams()``.
    /// - Returns: `true` when a flight was queued again.
    /// - Throws: ``DTLSError/handshakeTimedOut`` when OpenSSL gives up.
    @discardableResult
    public func handleTimeout() throws(DTLSError) -> Bool {
        if let failure { throw failure }
        #if OpenSSL
        ERR_clear_error()
        let result = streamkit_dtls_handle_timeout(ssl)
        if result < 0 {
            failure = .handshakeTimedOut
            throw .handshakeTimedOut
        }
        return result > 0
        #else
        throw .unavailable
        #endif
    }

    /// The retransmissions due now for a caller whose timer fires every `period`: while the handshake runs and its
    /// retransmission timer (RFC 6347 §4.2.4.1) is within `period` of expiring, ``handleTimeout()`` runs and the last
    /// flight comes again if the timer has expired; otherwise nothing.
    /// - Parameter period: how often the caller asks (a timer that expires before the next call is served now).
    /// - Returns: the datagrams to send, usually none.
    /// - Throws: ``DTLSError/handshakeTimedOut`` when OpenSSL gives up (the session is then dead).
    public func retransmissionsDue(within period: Duration) throws(DTLSError) -> [[UInt8]] {
        guard !isHandshakeComplete, let remaining = retransmissionTimeout, remaining <= period else { return [] }
        try handleTimeout()
        return takeOutgoingDatagrams()
    }

    /// Sends application data in one record (after the handshake).
    /// - Parameter bytes: at most one record's worth (below ``maximumDatagramSize`` less the record overhead).
    /// - Throws: ``DTLSError/recordFailed(reason:)``.
    public func send(_ bytes: [UInt8]) throws(DTLSError) {
        if let failure { throw failure }
        #if OpenSSL
        guard srtpKeys != nil else { throw .recordFailed(reason: "the handshake is not complete") }
        ERR_clear_error()
        let result = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32(clamping: $0.count)) }
        guard result == bytes.count else { throw .recordFailed(reason: OpenSSLErrors.text()) }
        #else
        throw .unavailable
        #endif
    }

    /// Queues close_notify (RFC 5246 §7.2.1) for ``takeOutgoingDatagrams()``.
    public func close() {
        #if OpenSSL
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        #endif
    }

    /// Keying material from the exporter (RFC 5705) under any label, once the handshake is complete.
    /// - Parameters:
    ///   - label: for example `EXTRACTOR-dtls_srtp`.
    ///   - length: bytes wanted.
    /// - Returns: the bytes.
    /// - Throws: ``DTLSError/keyExportFailed(reason:)``.
    public func exportKeyingMaterial(label: String, length: Int) throws(DTLSError) -> [UInt8] {
        #if OpenSSL
        var output = [UInt8](repeating: 0, count: length)
        ERR_clear_error()
        let ok = output.withUnsafeMutableBufferPointer { out in
            label.withCString { name in
                SSL_export_keying_material(ssl, out.baseAddress, out.count, name, strlen(name), nil, 0, 0)
            }
        }
        guard ok == 1 else { throw .keyExportFailed(reason: OpenSSLErrors.text()) }
        return output
        #else
        throw .unavailable
        #endif
    }

    #if OpenSSL
    /// One step of the handshake; on completion checks the certificate and exports the SRTP keys.
    private func stepHandshake() throws(DTLSError) -> DTLSSRTPKeys? {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        drainWriteBIO()  // a fatal alert goes out too
        if result == 1 { return try finishHandshake() }
        let error = SSL_get_error(ssl, result)
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return nil }
        let failure: DTLSError
        if let actual = check.mismatch {
            failure = .fingerprintMismatch(expected: remoteFingerprint, actual: actual)
        } else if check.sawNoCertificate {
            failure = .noPeerCertificate
        } else {
            failure = .handshakeFailed(reason: OpenSSLErrors.text())
        }
        self.failure = failure
        throw failure
    }

    private func finishHandshake() throws(DTLSError) -> DTLSSRTPKeys {
        do {
            guard let peer = SSL_get1_peer_certificate(ssl) else { throw DTLSError.noPeerCertificate }
            defer { X509_free(peer) }
            let actual = try DTLSCertificate.fingerprint(of: peer)
            guard actual == remoteFingerprint else {
                throw DTLSError.fingerprintMismatch(expected: remoteFingerprint, actual: actual)
            }
            guard let selected = SSL_get_selected_srtp_profile(ssl),
                  let profile = SRTPProtectionProfile(dtlsIdentifier: UInt16(truncatingIfNeeded: selected.pointee.id)),
                  profiles.contains(profile)
            else { throw DTLSError.noSRTPProfile }
            let exported = try exportKeyingMaterial(label: "EXTRACTOR-dtls_srtp",
                                                    length: 2 * (profile.keyLength + profile.saltLength))
            let keys: DTLSSRTPKeys
            do {
                keys = try DTLSSRTPKeys(exported: exported, profile: profile, role: role)
            } catch {
                throw DTLSError.keyExportFailed(reason: error.description)
            }
            srtpKeys = keys
            return keys
        } catch let error as DTLSError {
            failure = error
            // Tell the peer: a fatal alert, so it does not wait for media that will never come.
            _ = SSL_shutdown(ssl)
            drainWriteBIO()
            throw error
        } catch {
            failure = .handshakeFailed(reason: "\(error)")
            throw .handshakeFailed(reason: "\(error)")
        }
    }

    private func readApplicationData(into events: inout [DTLSEvent]) throws(DTLSError) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            ERR_clear_error()
            let result = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if result > 0 {
                events.append(.applicationData(Array(buffer.prefix(Int(result)))))
                continue
            }
            let error = SSL_get_error(ssl, result)
            drainWriteBIO()
            if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return }
            if error == SSL_ERROR_ZERO_RETURN {
                events.append(.closed)
                return
            }
            let failure = DTLSError.recordFailed(reason: OpenSSLErrors.text())
            self.failure = failure
            throw failure
        }
    }

    /// Moves what OpenSSL wrote into datagrams: records (13-byte header, length in bytes 11–12, RFC 6347 §4.1) packed
    /// up to the datagram size.
    private func drainWriteBIO() {
        let pending = streamkit_bio_pending(writeBIO)
        guard pending > 0 else { return }
        var bytes = [UInt8](repeating: 0, count: pending)
        let read = bytes.withUnsafeMutableBytes { BIO_read(writeBIO, $0.baseAddress, Int32(clamping: pending)) }
        guard read > 0 else { return }
        bytes.removeSubrange(Int(read)...)
        var datagram: [UInt8] = []
        var offset = 0
        while offset < bytes.count {
            var end = bytes.count
            if offset + 13 <= bytes.count {
                let length = Int(bytes[offset + 11]) << 8 | Int(bytes[offset + 12])
                end = min(bytes.count, offset + 13 + length)
            }
            if !datagram.isEmpty, datagram.count + (end - offset) > maximumDatagramSize {
                outgoing.append(datagram)
                datagram = []
            }
            datagram.append(contentsOf: bytes[offset..<end])
            offset = end
        }
        if !datagram.isEmpty { outgoing.append(datagram) }
    }
    #endif
}

#if OpenSSL
/// What the verify callback compares the peer's certificate with, and what it found.
final class FingerprintCheck {
    let expected: DTLSFingerprint
    var mismatch: DTLSFingerprint?
    var sawNoCertificate = false

    init(expected: DTLSFingerprint) { self.expected = expected }
}

/// OpenSSL's verify callback: the leaf (depth 0) is accepted when its SHA-256 fingerprint is the one from the SDP,
/// whatever its chain (self-signed is the norm, RFC 8827 §6.5); certificates above it are not judged.
private let dtlsVerifyFingerprint: @convention(c) (Int32, OpaquePointer?) -> Int32 = { _, store in
    guard let store else { return 0 }
    guard X509_STORE_CTX_get_error_depth(store) == 0 else { return 1 }
    guard let sslPointer = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()),
          let box = SSL_get_ex_data(OpaquePointer(sslPointer), 0)
    else { return 0 }
    let check = Unmanaged<FingerprintCheck>.fromOpaque(box).takeUnretainedValue()
    guard let leaf = X509_STORE_CTX_get_current_cert(store) else {
        check.sawNoCertificate = true
        return 0
    }
    guard let actual = try? DTLSCertificate.fingerprint(of: leaf) else { return 0 }
    guard actual == check.expected else {
        check.mismatch = actual
        return 0
    }
    return 1
}
#endif
