import Bitstream
import Containers
import POSIX
import Synchronization

/// One peer of an ``RTMPServer``: answers its NetConnection and NetStream commands (Adobe RTMP specification 1.0
/// §7.2) — `connect`, `releaseStream`, `FCPublish`, `createStream`, `publish`, `play`, `deleteStream`,
/// `FCUnpublish` — and hands what it publishes to its ``RTMPServerStream``.
final class RTMPServerSession: Sendable {
    private struct State {
        var app: String?
        var fourCCs: [AMF0Value] = []
        var nextStreamID: UInt32 = 1
        var publishing: (streamID: UInt32, stream: RTMPServerStream)?
        var playing: [UInt32: (stream: RTMPServerStream, sink: RTMPPlayerSink)] = [:]
    }

    let connection: RTMPConnection
    let remoteAddress: SocketAddress
    private unowned let server: RTMPServer
    private let state = Mutex(State())

    init(connection: RTMPConnection, remoteAddress: SocketAddress, server: RTMPServer) {
        self.connection = connection
        self.remoteAddress = remoteAddress
        self.server = server
    }

    private var identity: ObjectIdentifier { ObjectIdentifier(self) }

    /// Handles one message from the peer, in order (the connection's reader waits for it).
    func handle(_ message: RTMPMessage) async {
        switch message.type {
        case .commandAMF0, .commandAMF3:
            let command: RTMPCommand
            do throws(RTMPError) { command = try RTMPCommand(message, limits: connection.limits) } catch {
                fail(error)
                return
            }
            do throws(RTMPError) { try await handle(command, on: message.streamID) } catch { fail(error) }
        case .audio, .video, .dataAMF0:
            guard let (streamID, stream) = state.withLock({ $0.publishing.map { ($0.streamID, $0.stream) } }),
                  message.streamID == streamID else { return }
            var message = message
            if message.type == .dataAMF0 {
                guard let stripped = strippingSetDataFrame(message) else { return }
                message = stripped
            }
            for player in stream.deliver(message) { server.report(.playerTooSlow(path: stream.path, player.remoteAddress)) }
        default:
            return
        }
    }

    private func fail(_ error: RTMPError) {
        server.report(.failed(remoteAddress, error))
        connection.close()
    }

    /// `@setDataFrame` `onMetaData` {…} from a publisher goes to players as `onMetaData` {…}.
    private func strippingSetDataFrame(_ message: RTMPMessage) -> RTMPMessage? {
        let decoder = AMF0Decoder(limits: AMF0Limits(maximumDepth: connection.limits.maximumAMFDepth))
        guard let values = try? decoder.decodeValues(from: message.payload) else { return nil }
        guard values.first?.string == "@setDataFrame" else { return message }
        guard let bytes = try? AMF0Value.encode(Array(values.dropFirst())) else { return nil }
        var stripped = message
        stripped.payload = ByteView(bytes)
        return stripped
    }

    private func reply(_ name: String, to transactionID: Double, object: AMF0Value = .null, _ arguments: [AMF0Value]) async throws(RTMPError) {
        try await connection.send(try RTMPCommand(name: name, transactionID: transactionID, commandObject: object, arguments: arguments).message(streamID: 0))
    }

    private func status(_ status: RTMPStatus, on streamID: UInt32) async throws(RTMPError) {
        try await connection.send(try RTMPCommand(name: "onStatus", transactionID: 0, arguments: [.object(status.object)]).message(streamID: streamID))
    }

    private func handle(_ command: RTMPCommand, on streamID: UInt32) async throws(RTMPError) {
        switch command.name {
        case "connect":
            guard let app = command.commandObject["app"]?.string else { throw .protocolViolation("connect names no app") }
            let fourCCs = command.commandObject["fourCcList"]?.array ?? []
            state.withLock {
                $0.app = app.hasSuffix("/") ? String(app.dropLast()) : app
                $0.fourCCs = fourCCs
            }
            try await connection.send(RTMPControlMessage.windowAcknowledgementSize(2_500_000).message)
            try await connection.send(RTMPControlMessage.setPeerBandwidth(2_500_000, limitType: 2).message)
            try await connection.setOutgoingChunkSize(server.configuration.chunkSize)
            var properties: AMF0Object = ["fmsVer": "FMS/3,5,7,7009", "capabilities": 31]
            if !fourCCs.isEmpty { properties.properties.append(AMF0Property(key: "fourCcList", value: .strictArray(fourCCs))) }
            var information = RTMPStatus(level: "status", code: "NetConnection.Connect.Success", description: "Connection succeeded.").object
            information.properties.append(AMF0Property(key: "objectEncoding", value: 0))
            try await reply("_result", to: command.transactionID, object: .object(properties), [.object(information)])
        case "releaseStream", "FCPublish", "FCUnpublish", "getStreamLength", "checkbw":
            if command.name == "FCUnpublish" { endPublishing(error: nil) }
            if command.transactionID != 0 { try await reply("_result", to: command.transactionID, [.undefined]) }
        case "createStream":
            guard state.withLock({ $0.app }) != nil else { throw .protocolViolation("createStream before connect") }
            let id = state.withLock { state -> UInt32 in
                defer { state.nextStreamID += 1 }
                return state.nextStreamID
            }
            try await reply("_result", to: command.transactionID, [.number(Double(id))])
        case "publish":
            try await publish(command, on: streamID)
        case "play":
            try await play(command, on: streamID)
        case "deleteStream", "closeStream":
            let id = command.name == "deleteStream" ? command.arguments.first?.number.map { UInt32(clamping: Int($0)) } ?? streamID : streamID
            if state.withLock({ $0.publishing?.streamID }) == id { endPublishing(error: nil) }
            endPlaying(id)
        default:
            return
        }
    }

