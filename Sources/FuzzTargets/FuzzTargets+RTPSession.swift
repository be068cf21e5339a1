import Bitstream
import MediaCore
import RTP

extension FuzzTargets {
    /// ``RTPSessionReceiver``: the input is cut into datagrams, each prefixed by a length byte and a flags byte (bit 0:
    /// the audio track, else the video; bit 1: RTCP, else RTP; bits 2–7: the arrival step in milliseconds). Every
    /// datagram goes to one H.264 + AAC session with small caps and a short synchronization hold. It must never trap;
    /// every frame handed on keeps its caps and its times are on the track's timescale; the counts add up.
    static func rtpSession(_ bytes: [UInt8]) {
        let input = ByteView(bytes)
        let audioFormat = AudioFormatDescription(codec: .aac, sampleRate: 48_000, channelCount: 2, profile: "LC",
                                                 audioSpecificConfig: [0x11, 0x90])
        var configuration = RTPSessionReceiver.Configuration()
        configuration.reorderWindow = 8
        configuration.maximumAccessUnitSize = 4096
        configuration.maximumNALUnitCount = 16
        configuration.maximumHeldFrames = 32
        configuration.synchronizationHold = .milliseconds(200)
        guard var receiver = try? RTPSessionReceiver(
            video: RTPSessionTrack(index: 0, payloadType: 96, clockRate: 90_000, media: .video(.h264, nil)),
            audio: RTPSessionTrack(index: 1, payloadType: 97, clockRate: 48_000,
                                   media: .audio(audioFormat, SDPMPEG4GenericParameters(aacHighBitRate: [0x11, 0x90]))),
            configuration: configuration) else { preconditionFailure("a valid session was refused") }
        var videoFrames = 0, audioFrames = 0
        let check: (RTPSessionEvent) -> Void = { event in
            switch event {
            case let .video(unit, pts):
                precondition(unit.nalUnits.count <= 16 && unit.nalUnits.reduce(0) { $0 + $1.count } <= 4096, "access unit caps exceeded")
                precondition(pts.timescale == 90_000, "video pts off the 90 kHz timescale")
                videoFrames += 1
            case let .audio(_, pts):
                precondition(pts.timescale == 48_000, "audio pts off the sample-rate timescale")
                audioFrames += 1
            case .videoLost, .videoWithheld, .audioLost:
                break
            }
        }
        var offset = 0, datagrams = 0
        var arrival = Duration.zero
        while offset + 2 <= input.count, datagrams < 256 {
            let length = Int(input[offset]), flags = input[offset + 1]
            offset += 2
            guard let datagram = input.getView(at: offset, byteCount: min(length, input.count - offset)) else { break }
            offset += datagram.count
            datagrams += 1
            arrival += .milliseconds(Int(flags >> 2))
            let track = Int(flags & 1)
            if flags & 2 != 0 {
                receiver.receiveControl(datagram, track: track, arrival: arrival, check)
            } else {
                receiver.receive(datagram, track: track, arrival: arrival, check)
            }
        }
        receiver.finish(check)
        let statistics = receiver.statistics
        precondition(statistics.video?.framesGood == videoFrames, "video frames handed on ≠ counted")
        precondition(statistics.audio?.framesGood == audioFrames, "audio frames handed on ≠ counted")
        precondition(statistics.datagramsParsed <= datagrams, "more parses than datagrams")
    }
}
