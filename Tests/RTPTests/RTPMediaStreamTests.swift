import Bitstream
import Foundation
import MediaCore
import RTP
import Testing
import TestSupport

/// ``RTPMediaStream`` as a user writes it: encoded frames in, RTP packets and RTCP out; our receiver gets the
/// same access units, and the sender reports put every frame at its own wallclock time (RFC 3550 §6.4.1).
@Suite struct RTPMediaStreamTests {
    static let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E, 0xDA, 0x02, 0x80, 0xBF, 0xE5]
    static let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
    static let start = NTPTimestamp(unixSeconds: 1_700_000_000, nanoseconds: 250_000_000)

    /// Six frames at 30 fps, IDR at 0 and 3, each 4000 bytes (FU-A fragments).
    static func frames() -> [EncodedFrame] {
        let format = FormatDescription(codec: .h264, width: 640, height: 360, profileLevel: .h264Baseline,
                                       parameterSets: [sps, pps], nalUnitLengthSize: 4)
        return (0..<6).map { index in
            let header: UInt8 = index % 3 == 0 ? 0x65 : 0x41
            let data: [UInt8] = [0, 0, 0x0F, 0xA1, header] + [UInt8](repeating: UInt8(index), count: 4000)
            let time = MediaTime(value: Int64(index), timescale: 30)
            return EncodedFrame(data: data, isKeyFrame: index % 3 == 0, pts: time, dts: time,
                                duration: MediaTime(value: 1, timescale: 30), format: format)
        }
    }

    @Test func framesBecomePacketsOurReceiverRebuildsAndReportsThatTimeThem() throws {
        let frames = Self.frames()
        // Sender: the sequence number and the timestamp wrap within the run.
        var stream = try RTPMediaStream(video: frames[0].format,
                                        state: RTPSenderState(payloadType: 96, ssrc: 0xCAFE_F00D, sequenceNumber: 65_530,
                                                              timestampOffset: 0xFFFF_F000),
                                        referenceTime: Self.start)
        stream.reportInterval = MediaTime(value: 1, timescale: 10)
        var datagrams: [[UInt8]] = []
        var reports: [(packetsBefore: Int, bytes: [UInt8])] = []
        for frame in frames {
            try stream.send(frame) { datagrams.append(Array($0)) }
            if let report = try stream.reportIfDue(at: frame.pts) { reports.append((datagrams.count, report)) }
        }

        // Receiver.
        var receiver = RTPVideoReceiver(codec: .h264)
        var units: [RTPAccessUnit] = []
        for datagram in datagrams {
            try receiver.receive(ByteView(datagram)) { if case .frame(let unit) = $0 { units.append(unit) } }
        }
        receiver.finish { if case .frame(let unit) = $0 { units.append(unit) } }
        let expected = frames.map { frame -> [UInt8] in
            let picture = AnnexB.startCode + frame.data.dropFirst(4)
            return frame.isKeyFrame ? AnnexB.startCode + Self.sps + AnnexB.startCode + Self.pps + picture : picture
        }
        #expect(units.map(\.annexB) == expected)
        #expect(receiver.statistics.framesGood == 6 && receiver.statistics.framesLost == 0)

        // Reports at frames 0 and 3 (0.1 s apart), counting what was sent before them.
        #expect(reports.count == 2)
        var clock = MediaClock(clockRate: 90_000)
        for (number, report) in reports.enumerated() {
            let compound = try RTCPCompoundPacket(parsing: report.bytes)
            let sr = try #require(compound.senderReports.first)
            #expect(sr.ssrc == 0xCAFE_F00D && compound.canonicalName(of: sr.ssrc) == "streamkit")
            #expect(Int(sr.packetCount) == report.packetsBefore)
            let octets = datagrams.prefix(report.packetsBefore).reduce(0) { $0 + $1.count - RTPPacket.fixedHeaderSize }
            #expect(Int(sr.octetCount) == octets)
            #expect(sr.rtpTimestamp == units[number * 3].timestamp, "the SR's RTP time is that of the frame it was taken at")
            clock.record(sr)
            // Every frame, mapped through this report, lands at its own time after the reference (±1 µs).
            for (index, unit) in units.enumerated() {
                let nanoseconds = try #require(clock.nanoseconds(of: unit.timestamp, since: Self.start))
                #expect(abs(nanoseconds - Int64(index) * 1_000_000_000 / 30) <= 1_000, "frame \(index) via report \(number)")
            }
        }
        #expect(units[1].timestamp &- units[0].timestamp == 3000 && units[0].timestamp == 0xFFFF_F000)

        // The goodbye: SR at the last frame, SDES, BYE of this SSRC (RFC 3550 §6.6).
        let goodbye = try RTCPCompoundPacket(parsing: stream.goodbyePacket())
        guard case .senderReport(let last)? = goodbye.packets.first, case .goodbye(let bye)? = goodbye.packets.last else {
            throw TestFailure("not SR … BYE: \(goodbye.packets)")
        }
        #expect(last.rtpTimestamp == units[5].timestamp && Int(last.packetCount) == datagrams.count)
        #expect(bye.ssrcs == [0xCAFE_F00D])
    }

    @Test func audioStreamsRunOnTheSampleClockAndRefuseVideo() throws {
        let format = AudioFormatDescription(codec: .aac, sampleRate: 48_000, channelCount: 2, profile: "LC",
                                            audioSpecificConfig: [0x11, 0x90], samplesPerFrame: 1024)
        var stream = try RTPMediaStream(audio: format, state: RTPSenderState(payloadType: 97, ssrc: 7, sequenceNumber: 0, timestampOffset: 100),
                                        referenceTime: Self.start)
        var datagrams: [[UInt8]] = []
        for index in 0..<3 {
            let frame = EncodedAudioFrame(data: [UInt8](repeating: 0x21, count: 300), pts: MediaTime(value: Int64(index * 1024), timescale: 48_000),
                                          duration: MediaTime(value: 1024, timescale: 48_000), format: format)
            try stream.send(frame) { datagrams.append(Array($0)) }
        }
        let timestamps = try datagrams.map { try RTPPacket(parsing: ByteView($0)).timestamp }
        #expect(timestamps == [100, 1124, 2148])
        let sr = stream.senderReport(at: MediaTime(value: 2048, timescale: 48_000))
        #expect(sr.rtpTimestamp == 2148 && sr.packetCount == 3 && sr.octetCount == UInt32(datagrams.reduce(0) { $0 + $1.count - 12 }))
        #expect(abs(sr.ntpTimestamp.nanoseconds(since: Self.start) - 42_666_666) <= 1)
        #expect(throws: RTPPacketizerError.streamKindMismatch) {
            try stream.send(Self.frames()[0]) { _ in }
        }
    }
    @Test("A key frame whose format has other parameter sets (the stream's parameters changed) sends its own SPS/PPS in-band from then on, not the ones the stream opened with")
    func changedParameterSetsGoInBand() throws {
        let first = Self.frames()
        // Another publisher: 640x360 High, its own SPS and PPS.
        let highSPS: [UInt8] = [0x67, 0x64, 0x00, 0x1E, 0xAC, 0xD9, 0x40, 0xA0, 0x2F, 0xF9, 0x70]
        let highPPS: [UInt8] = [0x68, 0xEB, 0xE3, 0xCB, 0x22, 0xC0]
        let changed = FormatDescription(codec: .h264, width: 640, height: 360, profileLevel: .h264High,
                                        parameterSets: [highSPS, highPPS], nalUnitLengthSize: 4)
        let later = first.map { frame in
            EncodedFrame(data: frame.data, isKeyFrame: frame.isKeyFrame, pts: frame.pts + MediaTime(value: 6, timescale: 30), dts: frame.dts + MediaTime(value: 6, timescale: 30),
                         duration: frame.duration, format: changed)
        }
        var stream = try RTPMediaStream(video: first[0].format, state: RTPSenderState(payloadType: 96, ssrc: 7), referenceTime: Self.start)
        var datagrams: [[UInt8]] = []
        for frame in first + later { try stream.send(frame) { datagrams.append(Array($0)) } }
        var receiver = RTPVideoReceiver(codec: .h264)
        var units: [RTPAccessUnit] = []
        for datagram in datagrams {
            try receiver.receive(ByteView(datagram)) { if case .frame(let unit) = $0 { units.append(unit) } }
        }
        receiver.finish { if case .frame(let unit) = $0 { units.append(unit) } }
        let keyUnits = units.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        func carries(_ unit: RTPAccessUnit, _ set: [UInt8]) -> Bool { unit.nalUnits.contains { Array($0) == set } }
        #expect(units.count == 12)
        #expect(keyUnits.count == 4)
        #expect(keyUnits.prefix(2).allSatisfy { carries($0, Self.sps) && carries($0, Self.pps) && !carries($0, highSPS) })
        #expect(keyUnits.suffix(2).allSatisfy { carries($0, highSPS) && carries($0, highPPS) && !carries($0, Self.sps) },
                "the new publisher's IDRs carry its SPS/PPS")
    }
}
