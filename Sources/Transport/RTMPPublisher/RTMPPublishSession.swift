import Containers

/// One RTMP connection in the publishing state (after connect, createStream and publish), as the publisher
/// uses it: send media and data messages on the published stream, and leave.
protocol RTMPPublishSession: Sendable {
    /// Sends one video message on the published stream, and returns once the connection's send buffer is
    /// short enough that the backlog of a slow link waits in the publisher's queue (where it can be dropped)
    /// rather than in the socket's.
    /// - Parameters:
    ///   - body: the message body (an FLV video tag body; its payload is a view of the picture).
    ///   - timestamp: the RTMP timestamp in milliseconds.
    func sendVideo(_ body: FLVVideoTagBody, timestamp: UInt32) async throws
    /// Sends one audio message on the published stream, and returns as ``sendVideo(_:timestamp:)`` does.
    /// - Parameters:
    ///   - body: the message body (an FLV audio tag body).
    ///   - timestamp: the RTMP timestamp in milliseconds.
    func sendAudio(_ body: FLVAudioTagBody, timestamp: UInt32) async throws
    /// Sends `@setDataFrame` `onMetaData`.
    /// - Parameter metadata: the stream's properties.
    func sendMetadata(_ metadata: AMF0Object) async throws
    /// Ends the publish politely (FCUnpublish, deleteStream) and closes the connection.
    func unpublish() async
    /// Closes the connection at once (after it failed).
    func abandon()
}

/// Opens a publishing session: the TCP connection, the handshake, connect (with `fourCcList` for Enhanced
/// RTMP), releaseStream, FCPublish, createStream, publish.
typealias RTMPPublishSessionFactory = @Sendable () async throws -> any RTMPPublishSession
