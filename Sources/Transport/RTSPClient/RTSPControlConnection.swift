import Bitstream
import POSIX
import Synchronization

/// The TCP connection of an RTSP client or publisher: it sends requests (``RTSPRequest``) with increasing
/// CSeq, matches each response to its request, answers a 401 challenge once with the credentials
/// (``RTSPClientAuthenticator``: Digest MD5, else Basic) and authorizes every later request, and hands
/// interleaved frames (RFC 2326 §10.12) to a handler. One reader task reads the socket through
/// ``RTSPStreamParser`` (hard caps on lines, headers and bodies); requests may come from any task.
final class RTSPControlConnection: Sendable {
    private struct State {
        var sequence = 0
        var waiting: [Int: CheckedContinuation<Result<RTSPResponse, RTSPClientError>, Never>] = [:]
        var session: RTSPSessionHeader?
        var authenticator: RTSPClientAuthenticator?
        var failure: RTSPClientError?
    }

    /// Called with each interleaved frame's channel and payload, on the reader task.
    typealias FrameHandler = @Sendable (_ channel: UInt8, _ payload: ByteView) -> Void

    let connection: TCPConnection
    let url: RTSPURL
    private let state: Mutex<State>
    private let reader = Mutex<Task<Void, Never>?>(nil)
    /// How long a request waits for its answer.
    static let answerTimeout: Duration = .seconds(10)

    /// Connects and starts reading.
    /// - Parameters:
    ///   - url: the server.
    ///   - credentials: the user and password, if the server may ask.
    ///   - loop: the event loop.
    ///   - onFrame: called with each interleaved frame, on the reader task.
    /// - Throws: ``RTSPClientError``.
    init(url: RTSPURL, credentials: RTSPCredentials?, on loop: EventLoop, onFrame: @escaping FrameHandler) async throws(RTSPClientError) {
        self.url = url
        state = Mutex(State(authenticator: credentials.map { RTSPClientAuthenticator(user: $0.user, password: $0.password) }))
        let address = try url.socketAddress()
        do {
            connection = try await TCPConnection.connect(to: address, on: loop)
        } catch {
            throw .transport(error)
        }
        let task = Task { [self] in
            var parser = RTSPStreamParser()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var failure = RTSPClientError.connectionClosed
            reading: while true {
                let count: Int
                do throws(TransportError) { count = try await connection.read(into: &buffer) } catch {
                    failure = error == .closed ? .connectionClosed : .transport(error)
                    break
                }
                guard count > 0 else { break }
                parser.append(Array(buffer[0..<count]))
                do throws(RTSPParseError) {
                    while let item = try parser.next() {
                        switch item {
                        case let .interleaved(frame): onFrame(frame.channel, frame.payload)
                        case let .response(response):
                            let waiter = state.withLock { state in response.cseq.flatMap { state.waiting.removeValue(forKey: $0) } }
                            waiter?.resume(returning: .success(response))
                        case .request: continue  // RFC 2326 lets a server ask (ANNOUNCE, GET_PARAMETER); nothing here needs it
                        }
                    }
                } catch {
                    failure = .malformedResponse("\(error)")
                    break reading
                }
            }
            let waiters = state.withLock { state in
                state.failure = failure
                defer { state.waiting = [:] }
                return Array(state.waiting.values)
            }
            for waiter in waiters { waiter.resume(returning: .failure(failure)) }
        }
        reader.withLock { $0 = task }
    }

    /// The session the server gave (identifier and timeout), once it gave one.
    var session: RTSPSessionHeader? { state.withLock { $0.session } }

