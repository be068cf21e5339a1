import Bitstream
import MediaCore
import Containers

/// ``RTMPPublishSession`` over an ``RTMPClient``.
struct RTMPClientPublishSession: RTMPPublishSession {
    /// Bytes the connection may hold unsent before ``sendVideo(_:timestamp:)`` or ``sendAudio(_:timestamp:)`` waits: about a quarter second of a
    /// 2 Mbit/s stream, so a slow link's backlog builds in the publisher's queue.
    static let sendBufferGate = 64 * 1024

    let client: RTMPClient

    /// A factory that connects and publishes `url`'s stream.
    /// - Parameters:
    ///   - url: the server and stream.
    ///   - videoCodec: the video codec (H.265 announces `hvc1` in `fourCcList`), if video is sent.
    ///   - tlsTrust: the certificates an `rtmps://` server may present.
    ///   - loop: the event loop of the sockets.
    /// - Returns: the factory.
    static func factory(url: RTMPURL, videoCodec: CodecType?, tlsTrust: TLSTrust, on loop: EventLoop) -> RTMPPublishSessionFactory {
        { () async throws -> any RTMPPublishSession in
            var options = RTMPClientOptions()
            if videoCodec == .hevc { options.fourCCs = ["hvc1"] }
            options.tlsTrust = tlsTrust
            let client = try await RTMPClient.connect(to: url.description, options: options, on: loop)
            // A small kernel send buffer (Linux doubles it), so a slow link is felt in the publisher's queue
            // within a fraction of a second instead of after megabytes of autotuned socket buffer.
            if let socket = (client.connection.channel as? TCPConnection)?.socket {
                try? socket.setOption(.sendBufferSize, to: 32 * 1024)
            }
            do {
                _ = try await client.publish()
            } catch {
                await client.close()
                throw error
            }
            return RTMPClientPublishSession(client: client)
        }
    }

    func sendVideo(_ body: FLVVideoTagBody, timestamp: UInt32) async throws {
        try await client.sendVideo(body, timestamp: timestamp)
        try await waitForSendBuffer()
    }

    func sendAudio(_ body: FLVAudioTagBody, timestamp: UInt32) async throws {
        try await client.sendAudio(body, timestamp: timestamp)
        try await waitForSendBuffer()
    }

    /// Waits until the connection holds at most ``sendBufferGate`` bytes unsent: suspended until the event loop
    /// finds the socket writable and the buffer drains below the gate — no polling.
    /// - Throws: the connection's failure, if it ends meanwhile.
    private func waitForSendBuffer() async throws {
        if let failure = client.failure { throw failure }
        do { try await client.waitUntilPending(atMost: Self.sendBufferGate) } catch {
            throw client.failure ?? error
        }
    }

    func sendMetadata(_ metadata: AMF0Object) async throws {
        try await client.sendMetadata(metadata)
    }

    func unpublish() async { await client.close() }

    func abandon() { client.connection.close() }
}
