import Containers

/// Which kind of media message a publisher sends (the FLV tag types, E.4.1: 8 audio, 9 video).
enum RTMPPublishMessageKind: Sendable {
    /// An audio message (FLV AUDIODATA).
    case audio
    /// A video message (FLV VIDEODATA, legacy or Enhanced RTMP).
    case video
}

/// One RTMP connection in the publishing state (after connect, createStream and publish), as the publisher
/// uses it: send media and data messages on the published stream, and leave.
protocol RTMPPublishSession: Sendable {
    /// Sends one media message on the published stream, and returns once the connection's send buffer is
    /// short enough that the backlog of a slow link waits in the publisher's queue (where it can be dropped)
    /// rather than in the socket's.
    /// - Parameters:
    ///   - kind: audio or video.
    ///   - timestamp: the RTMP timestamp in milliseconds.
    ///   - body: the message body (an FLV tag body).
    func send(_ kind: RTMPPublishMessageKind, timestamp: UInt32, body: [UInt8]) async throws
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
