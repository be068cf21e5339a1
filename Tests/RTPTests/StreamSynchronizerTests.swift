import MediaCore
import RTP
import Testing

/// The common clock on made-up sender reports: 90 kHz video and 48 kHz audio, across the 32-bit wrap.
@Suite struct StreamSynchronizerTests {
    @Test func placesAudioAndVideoOnOneClockAcrossTheWrap() {
        let start = NTPTimestamp(unixSeconds: 1_800_000_000, nanoseconds: 0)
        // Video's RTP clock wraps 1 s after its report; audio's starts near zero.
        let videoBase: UInt32 = 0xFFFF_FFFF - 90_000 + 1
        let audioBase: UInt32 = 1_000
        var sync = StreamSynchronizer()
        sync.addStream(ssrc: 1, clockRate: 90_000)
        sync.addStream(ssrc: 2, clockRate: 48_000)
        #expect(sync.presentationTime(ssrc: 1, rtpTimestamp: videoBase) == .awaitingSenderReport)
        #expect(sync.presentationTime(ssrc: 3, rtpTimestamp: 0) == .unknownStream)
        sync.record(RTCPSenderReport(ssrc: 1, ntpTimestamp: start, rtpTimestamp: videoBase, packetCount: 0, octetCount: 0))
        // Audio's report comes 0.25 s later on the wallclock.
        let later = NTPTimestamp(unixSeconds: 1_800_000_000, nanoseconds: 250_000_000)
        sync.record(RTCPSenderReport(ssrc: 2, ntpTimestamp: later, rtpTimestamp: audioBase, packetCount: 0, octetCount: 0))
        for second in 0..<5 {
            let video = videoBase &+ UInt32(second * 90_000)            // wraps after the first second
            let audio = audioBase &+ UInt32(second * 48_000) &- 12_000  // 0.25 s of audio before its report
            #expect(sync.presentationTime(ssrc: 1, rtpTimestamp: video) == .placed(MediaTime(value: Int64(second) * 90_000, timescale: 90_000)))
            #expect(sync.presentationTime(ssrc: 2, rtpTimestamp: audio, timescale: 48_000)
                    == .placed(MediaTime(value: Int64(second) * 48_000, timescale: 48_000)))
        }
        // Before the reference: negative times.
        #expect(sync.presentationTime(ssrc: 1, rtpTimestamp: videoBase &- 9_000) == .placed(MediaTime(value: -9_000, timescale: 90_000)))
        let clock = sync.clock(of: 1)
        #expect(clock?.ntpTime(of: videoBase &+ 90_000)?.nanoseconds(since: start) == 1_000_000_000)
    }
}
