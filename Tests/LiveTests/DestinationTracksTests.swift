import Foundation
import StreamKit
import Synchronization
import Testing
import TestSupport

/// A destination takes the tracks it says it takes (``LiveDestination/tracks``): an `.aac` file gets no picture and
/// an Annex B file no audio frame — neither queued for it nor counted in its statistics — and each gets every frame
/// of its own track, as ffprobe counts them in the file.
@Suite(.enabled(if: LiveTestSupport.toolsAvailable))
struct DestinationTracksTests {
    @Test(.timeLimit(.minutes(10)))
    func anElementaryStreamFileGetsAndCountsItsOwnTrackAlone() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let (aac, h264) = (directory.appendingPathComponent("o.aac").path, directory.appendingPathComponent("o.h264").path)
        let frames = 20
        let pipeline = try LiveTestSupport.filePipeline(frames: frames)
        let audioOnly = TrackRecordingDestination(ADTSFileDestination(path: aac))
        let videoOnly = TrackRecordingDestination(AnnexBFileDestination(path: h264))
        pipeline.add(audioOnly, options: .recording())
        pipeline.add(videoOnly, options: .recording())
        let report = try await pipeline.run()
        let (toAAC, toH264) = (report.destinations[0], report.destinations[1])
        #expect(toAAC.failure == nil && toH264.failure == nil, "\(report)")

        // Neither queued nor counted: the destination's own `send` never saw the other track.
        #expect(toAAC.videoFramesSent == 0 && audioOnly.received.video == 0, "\(report)")
        #expect(toH264.audioFramesSent == 0 && videoOnly.received.audio == 0, "\(report)")
        #expect(toH264.videoFramesSent == frames && videoOnly.received.video == frames, "\(report)")
        #expect(try await LiveTestSupport.videoFrameCount(h264) == frames)
        if LiveTestSupport.encodesAudio {
            #expect(toAAC.audioFramesSent == report.audioFramesEncoded && toAAC.audioFramesSent > 0, "\(report)")
            #expect(audioOnly.received.audio == toAAC.audioFramesSent)
            #expect(try await LiveTestSupport.packetCount(aac, stream: "a") == toAAC.audioFramesSent, "every AAC frame counted is in the file")
        }
    }

    /// An Annex B file of a stream without video gets nothing to open it with; it still refuses the stream by name,
    /// as it did when the audio frames reached it.
    @Test(.enabled(if: LiveTestSupport.encodesAudio), .timeLimit(.minutes(5)))
    func aDestinationWhoseTrackTheStreamLacksFails() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let (aac, h264) = (directory.appendingPathComponent("o.aac").path, directory.appendingPathComponent("o.h264").path)
        var configuration = LiveConfiguration(video: LiveTestSupport.video())
        configuration.durationLimit = 1
        let pipeline = LivePipeline(video: nil, audio: try SyntheticMicrophone(realTime: false), configuration: configuration)
        pipeline.add(AnnexBFileDestination(path: h264), options: .recording())
        pipeline.add(ADTSFileDestination(path: aac), options: .recording())
        let report = try await pipeline.run()
        #expect(report.destinations[0].failure == "\(LiveDestinationError.missingTrack("video", destination: h264))", "\(report)")
        #expect(report.destinations[0].audioFramesSent == 0, "\(report)")
        #expect(report.destinations[1].failure == nil && report.destinations[1].audioFramesSent == report.audioFramesEncoded, "\(report)")
        #expect(try await LiveTestSupport.packetCount(aac, stream: "a") == report.destinations[1].audioFramesSent)
    }

    @Test func destinationsSayWhichTracksTheyTake() throws {
        let directory = try ExternalTool.temporaryDirectory()
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        #expect(ADTSFileDestination(path: path("a.aac")).tracks == .audio)
        #expect(AnnexBFileDestination(path: path("v.h264")).tracks == .video)
        #expect(Y4MFileDestination(path: path("v.y4m")).tracks == .video)
        #expect(MP4FileDestination(path: path("v.mp4")).tracks == .all)
        #expect(try LiveDestinations.destination(for: path("o.aac")).tracks == .audio)
        #expect(try LiveDestinations.destination(for: path("o.h264")).tracks == .video)
    }
}

/// A destination that counts, per track, the frames its `send` was given, then passes them to another.
private final class TrackRecordingDestination: LiveDestination {
    let inner: any LiveDestination
    private let counts = Mutex((video: 0, audio: 0))
    var name: String { inner.name }
    var isLive: Bool { inner.isLive }
    var tracks: LiveTracks { inner.tracks }

    /// The frames `send` was given, per track.
    var received: (video: Int, audio: Int) { counts.withLock { $0 } }

    init(_ inner: any LiveDestination) {
        self.inner = inner
    }

    func open(_ stream: LiveStreamDescription) async throws { try await inner.open(stream) }

    func send(_ media: OutgoingMedia) async throws {
        counts.withLock { if media.isVideo { $0.video += 1 } else { $0.audio += 1 } }
        try await inner.send(media)
    }

    func finish() async throws { try await inner.finish() }
}
