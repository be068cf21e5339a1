import Synchronization

/// A TLS client connection (TLS 1.2 / 1.3, RFC 5246 / RFC 8446) over any ``ByteStreamConnection`` — usually a
/// ``TCPConnection`` — with the system's OpenSSL (package trait `OpenSSL`).
///
/// The server's certificate is verified by default (``TLSTrust/systemRoots``) and must name the server
/// (``TLSConfiguration/serverName``, also sent as SNI). A build without the trait fails every
/// ``connect(over:configuration:)`` with ``TLSError/unavailable``.
///
/// ```swift
/// let tcp = try await TCPConnection.connect(to: .loopback(.ipv4, port: 8443), on: loop)
/// let tls = try await TLSConnection.connect(over: tcp, configuration: TLSConfiguration(
///     serverName: "localhost", trust: .certificateFile("server.pem")))
/// try await tls.write(Array("hello\n".utf8))
/// let reply = try await tls.read(maximumCount: 4096)
/// await tls.shutdown()
/// ```
///
/// One task may read while another writes; records leave in the order OpenSSL made them.
public final class TLSConnection: ByteStreamConnection {
    private struct State: ~Copyable {
        var lastSend: Task<Result<Void, TransportError>, Never>?
        var peerEnded = false
        var isClosed = false
    }

    /// The stream under TLS.
    public let transport: any ByteStreamConnection
    /// How the connection was made.
    public let configuration: TLSConfiguration
    private let engine: TLSEngine
    private let state = Mutex(State())
    /// Serialises every use of `engine` (OpenSSL sessions are not thread-safe).
    private let engineLock = Mutex(())

    /// Whether this build has TLS: `true` with the `OpenSSL` package trait; without it every
    /// ``connect(over:configuration:)`` fails with ``TLSError/unavailable``.
    public static var isAvailable: Bool {
        #if OpenSSL
        true
        #else
        false
        #endif
    }

    private init(transport: any ByteStreamConnection, configuration: TLSConfiguration, engine: TLSEngine) {
        self.transport = transport
        self.configuration = configuration
        self.engine = engine
    }

    /// Runs the TLS handshake over `transport` and returns the connection.
    ///
    /// On failure the transport is closed (after any alert OpenSSL had for the server).
    /// - Parameters:
    ///   - transport: a connected byte stream; the TLS connection owns it from now on.
    ///   - configuration: the server's name and the certificates to trust.
    /// - Returns: the connection, handshake done.
    /// - Throws: ``TLSError/unavailable`` (a build without TLS), ``TLSError/certificateRejected(reason:code:)``
    ///   (naming the verification failure), ``TLSError/trustFileUnreadable(path:reason:)``,
    ///   ``TLSError/handshakeFailed(reason:)``, ``TLSError/transport(_:)``.
    public static func connect(over transport: any ByteStreamConnection,
                               configuration: TLSConfiguration) async throws(TLSError) -> TLSConnection {
        let engine: TLSEngine
        do {
            engine = try TLSEngine(configuration: configuration)
        } catch {
            transport.close()
            throw error
        }
        let connection = TLSConnection(transport: transport, configuration: configuration, engine: engine)
        do {
            try await connection.runHandshake()
        } catch {
            transport.close()
            throw error
        }
        return connection
    }

    private func runHandshake() async throws(TLSError) {
        while true {
            let (step, output) = engineLock.withLock { _ -> (Result<Bool, TLSError>, [UInt8]) in
                let step = Result { () throws(TLSError) in try engine.handshake() }
                return (step, engine.takeOutput())
            }
            if !output.isEmpty {
                do {
                    try await transport.write(output)
                } catch {
                    if case .failure(let failure) = step { throw failure }
                    throw .transport(error)
                }
            }
            if try step.get() { return }
            let incoming: [UInt8]
            do {
                incoming = try await transport.read(maximumCount: 65536)
            } catch {
                throw .transport(error)
            }
            guard !incoming.isEmpty else {
                throw .handshakeFailed(reason: "the server closed the connection during the handshake")
            }
            engineLock.withLock { _ in engine.feed(incoming) }
        }
    }

