extension TLSConnection: RTMPByteChannel {
    /// ``TLSConnection/read(maximumCount:)`` for RTMP (`rtmps://`).
    /// - Parameter buffer: where the plaintext goes; its count is the most read.
    /// - Returns: how many bytes arrived; 0 at close_notify.
    /// - Throws: ``RTMPError/transport(_:)`` (``TransportError/tls(_:)`` for a TLS failure).
    public func receive(into buffer: inout [UInt8]) async throws(RTMPError) -> Int {
        let bytes: [UInt8]
        do { bytes = try await read(maximumCount: buffer.count) } catch { throw .transport(error) }
        buffer.replaceSubrange(0..<bytes.count, with: bytes)
        return bytes.count
    }

    /// ``TLSConnection/write(_:)`` for RTMP.
    /// - Parameter bytes: the plaintext.
    /// - Throws: ``RTMPError/transport(_:)``.
    public func send(_ bytes: [UInt8]) async throws(RTMPError) {
        do { try await write(bytes) } catch { throw .transport(error) }
    }

    /// The bytes the TCP connection under TLS has not sent yet (what a live publisher watches).
    public var pendingByteCount: Int {
        (transport as? TCPConnection)?.bufferedByteCount ?? 0
    }

    /// Waits for the TCP connection under TLS to drain to `limit` bytes (``TCPConnection/waitUntilBuffered(atMost:)``);
    /// over another transport, whose writes return once sent, returns at once.
    /// - Parameter limit: the most bytes that may still be pending.
    /// - Throws: ``RTMPError/transport(_:)``.
    public func waitUntilPending(atMost limit: Int) async throws(RTMPError) {
        guard let tcp = transport as? TCPConnection else { return }
        do { try await tcp.waitUntilBuffered(atMost: limit) } catch { throw .transport(error) }
    }
}
