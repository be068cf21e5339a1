#if OpenSSL
import COpenSSL

/// One OpenSSL client session whose records go through two memory BIOs instead of a socket, so TLS runs over
/// any ``ByteStreamConnection``: the connection feeds what arrives into ``feed(_:)`` and sends what
/// ``takeOutput()`` returns. Not thread-safe: ``TLSConnection`` calls it under its lock only.
final class TLSEngine: @unchecked Sendable {
    /// What one ``read(into:)`` produced.
    enum ReadOutcome {
        /// This many plaintext bytes.
        case bytes(Int)
        /// A whole record has not arrived yet.
        case needsInput
        /// The peer sent close_notify.
        case closed
    }

    private let context: OpaquePointer
    private let ssl: OpaquePointer
    /// Bytes from the peer, for OpenSSL to read.
    private let incoming: OpaquePointer
    /// Bytes OpenSSL wrote, for the peer.
    private let outgoing: OpaquePointer

    /// Sets up a client session: verification per `configuration.trust`, SNI and the host name check.
    /// - Parameter configuration: the server's name and the trust.
    /// - Throws: ``TLSError/setupFailed(reason:)``, ``TLSError/trustFileUnreadable(path:reason:)``.
    init(configuration: TLSConfiguration) throws(TLSError) {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw .setupFailed(reason: Self.errorQueueText())
        }
        do {
            try Self.configure(context, trust: configuration.trust)
        } catch {
            SSL_CTX_free(context)
            throw error
        }
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw .setupFailed(reason: Self.errorQueueText())
        }
        guard let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            SSL_CTX_free(context)
            throw .setupFailed(reason: "cannot allocate memory BIOs")
        }
        _ = streamkit_bio_set_eof_on_empty(incoming)
        SSL_set_bio(ssl, incoming, outgoing)  // the session owns both now
        SSL_set_connect_state(ssl)
        self.context = context
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
        try applyServerName(configuration)
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    private static func configure(_ context: OpaquePointer, trust: TLSTrust) throws(TLSError) {
        _ = streamkit_ssl_ctx_set_min_tls12(context)
        switch trust {
        case .systemRoots:
            guard SSL_CTX_set_default_verify_paths(context) == 1 else {
                throw .setupFailed(reason: "cannot load the system's certificate authorities: \(errorQueueText())")
            }
            SSL_CTX_set_verify(context, streamkit_ssl_verify_peer(), nil)
        case let .certificateFile(path):
            guard SSL_CTX_load_verify_locations(context, path, nil) == 1 else {
                throw .trustFileUnreadable(path: path, reason: errorQueueText())
            }
            // A certificate given here is a trust anchor even when it is not a self-issued CA (a pinned leaf).
            _ = X509_VERIFY_PARAM_set_flags(SSL_CTX_get0_param(context), streamkit_x509_v_flag_partial_chain())
            SSL_CTX_set_verify(context, streamkit_ssl_verify_peer(), nil)
        case .unverified:
            SSL_CTX_set_verify(context, streamkit_ssl_verify_none(), nil)
        }
    }

    /// SNI for a host name (RFC 6066 §3 allows no address there), and the name the certificate must carry.
    private func applyServerName(_ configuration: TLSConfiguration) throws(TLSError) {
        let name = configuration.serverName
        if !configuration.serverNameIsAddress {
            guard streamkit_ssl_set_server_name(ssl, name) == 1 else {
                throw .setupFailed(reason: "cannot set the server name \(name): \(Self.errorQueueText())")
            }
        }
        guard configuration.trust != .unverified else { return }
        if configuration.serverNameIsAddress {
            let host = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 else {
                throw .setupFailed(reason: "\(name) is not an IP address OpenSSL can check")
            }
        } else {
            guard SSL_set1_host(ssl, name) == 1 else {
                throw .setupFailed(reason: "cannot check the host name \(name): \(Self.errorQueueText())")
            }
        }
    }

    /// One step of the handshake (RFC 8446 §4).
    /// - Returns: `true` when the handshake is complete, `false` when it needs more bytes from the peer.
    /// - Throws: ``TLSError/certificateRejected(reason:code:)`` or ``TLSError/handshakeFailed(reason:)``.
    func handshake() throws(TLSError) -> Bool {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 { return true }
        let error = SSL_get_error(ssl, result)
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return false }
        let verification = SSL_get_verify_result(ssl)
        if verification != Int(streamkit_x509_v_ok()) {
            let reason = X509_verify_cert_error_string(verification).map { String(cString: $0) } ?? "unknown"
            throw .certificateRejected(reason: reason, code: Int(verification))
        }
        throw .handshakeFailed(reason: Self.errorQueueText())
    }

    /// Hands bytes that arrived from the peer to OpenSSL.
    /// - Parameter bytes: the bytes (any split of the record stream).
    func feed(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { all in
                BIO_write(incoming, all.baseAddress! + offset, Int32(clamping: bytes.count - offset))
            }
            guard written > 0 else { return }
            offset += Int(written)
        }
    }

    /// Decrypts what has arrived into `buffer`.
    /// - Parameter buffer: where the plaintext goes.
    /// - Returns: what happened.
    /// - Throws: ``TLSError/recordFailed(reason:)`` for a bad record or an alert.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TLSError) -> ReadOutcome {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .bytes(0) }
        ERR_clear_error()
        let result = SSL_read(ssl, base, Int32(clamping: buffer.count))
        if result > 0 { return .bytes(Int(result)) }
        let error = SSL_get_error(ssl, result)
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return .needsInput }
        if error == SSL_ERROR_ZERO_RETURN { return .closed }
        throw .recordFailed(reason: Self.errorQueueText())
    }

    /// Encrypts `bytes` (into records waiting in ``takeOutput()``).
    /// - Parameter bytes: the plaintext.
    /// - Throws: ``TLSError/recordFailed(reason:)`` when the session can no longer write.
    func write(_ bytes: [UInt8]) throws(TLSError) {
        var offset = 0
        while offset < bytes.count {
            ERR_clear_error()
            let result = bytes.withUnsafeBytes { all in
                SSL_write(ssl, all.baseAddress! + offset, Int32(clamping: bytes.count - offset))
            }
            guard result > 0 else { throw .recordFailed(reason: Self.errorQueueText()) }
            offset += Int(result)
        }
    }

    /// Queues close_notify (RFC 8446 §6.1) for ``takeOutput()``.
    func shutdown() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
    }

    /// The bytes OpenSSL wrote for the peer since the last call.
    /// - Returns: records to send, possibly none.
    func takeOutput() -> [UInt8] {
        let pending = streamkit_bio_pending(outgoing)
        guard pending > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: pending)
        let read = bytes.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32(clamping: pending)) }
        bytes.removeSubrange(Int(max(0, read))...)
        return bytes
    }

    /// The negotiated protocol, for example `TLSv1.3`.
    var protocolVersion: String {
        SSL_get_version(ssl).map { String(cString: $0) } ?? "unknown"
    }

    /// OpenSSL's error queue as text (and emptied), for example `error:0A000086:SSL routines::certificate verify failed`.
    private static func errorQueueText() -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? "no OpenSSL error reported" : messages.joined(separator: "; ")
    }
}

#else

/// The TLS session of a build without the `OpenSSL` trait: it cannot be made (``TLSError/unavailable``).
final class TLSEngine: Sendable {
    enum ReadOutcome { case bytes(Int), needsInput, closed }
    init(configuration: TLSConfiguration) throws(TLSError) { throw .unavailable }
    func handshake() throws(TLSError) -> Bool { throw .unavailable }
    func feed(_ bytes: [UInt8]) {}
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TLSError) -> ReadOutcome { throw .unavailable }
    func write(_ bytes: [UInt8]) throws(TLSError) { throw .unavailable }
    func shutdown() {}
    func takeOutput() -> [UInt8] { [] }
    var protocolVersion: String { "none" }
}

#endif
