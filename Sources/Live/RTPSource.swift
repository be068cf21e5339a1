import Bitstream
import Foundation
import POSIX
import RTP
import Synchronization
import Transport

/// A stream received as plain RTP on the ports an SDP file names (RFC 8866 §5.14: each media section's port for
/// RTP, the next one for RTCP unless `a=rtcp` says otherwise, RFC 3550 §11) — what `ffmpeg -f rtp` and
/// `streamkit stream` send — as a source a ``LivePipeline`` records or serves again. Like ``RTSPSource``: each packet
/// parsed once, pictures in AVCC form with their parameter sets, AAC frames, times on the sender reports' clock,
/// receiver reports sent to the port after the one the sender's RTP comes from, ``statistics`` as a value.
///
/// ```swift
/// let pipeline = LivePipeline(source: RTPSource(sdpFile: "stream.sdp"))
/// pipeline.add(MP4FileDestination(path: "stream.mp4"), options: .recording())
/// ```
public final class RTPSource: EncodedMediaSource {
    private struct State {
        var sockets: [UDPSocket] = []
        var tasks: [Task<Void, Never>] = []
        var continuation: AsyncStream<RTSPMediaPacket>.Continuation?
        var senders: [Int: SocketAddress] = [:]
        var stopped = false
    }

    /// The SDP file's path, or the name given with the description.
    public let name: String
    /// The tracks taken.
    public var tracks: ReceivedTracks { received.tracks }
    /// The receiver's limits.
    public var configuration: RTPSessionReceiver.Configuration { received.configuration }
    private let description: SessionDescription?

    private let received: ReceivedRTPSession.Holder
    private let state = Mutex(State())

    /// A source for an SDP file, read in ``open()``.
    /// - Parameters:
    ///   - path: the `.sdp` file.
    ///   - tracks: the tracks to take (both by default).
    ///   - configuration: the receiver's windows and limits.
    public init(sdpFile path: String, tracks: ReceivedTracks = .all,
                configuration: RTPSessionReceiver.Configuration = RTPSessionReceiver.Configuration()) {
        name = path
        description = nil
        received = ReceivedRTPSession.Holder(tracks: tracks, configuration: configuration)
    }

    /// A source for a session description already parsed.
    /// - Parameters:
    ///   - description: the SDP.
    ///   - name: a name for logs.
    ///   - tracks: the tracks to take (both by default).
    ///   - configuration: the receiver's windows and limits.
    public init(description: SessionDescription, name: String = "rtp", tracks: ReceivedTracks = .all,
                configuration: RTPSessionReceiver.Configuration = RTPSessionReceiver.Configuration()) {
        self.name = name
        self.description = description
        received = ReceivedRTPSession.Holder(tracks: tracks, configuration: configuration)
    }

    /// What the source saw so far: frames good, lost and withheld; packets, jitter, A/V offset.
    public var statistics: ReceivedStreamStatistics { received.statistics }

    /// Reads the SDP and binds the ports of the tracks taken; returns once the formats are known (at once when the
    /// SDP carries the parameter sets, else at the first ones received in band).
    /// - Returns: the formats.
    /// - Throws: ``LiveSourceError``: `.unavailable` for an unreadable file or a port in use, `.malformed` for an
    ///   SDP that does not parse, `.unsupported` without H.264/H.265/AAC.
    public func open() async throws(LiveSourceError) -> LiveStreamDescription {
        let description: SessionDescription
        if let given = self.description {
            description = given
        } else {
            let text: String
            do { text = try String(contentsOfFile: name, encoding: .utf8) } catch {
                throw LiveSourceError(source: name, kind: .unavailable, reason: "\(error.localizedDescription)")
            }
            do throws(SDPError) { description = try SessionDescription(parsing: text) } catch {
                throw LiveSourceError(source: name, kind: .malformed, reason: error.description)
            }
        }
        let receiver = try received.receiver(for: description, source: name)
        let (packets, continuation) = AsyncStream.makeStream(of: RTSPMediaPacket.self, bufferingPolicy: .bufferingOldest(8192))
        let host = description.connection?.address ?? "0.0.0.0"
        let family: SocketAddress.Family = host.contains(":") ? .ipv6 : .ipv4
        var controlSockets: [Int: UDPSocket] = [:]
        do throws(TransportError) {
            let loop = try EventLoop()
            received.loop = loop
            state.withLock { $0.continuation = continuation }
            for track in [receiver.video, receiver.audio].compactMap({ $0 }) {
                let media = description.media[track.index]
                for (offset, isControl) in [(0, false), (1, true)] {
                    guard let port = UInt16(exactly: media.port + offset), port > 0 else { continue }
                    let socket = try UDPSocket(bindingTo: .any(family, port: port), on: loop)
                    if isControl, media.attribute("rtcp") == nil { controlSockets[track.index] = socket }
                    let index = track.index
                    let task = Task { [weak self] in
                        while let datagram = try? await socket.receive() {
                            if !isControl { self?.state.withLock { $0.senders[index] = datagram.sender } }
                            continuation.yield(RTSPMediaPacket(track: index, isControl: isControl, bytes: ByteView(datagram.bytes)))
                        }
                    }
                    state.withLock { $0.sockets.append(socket); $0.tasks.append(task) }
                }
            }
        } catch {
            await stop()
            throw LiveSourceError(source: name, kind: .unavailable, reason: "\(error)")
        }
        let reportSockets = controlSockets
        let session = ReceivedRTPSession(name: name, receiver: receiver, link: .init(packets: packets) { [weak self] bytes, track in
            // RFC 3550 §11: the sender's RTCP port is the one after its RTP port.
            guard let socket = reportSockets[track], var destination = self?.state.withLock({ $0.senders[track] }),
                  destination.port < UInt16.max else { return }
            destination.port += 1
            try? await socket.send(bytes, to: destination)
        })
        received.session = session
        return try await session.open()
    }

    /// The next picture or audio frame.
    /// - Returns: the frame, or `nil` once ``stop()`` was called and everything held was handed on.
    public func next() async throws(LiveSourceError) -> EncodedMedia? {
        await received.next()
    }

    /// Closes the ports; a pending ``next()`` returns what was held, then `nil`.
    public func stop() async {
        let (sockets, tasks, continuation) = state.withLock { state in
            state.stopped = true
            return (state.sockets, state.tasks, state.continuation)
        }
        for task in tasks { task.cancel() }
        for socket in sockets { socket.close() }
        continuation?.finish()
    }
}