    /// Sends a request and waits for its answer; a 401 is answered once with the credentials.
    /// - Parameters:
    ///   - method: `OPTIONS`, `DESCRIBE`, `SETUP`…
    ///   - target: the URL the request names.
    ///   - headers: extra headers.
    ///   - body: the body, with its Content-Type in `headers`.
    /// - Returns: the 2xx answer.
    /// - Throws: ``RTSPClientError/refused(method:status:reason:)`` for any other status,
    ///   ``RTSPClientError/unauthorized(method:challenge:)`` when credentials are missing or refused.
    @discardableResult
    func request(_ method: RTSPMethod, _ target: String, headers: RTSPHeaders = RTSPHeaders(), body: [UInt8] = []) async throws(RTSPClientError) -> RTSPResponse {
        var response = try await send(method, target, headers: headers, body: body)
        if response.status.code == RTSPStatus.unauthorized.code {
            let challenges = response.headers.values(for: "WWW-Authenticate")
            let accepted = state.withLock { state -> Bool in
                guard var authenticator = state.authenticator else { return false }
                let accepted = authenticator.accept(challenges: challenges)
                state.authenticator = authenticator
                return accepted
            }
            guard accepted else { throw .unauthorized(method: method.rawValue, challenge: challenges.joined(separator: ", ")) }
            response = try await send(method, target, headers: headers, body: body)
            if response.status.code == RTSPStatus.unauthorized.code {
                throw .unauthorized(method: method.rawValue, challenge: "the credentials were refused")
            }
        }
        guard (200..<300).contains(response.status.code) else {
            throw .refused(method: method.rawValue, status: response.status.code, reason: response.status.reason)
        }
        if let value = response.headers["Session"], let session = try? RTSPSessionHeader(parsing: value) {
            state.withLock { $0.session = session }
        }
        return response
    }

    private func send(_ method: RTSPMethod, _ target: String, headers: RTSPHeaders, body: [UInt8]) async throws(RTSPClientError) -> RTSPResponse {
        let (sequence, session, authorization, failure) = state.withLock { state in
            state.sequence += 1
            let authorization = state.authenticator?.hasChallenge == true ? state.authenticator?.authorization(method: method, uri: target) : nil
            return (state.sequence, state.session, authorization, state.failure)
        }
        if let failure { throw failure }
        var request = RTSPRequest(method: method, uri: target, cseq: sequence, headers: headers, body: body)
        request.headers.set("User-Agent", "StreamKit")
        if let session { request.headers.set("Session", session.identifier) }
        if let authorization { request.headers.set("Authorization", authorization) }
        let bytes = request.serialized()
        let timeout = Task { [self] in
            try? await Task.sleep(for: Self.answerTimeout)
            guard !Task.isCancelled else { return }
            let waiter = state.withLock { $0.waiting.removeValue(forKey: sequence) }
            waiter?.resume(returning: .failure(.timedOut(method: method.rawValue, seconds: Int(Self.answerTimeout.components.seconds))))
        }
        defer { timeout.cancel() }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<RTSPResponse, RTSPClientError>, Never>) in
            let failed = state.withLock { state -> RTSPClientError? in
                if let failure = state.failure { return failure }
                state.waiting[sequence] = continuation
                return nil
            }
            if let failed {
                continuation.resume(returning: .failure(failed))
                return
            }
            Task { [self] in
                do throws(TransportError) { try await connection.write(bytes) } catch {
                    let waiter = state.withLock { $0.waiting.removeValue(forKey: sequence) }
                    waiter?.resume(returning: .failure(.transport(error)))
                }
            }
        }
        return try result.get()
    }

    /// Sends one interleaved frame (RFC 2326 §10.12), waiting while the socket's buffer is full.
    /// - Parameters:
    ///   - payload: the RTP or RTCP packet (at most 65535 bytes).
    ///   - channel: the channel SETUP agreed for it.
    /// - Throws: ``RTSPClientError/transport(_:)``; ``RTSPClientError/packetTooLarge(_:)`` past 65535 bytes.
    func sendInterleaved(_ payload: [UInt8], channel: UInt8) async throws(RTSPClientError) {
        guard let frame = RTSPInterleavedFrame.serialized(channel: channel, payload: payload) else { throw .packetTooLarge(payload.count) }
        do { try await connection.write(frame) } catch { throw .transport(error) }
    }

    /// Closes the connection and stops the reader.
    func close() {
        connection.close()
        reader.withLock { $0?.cancel() }
    }
}
