/// The byte transport under an RTMP connection: TCP (``TCPConnection`` conforms) or anything else that moves bytes
/// in order, such as a TLS session for `rtmps://`.
///
/// ```swift
/// struct TLSChannel: RTMPByteChannel { … }   // wraps a TLS session over a TCPConnection
/// let client = try await RTMPClient.connect(to: url, over: TLSChannel(…))
/// ```
public protocol RTMPByteChannel: Sendable {
    /// Reads what has arrived into `buffer` (from its start), waiting until something does.
    /// - Parameter buffer: where the bytes go; its count is the most read.
    /// - Returns: how many bytes arrived; 0 when the peer closed its end.
    /// - Throws: ``RTMPError/transport(_:)`` or ``RTMPError/channel(_:)``.
    func receive(into buffer: inout [UInt8]) async throws(RTMPError) -> Int

    /// Sends every byte, waiting while the channel's send buffer is full.
    /// - Parameter bytes: the bytes.
    /// - Throws: ``RTMPError/transport(_:)`` or ``RTMPError/channel(_:)``.
    func send(_ bytes: [UInt8]) async throws(RTMPError)

    /// How many bytes were accepted but not yet sent (what a live sender watches to adapt its rate).
    var pendingByteCount: Int { get }

    /// Suspends until at most `limit` bytes are pending — woken by the channel when its send buffer drains, never
    /// by polling ``pendingByteCount``.
    /// - Parameter limit: the most bytes that may still be pending when this returns.
    /// - Throws: ``RTMPError/transport(_:)`` when the channel fails or closes meanwhile, or the task is cancelled.
    func waitUntilPending(atMost limit: Int) async throws(RTMPError)

    /// Closes the channel; waiting calls end. Calling it again does nothing.
    func close()
}

extension TCPConnection: RTMPByteChannel {
    /// ``TCPConnection/read(into:)`` for RTMP.
    /// - Parameter buffer: where the bytes go.
    /// - Returns: how many arrived; 0 at the end.
    /// - Throws: ``RTMPError/transport(_:)``.
    public func receive(into buffer: inout [UInt8]) async throws(RTMPError) -> Int {
        do { return try await read(into: &buffer) } catch { throw .transport(error) }
    }

    /// ``TCPConnection/write(_:)`` for RTMP.
    /// - Parameter bytes: the bytes.
    /// - Throws: ``RTMPError/transport(_:)``.
    public func send(_ bytes: [UInt8]) async throws(RTMPError) {
        do { try await write(bytes) } catch { throw .transport(error) }
    }

    /// ``TCPConnection/bufferedByteCount``.
    public var pendingByteCount: Int { bufferedByteCount }

    /// ``TCPConnection/waitUntilBuffered(atMost:)`` for RTMP.
    /// - Parameter limit: the most bytes that may still be pending.
    /// - Throws: ``RTMPError/transport(_:)``.
    public func waitUntilPending(atMost limit: Int) async throws(RTMPError) {
        do { try await waitUntilBuffered(atMost: limit) } catch { throw .transport(error) }
    }
}

extension RTMPByteChannel {
    /// The default for a channel whose ``send(_:)`` returns only once its bytes are gone, so that nothing is ever
    /// pending: returns at once.
    /// - Parameter limit: the most bytes that may still be pending.
    /// - Throws: nothing here; a channel that buffers implements it and throws ``RTMPError/transport(_:)``.
    public func waitUntilPending(atMost limit: Int) async throws(RTMPError) {}
}
