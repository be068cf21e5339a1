import Bitstream
import MediaCore
import Containers

/// ``RTMPPublishSession`` over an ``RTMPClient``.
struct RTMPClientPublishSession: RTMPPublishSession {
    /// The bytes that wait below the publisher's sight, scaled to the stream so that a slow link is felt in the
    /// publisher's queue within a fraction of a second at any bit rate: the connection may hold about a quarter second
    /// of the stream unsent before a send waits (16–64 KiB), and the kernel's send buffer is set to about an eighth of
    /// a second (8–32 KiB; Linux doubles it). Without a known bit rate: 64 KiB and 32 KiB (a 2 Mbit/s stream).
    struct SendBufferBounds: Equatable {
        /// Bytes the connection may hold unsent before ``sendVideo(_:timestamp:)`` or ``sendAudio(_:timestamp:)``
        /// waits.
        let gate: Int
        /// The kernel send buffer size asked for (`SO_SNDBUF`).
        let kernel: Int

        /// The bounds for a stream.
        /// - Parameter bitRate: the stream's bit rate (video and audio), if known.
        init(bitRate: Int?) {
            let bytesPerSecond = (bitRate ?? 2_000_000) / 8
            gate = min(64 * 1024, max(16 * 1024, bytesPerSecond / 4))
            kernel = min(32 * 1024, max(8 * 1024, bytesPerSecond / 8))
        }
    }

    let client: RTMPClient
    /// How much may wait unsent.
    let bounds: SendBufferBounds

    /// A factory that connects and publishes `url`'s stream.
    /// - Parameters:
    ///   - url: the server and stream.
    ///   - videoCodec: the video codec (H.265 announces `hvc1` in `fourCcList`), if video is sent.
    ///   - tlsTrust: the certificates an `rtmps://` server may present.
    ///   - bitRate: the stream's bit rate, video and audio, if known (sizes ``SendBufferBounds``).
    ///   - loop: the event loop of the sockets.
    /// - Returns: the factory.
    static func factory(url: RTMPURL, videoCodec: CodecType?, tlsTrust: TLSTrust, bitRate: Int?,
                        on loop: EventLoop) -> RTMPPublishSessionFactory {
        let bounds = SendBufferBounds(bitRate: bitRate)
        return { () async throws -> any RTMPPublishSession in
            var options = RTMPClientOptions()
            if videoCodec == .hevc { options.fourCCs = ["hvc1"] }
            options.tlsTrust = tlsTrust
            let client = try await RTMPClient.connect(to: url.description, options: options, on: loop)
            // A small kernel send buffer, so a slow link is felt in the publisher's queue within a fraction of a
            // second instead of after megabytes of autotuned socket buffer.
            if let socket = (client.connection.channel as? TCPConnection)?.socket {
                try? socket.setOption(.sendBufferSize, to: bounds.kernel)
            }
            do {
                _ = try await client.publish()
            } catch {
                await client.close()
                throw error
            }
            return RTMPClientPublishSession(client: client, bounds: bounds)
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

    /// Waits until the connection holds at most ``SendBufferBounds/gate`` bytes unsent: suspended until the event loop
    /// finds the socket writable and the buffer drains below the gate — no polling.
    /// - Throws: the connection's failure, if it ends meanwhile.
    private func waitForSendBuffer() async throws {
        if let failure = client.failure { throw failure }
        do { try await client.waitUntilPending(atMost: bounds.gate) } catch {
            throw client.failure ?? error
        }
    }

    func sendMetadata(_ metadata: AMF0Object) async throws {
        try await client.sendMetadata(metadata)
    }

    func unpublish() async { await client.close() }

    func abandon() { client.connection.close() }
}
