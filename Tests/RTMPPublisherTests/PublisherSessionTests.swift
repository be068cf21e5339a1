import Containers
import MediaCore
import Synchronization
import Testing
@testable import Transport

/// A publishing session that records what the publisher sends, and can be made to fail.
final class RecordingSession: RTMPPublishSession {
    struct Sent: Sendable {
        var connection: Int
        var kind: String
        var timestamp: UInt32
        var body: [UInt8]
    }
    let connection: Int
    let log: Mutex<[Sent]>
    let failAfter: Atomic<Int>
    let unpublished = Atomic<Bool>(false)

    init(connection: Int, failAfter: Int = .max) {
        self.connection = connection
        log = Mutex([])
        self.failAfter = Atomic(failAfter)
    }

    struct Broken: Error {}

    func sendVideo(_ body: FLVVideoTagBody, timestamp: UInt32) async throws {
        try record("video", timestamp: timestamp, body: body.bytes())
    }

    func sendAudio(_ body: FLVAudioTagBody, timestamp: UInt32) async throws {
        try record("audio", timestamp: timestamp, body: body.bytes())
    }

    private func record(_ kind: String, timestamp: UInt32, body: [UInt8]) throws {
        if failAfter.subtract(1, ordering: .relaxed).newValue < 0 { throw Broken() }
        log.withLock { $0.append(Sent(connection: connection, kind: kind, timestamp: timestamp, body: body)) }
    }

    func sendMetadata(_ metadata: AMF0Object) async throws {
        log.withLock { $0.append(Sent(connection: connection, kind: "metadata", timestamp: 0, body: [])) }
    }

    func unpublish() async { unpublished.store(true, ordering: .relaxed) }
    func abandon() {}
}

@Suite("RTMP publisher: what goes on the wire, in which order", .needsRealTime)
struct PublisherSessionTests {
    static let url = try! RTMPURL(parsing: "rtmp://127.0.0.1:22999/live/key")

    /// Pictures with B-frames (decode order I P B P B …, pts reordered) at 30 fps, 90 kHz, dts starting one frame
    /// before zero as x264 writes them.
    static func reorderedPicture(_ index: Int) -> EncodedFrame {
        var frame = SyntheticMedia.picture(index, gop: 30, bytes: 50)
        let tick: Int64 = 3000
        let inGroup = index % 30
        let displayIndex: Int64 = inGroup == 0 ? Int64(index) : (inGroup % 2 == 1 ? Int64(index + 1) : Int64(index - 1))
        frame.dts = MediaTime(value: (Int64(index) - 1) * tick, timescale: 90_000)
        frame.pts = MediaTime(value: displayIndex * tick, timescale: 90_000)
        frame.duration = MediaTime(value: tick, timescale: 90_000)
        return frame
    }

    @Test("Metadata, sequence headers, then media by decode time from zero; a new connection gets them again at a key frame")
    func wireOrder() async throws {
        let sessions = Mutex<[RecordingSession]>([])
        let factory: RTMPPublishSessionFactory = {
            let session = sessions.withLock { list -> RecordingSession in
                let session = RecordingSession(connection: list.count, failAfter: list.isEmpty ? 40 : .max)
                list.append(session)
                return session
            }
            return session
        }
        var configuration = RTMPPublisherConfiguration(hasVideo: true, hasAudio: true, videoCodec: .h264, frameRate: 30)
        configuration.reconnectPolicy = ReconnectPolicy(initialDelay: 0.01, maximumDelay: 0.05)
        let publisher = try await RTMPPublisher.connect(url: Self.url, configuration: configuration, factory: factory)
        var audioIndex = 0
        for index in 0..<90 {
            try await publisher.send(Self.reorderedPicture(index))
            while Double(audioIndex) * 1024 / 48_000 < Double(index) / 30 {
                try await publisher.send(SyntheticMedia.audio(audioIndex))
                audioIndex += 1
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        let report = try await publisher.close()
        let all = sessions.withLock { $0 }
        #expect(all.count == 2, "one reconnection")
        #expect(report.reconnections == 1)
        #expect(all.last?.unpublished.load(ordering: .relaxed) == true, "close unpublishes")
        for session in all {
            let sent = session.log.withLock { $0 }
            #expect(sent.first?.kind == "metadata", "each connection starts with onMetaData")
            let media = sent.filter { $0.kind != "metadata" }
            #expect(zip(media, media.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp }, "timestamps never go back")
        }
        let first = all[0].log.withLock { $0 }.filter { $0.kind != "metadata" }
        #expect(first.first?.timestamp == 0, "timestamps start at zero")
        for session in all {
            let sent = session.log.withLock { $0 }
            let video = sent.filter { $0.kind == "video" }, audio = sent.filter { $0.kind == "audio" }
            // FLV E.4.3.1: 0x17 = key frame + AVC; AVCPacketType 0 = sequence header, 1 = NALUs.
            #expect(video.first.map { Array($0.body.prefix(2)) } == [0x17, 0x00], "an AVC sequence header first on each connection")
            #expect(video.dropFirst().first.map { Array($0.body.prefix(2)) } == [0x17, 0x01], "then a key frame")
            // E.4.2.1: 0xAF = AAC 44 kHz 16-bit stereo; AACPacketType 0 = AudioSpecificConfig.
            #expect(audio.first.map { Array($0.body.prefix(2)) } == [0xAF, 0x00], "an AAC sequence header first")
            // Composition times: pts − dts in milliseconds, SI24 at bytes 2–4.
            for message in video.dropFirst() where message.body.count > 5 {
                let raw = Int32(message.body[2]) << 16 | Int32(message.body[3]) << 8 | Int32(message.body[4])
                let cts = raw >= 1 << 23 ? raw - (1 << 24) : raw
                #expect([0, 33, 34, 66, 67].contains(cts), "B-frame composition time \(cts)")
            }
            #expect(video.contains { $0.body.count > 5 && [66, 67].contains($0.body[4]) }, "reordered pictures carry their offset")
        }
    }
}
