import POSIX
import Synchronization

/// The TCP connection of an RTSP client or publisher: it sends requests with increasing CSeq, matches
/// each response to its request, answers authentication challenges (RFC 2617 Basic and Digest) by sending
/// the request again, and hands interleaved frames (RFC 2326 §10.12) to a handler. One reader task reads
/// the socket; requests may come from any task.
final class RTSPControlConnection: Sendable {
    private struct State {
        var sequence = 0
        var waiting: [Int: CheckedContinuation<Result<RTSPResponse, RTSPClientError>, Never>] = [:]
        var session: String?
        var authorizer: RTSPAuthorizer?
        var failure: RTSPClientError?
    }

    /// What the connection tells its owner.
    typealias FrameHandler = @Sendable (_ channel: UInt8, _ payload: [UInt8]) -> Void

    let connection: TCPConnection
    let url: RTSPURL
    private let credentials: RTSPCredentials?
    private let state = Mutex(State())
    private let reader = Mutex<Task<Void, Never>?>(nil)
    private let userAgent = "StreamKit"
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
        self.credentials = credentials
        do {
            connection = try await TCPConnection.connect(to: try url.socketAddress(), on: loop)
        } catch let error as TransportError {
            throw .transport(error)
        } catch let error as RTSPClientError {
            throw error
        } catch {
            throw .connectionClosed
        }
        let task = Task { [self] in
            var framer = RTSPMessageFramer()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var failure = RTSPClientError.connectionClosed
            reading: while true {
                let count: Int
                do throws(TransportError) { count = try await connection.read(into: &buffer) } catch {
                    failure = error == .closed ? .connectionClosed : .transport(error)
                    break
                }
                guard count > 0 else { break }
                framer.append(buffer[0..<count])
                do throws(RTSPClientError) {
                    while let message = try framer.next() {
                        switch message {
                        case let .interleaved(channel, payload): onFrame(channel, payload)
                        case let .response(response):
                            let waiter = state.withLock { state in response.sequenceNumber.flatMap { state.waiting.removeValue(forKey: $0) } }
                            waiter?.resume(returning: .success(response))
                        case .request: continue  // RFC 2326 lets a server ask (ANNOUNCE, GET_PARAMETER); nothing here needs it
                        }
                    }
                } catch {
                    failure = error
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

    /// The session identifier the server gave (without its `;timeout=`), once it gave one.
    var session: String? { state.withLock { $0.session } }

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
    func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) async throws(RTSPClientError) -> RTSPResponse {
        var response = try await send(method, target, headers: headers, body: body)
        if response.status == 401 {
            let challenges = response.values(of: "WWW-Authenticate")
            guard let credentials, let authorizer = RTSPAuthorizer(challenges: challenges, credentials: credentials) else {
                throw .unauthorized(method: method, challenge: challenges.joined(separator: ", "))
            }
            state.withLock { $0.authorizer = authorizer }
            response = try await send(method, target, headers: headers, body: body)
            if response.status == 401 { throw .unauthorized(method: method, challenge: "the credentials were refused") }
        }
        guard (200..<300).contains(response.status) else { throw .refused(method: method, status: response.status, reason: response.reason) }
        if let session = response["Session"] {
            let identifier = String(session.split(separator: ";").first ?? "").trimmingSpaces()
            state.withLock { $0.session = identifier }
        }
        return response
    }

    private func send(_ method: String, _ target: String, headers: [(String, String)], body: [UInt8]) async throws(RTSPClientError) -> RTSPResponse {
        let (sequence, session, authorization, failure) = state.withLock { state in
            state.sequence += 1
            return (state.sequence, state.session, state.authorizer?.authorization(method: method, uri: target), state.failure)
        }
        if let failure { throw failure }
        var text = "\(method) \(target) RTSP/1.0\r\nCSeq: \(sequence)\r\nUser-Agent: \(userAgent)\r\n"
        if let session { text += "Session: \(session)\r\n" }
        if let authorization { text += "Authorization: \(authorization)\r\n" }
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty { text += "Content-Length: \(body.count)\r\n" }
        text += "\r\n"
        let bytes = Array(text.utf8) + body
        let timeout = Task { [self] in
            try? await Task.sleep(for: Self.answerTimeout)
            guard !Task.isCancelled else { return }
            let waiter = state.withLock { $0.waiting.removeValue(forKey: sequence) }
            waiter?.resume(returning: .failure(.timedOut(method: method, seconds: Int(Self.answerTimeout.components.seconds))))
        }
        defer { timeout.cancel() }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<RTSPResponse, RTSPClientError>, Never>) in
            let failed = state.withLock { state -> RTSPClientError? in
                if let failure = state.failure { return failure }
                state.waiting[sequence] = continuation
                return nil
            }
            if let failed { continuation.resume(returning: .failure(failed)) }
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
    /// - Throws: ``RTSPClientError/transport(_:)``.
    func sendInterleaved(_ payload: [UInt8], channel: UInt8) async throws(RTSPClientError) {
        guard payload.count <= 0xFFFF else { throw .malformedResponse("an interleaved packet of \(payload.count) bytes, over 65535") }
        var frame = [UInt8(ascii: "$"), channel, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        frame.append(contentsOf: payload)
        do { try await connection.write(frame) } catch { throw .transport(error) }
    }

    /// Closes the connection and stops the reader.
    func close() {
        connection.close()
        reader.withLock { $0?.cancel() }
    }
}
