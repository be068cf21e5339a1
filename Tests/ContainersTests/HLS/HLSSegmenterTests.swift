import Containers
import MediaCore
import Testing
import TestSupport

/// The cut policy: a segment ends at the first key frame at or after the target duration.
@Suite struct HLSSegmenterTests {
    @Test("Frames before the first key frame are skipped; cuts come at the first key frame at or after 2 s")
    func cuts() {
        var segmenter = HLSSegmenter(targetDuration: MediaTime(value: 2, timescale: 1))
        // 25 fps, key frames every 15 frames (0.6 s), starting mid-GOP at frame 10.
        var decisions: [HLSSegmenter.Decision] = []
        for frame in 10..<120 {
            decisions.append(segmenter.decision(forFrameAt: MediaTime(value: Int64(frame), timescale: 25), isKeyFrame: frame % 15 == 0))
        }
        #expect(decisions.prefix(5).allSatisfy { $0 == .skipBeforeFirstKeyFrame })
        #expect(decisions[5] == .startFirstSegment) // frame 15
        // 15 + 50 = 65 is not a key frame: the first at or after is 75 (2.4 s), then 75 + 50 → 135 (not reached).
        let cuts = decisions.enumerated().compactMap { index, decision -> (Int, MediaTime)? in
            if case let .startNewSegment(finished) = decision { return (index + 10, finished) }
            return nil
        }
        #expect(cuts.map(\.0) == [75])
        #expect(cuts.first?.1 == MediaTime(value: 60, timescale: 25))
        #expect(segmenter.segmentCount == 2)
    }

    @Test("Random streams: every segment starts with a key frame, is at least the target (but the last), and contains no key frame at or past the target",
          arguments: [1, 2, 3, 4])
    func properties(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let target = MediaTime(value: Int64(1 + random.next() % 3), timescale: 1)
        var segmenter = HLSSegmenter(targetDuration: target)
        var segments: [[(time: MediaTime, key: Bool)]] = []
        for index in 0..<2000 {
            let frame = (time: MediaTime(value: Int64(index) * 3003, timescale: 90_000), key: index == 0 || random.next() % 20 == 0)
            switch segmenter.decision(forFrameAt: frame.time, isKeyFrame: frame.key) {
            case .startFirstSegment, .startNewSegment: segments.append([frame])
            case .continueSegment: segments[segments.count - 1].append(frame)
            case .skipBeforeFirstKeyFrame: Issue.record("frame \(index) skipped after a key frame")
            }
        }
        for (index, segment) in segments.enumerated() {
            #expect(segment[0].key)
            let start = segment[0].time
            #expect(!segment.dropFirst().contains { $0.key && !($0.time - start < target) })
            if index + 1 < segments.count { #expect(!(segments[index + 1][0].time - start < target)) }
        }
    }
}
