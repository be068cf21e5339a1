import Foundation
import StreamKit
import Testing
import TestSupport

/// One pipeline into several recordings, a slow destination and a failing one, checked by ffprobe and ffmpeg; in
/// every build (the native engine encodes where FFmpeg is absent).
@Suite(.enabled(if: LiveTestSupport.toolsAvailable))
struct LivePipelineTests {
    /// The program a new user writes: the camera and microphone into an Annex B file, an ADTS file and a fragmented
    /// MP4 at once. Every file has every picture, and the MP4's pictures are the Annex B file's, picture for picture.
    @Test func oneEncoderFeedsSeveralRecordings() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let (h264, aac, mp4) = (directory.appendingPathComponent("x.h264").path, directory.appendingPathComponent("x.aac").path,
                                directory.appendingPathComponent("x.mp4").path)
        var configuration = LiveConfiguration(video: LiveTestSupport.video())
        configuration.frameLimit = 60
        let pipeline = LivePipeline(video: try SyntheticCamera(width: 128, height: 96, frameRate: 30, realTime: false),
                                    audio: try SyntheticMicrophone(realTime: false), configuration: configuration)
        pipeline.add(AnnexBFileDestination(path: h264), options: .recording())
        pipeline.add(MP4FileDestination(path: mp4), options: .recording())
        if LiveTestSupport.encodesAudio { pipeline.add(ADTSFileDestination(path: aac), options: .recording()) }
        let events = LiveTestSupport.collect(pipeline.events)
        let report = try await pipeline.run()
        let all = await events.value

        #expect(report.picturesCaptured == 60 && report.picturesEncoded == 60, "\(report)")
        #expect(report.destinations.map(\.videoFramesSent).prefix(2) == [60, 60], "\(report)")
        #expect(report.destinations.allSatisfy { $0.failure == nil && $0.framesDropped == 0 }, "\(report)")
        #expect(try await LiveTestSupport.videoFrameCount(h264) == 60)
        #expect(try await LiveTestSupport.videoFrameCount(mp4) == 60)
        #expect(try await LiveTestSupport.pictureHashes(mp4) == LiveTestSupport.pictureHashes(h264), "the same pictures in both files")
        if LiveTestSupport.encodesAudio {
            #expect(report.audioFramesEncoded > 0 && report.destinations[2].audioFramesSent == report.audioFramesEncoded)
            let streams = try await ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", mp4])
            #expect(streams.text.split(separator: "\n") == ["h264", "aac"], "\(streams.text)")
            let adts = try await ExternalTool.check("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", aac, "-f", "null", "-"])
            #expect(adts.standardError.isEmpty)
        } else {
            #expect(all.contains { if case .audioSkipped = $0 { return true } else { return false } },
                    "a build without an AAC encoder says it goes on with video alone")
        }
        #expect(all.contains { if case .ended = $0 { return true } else { return false } })
    }

    /// A destination whose link stalls loses whole frames nothing depends on (or group-of-pictures tails), each one
    /// reported, and what reaches it still decodes strictly; the recording beside it gets every picture meanwhile: the
    /// encoder never waits for the stalled one.
    @Test func aSlowDestinationDropsWithoutStallingTheOthers() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let (full, slow) = (directory.appendingPathComponent("full.h264").path, directory.appendingPathComponent("slow.h264").path)
        var configuration = LiveConfiguration(video: LiveTestSupport.video())
        configuration.frameLimit = 90
        let pipeline = LivePipeline(video: try SyntheticCamera(width: 128, height: 96, frameRate: 30, realTime: false), audio: nil,
                                    configuration: configuration)
        pipeline.add(AnnexBFileDestination(path: full), options: .recording())
        let stalled = StalledDestination(AnnexBFileDestination(path: slow))
        pipeline.add(stalled, options: DestinationOptions(queue: SendQueueLimits(maximumSeconds: 0.2)))
        let events = Task { () -> [LiveEvent] in
            var all: [LiveEvent] = []
            for await event in pipeline.events {
                all.append(event)
                if case let .dropped(name, _, _) = event, name == stalled.name { stalled.release() }  // the link comes back
            }
            return all
        }
        let report = try await pipeline.run()
        let all = await events.value

        let drops = all.compactMap { event -> MediaPosition? in
            if case let .dropped(name, position, _) = event, name == stalled.name { return position }
            return nil
        }
        #expect(report.destinations[0].videoFramesSent == 90 && report.destinations[0].framesDropped == 0, "\(report)")
        #expect(!drops.isEmpty, "a destination slower than the stream drops: \(report)")
        #expect(report.destinations[1].framesDropped == drops.count)
        #expect(report.destinations[1].videoFramesSent + drops.count == 90, "every picture is sent or reported: \(report)")
        #expect(try await LiveTestSupport.videoFrameCount(full) == 90)
        let received = try await LiveTestSupport.pictureHashes(slow)
        #expect(received.count == report.destinations[1].videoFramesSent, "what the slow destination got decodes, strictly")
    }

    /// A destination that fails is reported once, with its error, and finished; the others go on to the end.
    @Test func aFailingDestinationLeavesTheOthersAlone() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let path = directory.appendingPathComponent("kept.mp4").path
        var configuration = LiveConfiguration(video: LiveTestSupport.video())
        configuration.frameLimit = 45
        let pipeline = LivePipeline(video: try SyntheticCamera(width: 128, height: 96, frameRate: 30, realTime: false), audio: nil,
                                    configuration: configuration)
        let refusing = RefusingDestination()
        pipeline.add(refusing)
        pipeline.add(MP4FileDestination(path: path), options: .recording())
        let events = LiveTestSupport.collect(pipeline.events)
        let report = try await pipeline.run()
        let failures = await events.value.compactMap { event -> String? in
            if case let .destinationFailed(name, error) = event { return "\(name): \(error)" }
            return nil
        }
        #expect(failures == ["refusing: refused on purpose"])
        #expect(report.destinations[0].failure == "refused on purpose" && report.destinations[0].videoFramesSent == 0)
        #expect(refusing.finishes.load(ordering: .relaxed) == 1, "a failed destination is still finished (its sockets closed)")
        #expect(report.destinations[1].videoFramesSent == 45 && report.destinations[1].failure == nil)
        #expect(try await LiveTestSupport.videoFrameCount(path) == 45)
    }

    /// A configuration that does not fit the source is refused before anything starts.
    @Test func aSizeMismatchIsRefused() async throws {
        let pipeline = LivePipeline(video: try SyntheticCamera(width: 160, height: 120, realTime: false), audio: nil,
                                    configuration: LiveConfiguration(video: LiveTestSupport.video()))
        await #expect {
            _ = try await pipeline.run()
        } throws: { error in
            guard case .sizeMismatch(_, 160, 120, _) = error as? LiveError else { return false }
            return true
        }
        await #expect(throws: LiveError.self) { _ = try await pipeline.run() }
    }
}
