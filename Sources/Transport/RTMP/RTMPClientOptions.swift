/// How an ``RTMPClient`` connects: the chunk size it sends with, the Enhanced RTMP codecs it announces, the limits
/// on what the server sends, and how long it waits.
public struct RTMPClientOptions: Sendable, Hashable {
    /// The chunk size to send with after the handshake (Set Chunk Size, §5.4.1). 4096 by default.
    public var chunkSize: Int
    /// The Enhanced RTMP codecs to announce in `connect`'s `fourCcList` (for example `["hvc1", "avc1"]`); none by
    /// default, which sends no `fourCcList` (legacy RTMP).
    public var fourCCs: [String]
    /// The `flashVer` of `connect`.
    public var flashVersion: String
    /// The caps on what the server sends.
    public var limits: RTMPLimits
    /// How long a command waits for its answer. 10 s by default.
    public var commandTimeout: Duration
    /// How many received messages ``RTMPClient/messages`` holds for a reader that is behind; past it, messages are
    /// dropped and counted in ``RTMPClient/droppedMessageCount``. 8192 by default.
    public var messageBufferCapacity: Int
    /// The send-buffer bound of the TCP connection. 1 MiB by default.
    public var sendBufferCapacity: Int
    /// Which server certificates an `rtmps://` connection accepts (verification is on by default: the system's
    /// certificate authorities, and the certificate must name the URL's host).
    public var tlsTrust: TLSTrust = .systemRoots

    /// Options with the defaults above, or the values given.
    /// - Parameters:
    ///   - chunkSize: the outgoing chunk size.
    ///   - fourCCs: the Enhanced RTMP `fourCcList`.
    ///   - flashVersion: the `flashVer`.
    ///   - limits: the caps on the server.
    ///   - commandTimeout: how long a command waits.
    ///   - messageBufferCapacity: received messages held for the reader.
    ///   - sendBufferCapacity: the TCP send-buffer bound.
    public init(chunkSize: Int = 4096, fourCCs: [String] = [], flashVersion: String = "FMLE/3.0 (compatible; StreamKit)",
                limits: RTMPLimits = RTMPLimits(), commandTimeout: Duration = .seconds(10),
                messageBufferCapacity: Int = 8192, sendBufferCapacity: Int = 1 << 20) {
        self.chunkSize = chunkSize
        self.fourCCs = fourCCs
        self.flashVersion = flashVersion
        self.limits = limits
        self.commandTimeout = commandTimeout
        self.messageBufferCapacity = messageBufferCapacity
        self.sendBufferCapacity = sendBufferCapacity
    }
}