    /// The negotiated protocol version, for example `TLSv1.3`.
    public var protocolVersion: String {
        engineLock.withLock { _ in engine.protocolVersion }
    }

    /// Reads and decrypts what has arrived, waiting until something does.
    /// - Parameter maximumCount: the most plaintext bytes to return.
    /// - Returns: up to `maximumCount` bytes; empty once the server sent close_notify.
    /// - Throws: ``TransportError/tls(_:)`` with ``TLSError/truncated`` when the connection ended without
    ///   close_notify, ``TLSError/recordFailed(reason:)`` for a bad record; the transport's own errors.
    public func read(maximumCount: Int = 65536) async throws(TransportError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max(1, maximumCount))
        while true {
            if state.withLock({ $0.isClosed }) { throw .closed }
            let outcome = buffer.withUnsafeMutableBytes { bytes in
                engineLock.withLock { _ -> Result<TLSEngine.ReadOutcome, TLSError> in
                    let outcome = Result { () throws(TLSError) in try engine.read(into: bytes) }
                    // Post-handshake messages may want an answer (a TLS 1.3 KeyUpdate): in order, through send.
                    let output = engine.takeOutput()
                    if !output.isEmpty { scheduleSend(output) }
                    return outcome
                }
            }
            switch outcome {
            case let .success(.bytes(count)):
                buffer.removeSubrange(count...)
                return buffer
            case .success(.closed):
                return []
            case .success(.needsInput):
                if state.withLock({ $0.peerEnded }) { throw .tls(.truncated) }
                let incoming = try await transport.read(maximumCount: 65536)
                if incoming.isEmpty {
                    state.withLock { $0.peerEnded = true }
                } else {
                    engineLock.withLock { _ in engine.feed(incoming) }
                }
            case let .failure(error):
                throw .tls(error)
            }
        }
    }

    /// Encrypts and sends every byte, waiting while the transport's send buffer is full.
    /// - Parameter bytes: the plaintext.
    /// - Throws: ``TransportError/tls(_:)`` when the session cannot write; the transport's own errors.
    public func write(_ bytes: [UInt8]) async throws(TransportError) {
        guard !bytes.isEmpty else { return }
        if state.withLock({ $0.isClosed }) { throw .closed }
        let sent = try engineLock.withLock { _ throws(TransportError) -> Task<Result<Void, TransportError>, Never> in
            do throws(TLSError) {
                try engine.write(bytes)
            } catch {
                throw .tls(error)
            }
            return scheduleSend(engine.takeOutput())
        }
        try await sent.value.get()
    }

    /// Sends close_notify, waits until it is on its way, and closes the transport.
    public func shutdown() async {
        guard let sent = beginClosing() else { return }
        _ = await sent.value
        transport.close()
    }

    /// Sends close_notify and closes the transport once it is out (without waiting); calling it again does nothing.
    public func close() {
        guard let sent = beginClosing() else { return }
        let transport = self.transport
        Task {
            _ = await sent.value
            transport.close()
        }
    }

    private func beginClosing() -> Task<Result<Void, TransportError>, Never>? {
        let first = state.withLock { state -> Bool in
            defer { state.isClosed = true }
            return !state.isClosed
        }
        guard first else { return nil }
        return engineLock.withLock { _ in
            engine.shutdown()
            return scheduleSend(engine.takeOutput())
        }
    }

    /// Queues `bytes` behind every earlier send (called under `engineLock`, so in OpenSSL's order).
    @discardableResult
    private func scheduleSend(_ bytes: [UInt8]) -> Task<Result<Void, TransportError>, Never> {
        let transport = self.transport
        return state.withLock { state in
            let previous = state.lastSend
            let task = Task { () -> Result<Void, TransportError> in
                if let previous, case .failure(let error) = await previous.value { return .failure(error) }
                guard !bytes.isEmpty else { return .success(()) }
                do throws(TransportError) {
                    try await transport.write(bytes)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            state.lastSend = task
            return task
        }
    }
}
