import Transport

/// The messages of one RTMP stream, straight off the connection — as a server plays them to us
/// (`rtmp[s]://HOST/APP/KEY`) or as a publisher sends them to our ingest (`--listen`) — for what must keep the
/// tags as they came (``RTMPRecording``). A ``RTMPSource`` is the one to use for a ``LivePipeline``.
public struct RTMPMessageFeed: Sendable {
    /// The messages, in the order they came; the stream ends when the connection does.
    public let messages: AsyncStream<RTMPMessage>
    /// The address the ingest listens on (`host:port`), `nil` when playing from a server.
    public let localAddress: String?
    /// The event loop the connection runs on, shut down by ``close()``.
    private let loop: EventLoop
    private let stopping: @Sendable () async -> Void

    /// Listens for one publisher of `APP/KEY` on the URL's address (an ingest: every other key is refused).
    /// - Parameters:
    ///   - url: `rtmp://ADDRESS:PORT/APP/KEY`.
    ///   - events: told of every publisher, refusal and failure of the server.
    /// - Returns: the feed; its messages start when the publisher does.
    /// - Throws: `TransportError` when the address cannot be listened on.
    public static func listening(at url: RTMPURL,
                                 events: @escaping @Sendable (RTMPServerEvent) -> Void) throws -> RTMPMessageFeed {
        let loop = try EventLoop()
        do {
            let path = "\(url.app)/\(url.streamName)"
            let server = try RTMPServer(configuration: .allowing([path], address: try url.socketAddress()), on: loop)
            let messages = server.subscribe(to: path)
            server.start()
            Task { for await event in server.events { events(event) } }
            return RTMPMessageFeed(messages: messages, localAddress: "\(server.localAddress)", loop: loop) { server.stop() }
        } catch {
            loop.shutdown()
            throw error
        }
    }

    /// Plays a stream from an RTMP server (H.264, or H.265 as enhanced RTMP's `hvc1`).
    /// - Parameters:
    ///   - url: `rtmp[s]://HOST[:PORT]/APP/KEY`.
    ///   - trust: the certificates an `rtmps://` server is checked against.
    /// - Returns: the feed.
    /// - Throws: `RTMPError` or `TLSError` when the server cannot be reached or refuses to play.
    public static func playing(_ url: RTMPURL, trust: TLSTrust) async throws -> RTMPMessageFeed {
        let loop = try EventLoop()
        do {
            var options = RTMPClientOptions(fourCCs: ["hvc1", "avc1"])
            options.tlsTrust = trust
            let client = try await RTMPClient.connect(to: url.description, options: options, on: loop)
            try await client.play()
            return RTMPMessageFeed(messages: client.messages, localAddress: nil, loop: loop) { await client.close() }
        } catch {
            loop.shutdown()
            throw error
        }
    }

    private init(messages: AsyncStream<RTMPMessage>, localAddress: String?, loop: EventLoop,
                 stop: @escaping @Sendable () async -> Void) {
        self.messages = messages
        self.localAddress = localAddress
        self.loop = loop
        stopping = stop
    }

    /// Stops the connection (the server, or the play): ``messages`` ends. Safe to call more than once.
    public func stop() async {
        await stopping()
    }

    /// Stops the connection and shuts its event loop down; nothing is received after.
    public func close() async {
        await stopping()
        loop.shutdown()
    }
}