    private func request(_ command: RTMPCommand, role: RTMPStreamRequest.Role) throws(RTMPError) -> RTMPStreamRequest {
        guard let app = state.withLock({ $0.app }) else { throw .protocolViolation("\(role.rawValue) before connect") }
        guard let full = command.arguments.first?.string else { throw .protocolViolation("\(role.rawValue) names no stream") }
        let parts = full.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return RTMPStreamRequest(role: role, app: app, streamName: String(parts.first ?? ""), query: parts.count > 1 ? String(parts[1]) : "",
                                 remoteAddress: remoteAddress)
    }

    private func publish(_ command: RTMPCommand, on streamID: UInt32) async throws(RTMPError) {
        let request = try request(command, role: .publish)
        guard server.configuration.authorize(request) else {
            try await refuse(request, code: "NetStream.Publish.BadName", reason: "publishing \(request.path) is not allowed", on: streamID)
            return
        }
        let stream = server.stream(at: request.path)
        guard state.withLock({ $0.publishing == nil }), stream.claim(by: identity) else {
            try await refuse(request, code: "NetStream.Publish.BadName", reason: "\(request.path) is already being published", on: streamID)
            return
        }
        state.withLock { $0.publishing = (streamID, stream) }
        try await connection.send(RTMPUserControlEvent.streamBegin(streamID: streamID).message)
        try await status(RTMPStatus(level: "status", code: "NetStream.Publish.Start", description: "\(request.path) is now published."), on: streamID)
        server.report(.publishing(path: request.path, from: remoteAddress))
    }

    private func play(_ command: RTMPCommand, on streamID: UInt32) async throws(RTMPError) {
        let request = try request(command, role: .play)
        guard server.configuration.authorize(request) else {
            try await refuse(request, code: "NetStream.Play.Failed", reason: "playing \(request.path) is not allowed", on: streamID)
            return
        }
        let stream = server.stream(at: request.path)
        try await connection.send(RTMPUserControlEvent.streamBegin(streamID: streamID).message)
        try await status(RTMPStatus(level: "status", code: "NetStream.Play.Reset", description: "Playing and resetting \(request.path)."), on: streamID)
        try await status(RTMPStatus(level: "status", code: "NetStream.Play.Start", description: "Started playing \(request.path)."), on: streamID)
        let access = try AMF0Value.encodeForRTMP(["|RtmpSampleAccess", true, true])
        try await connection.send(RTMPMessage(type: .dataAMF0, streamID: streamID, timestamp: 0, payload: ByteView(access)))
        let sink = RTMPPlayerSink(connection: connection, remoteAddress: remoteAddress, streamID: streamID, capacity: server.configuration.playerQueueCapacity)
        state.withLock { $0.playing[streamID] = (stream, sink) }
        stream.add(sink)
        server.report(.playing(path: request.path, from: remoteAddress))
    }

    private func refuse(_ request: RTMPStreamRequest, code: String, reason: String, on streamID: UInt32) async throws(RTMPError) {
        server.report(.refused(request, reason: reason))
        try await status(RTMPStatus(level: "error", code: code, description: reason), on: streamID)
        // Let the status leave our buffer (woken as the socket drains), then linger a moment before the close so
        // that the peer reads it before our close can reset the connection (a timer, as SO_LINGER would be).
        await connection.drain(within: .milliseconds(500))
        try? await Task.sleep(for: .milliseconds(100))
        connection.close()
    }

    private func endPublishing(error: RTMPError?) {
        guard let stream = state.withLock({ state -> RTMPServerStream? in
            defer { state.publishing = nil }
            return state.publishing?.stream
        }) else { return }
        stream.release(by: identity)
        server.report(.unpublished(path: stream.path, error: error))
    }

    private func endPlaying(_ streamID: UInt32) {
        guard let (stream, sink) = state.withLock({ $0.playing.removeValue(forKey: streamID) }) else { return }
        stream.remove(sink)
    }

    /// The connection ended: unpublish, stop playing.
    func closed(_ error: RTMPError?) {
        endPublishing(error: error)
        let ids = state.withLock { Array($0.playing.keys) }
        for id in ids { endPlaying(id) }
        if let error, error != .connectionClosed { server.report(.failed(remoteAddress, error)) }
    }
}

extension AMF0Value {
    /// Encodes values for an RTMP data or command message, as an ``RTMPError``.
    static func encodeForRTMP(_ values: [AMF0Value]) throws(RTMPError) -> [UInt8] {
        do { return try encode(values) } catch {
            throw .malformedMessage(messageType: RTMPMessageType.dataAMF0.rawValue, chunkStreamID: 5, reason: "AMF0: \(error)")
        }
    }
}
