/// A reliable, ordered byte stream — a TCP connection, or TLS over one — that a protocol session (RTMP, RTSP)
/// runs over without knowing which.
///
/// ```swift
/// let tcp = try await TCPConnection.connect(to: address, on: loop)
/// let stream: any ByteStreamConnection = secure
///     ? try await TLSConnection.connect(over: tcp, configuration: TLSConfiguration(serverName: "live.example"))
///     : tcp
/// ```
public protocol ByteStreamConnection: AnyObject, Sendable {
    /// Reads what has arrived, waiting until something does.
    /// - Parameter maximumCount: the most bytes to return.
    /// - Returns: up to `maximumCount` bytes; empty when the peer closed its end (cleanly, for TLS: close_notify).
    /// - Throws: ``TransportError`` (``TransportError/tls(_:)`` for a TLS failure).
    func read(maximumCount: Int) async throws(TransportError) -> [UInt8]

    /// Sends every byte, waiting while the send buffer is full (backpressure).
    /// - Parameter bytes: the bytes.
    /// - Throws: ``TransportError`` (``TransportError/tls(_:)`` for a TLS failure).
    func write(_ bytes: [UInt8]) async throws(TransportError)

    /// Closes the stream (for TLS, after sending close_notify); calling it again does nothing.
    func close()
}

extension TCPConnection: ByteStreamConnection {}
