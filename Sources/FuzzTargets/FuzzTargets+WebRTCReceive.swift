import Bitstream
import RTP

extension FuzzTargets {
    /// A WHIP ingest's receiving half on hostile packets: the input is a run of records — one byte of elapsed
    /// milliseconds, two bytes of length, that many bytes of RTP packet — fed to a ``WebRTCMediaReceiver`` with H.264
    /// (payload type 96, rtx 97) and Opus (111) tracks, its small jitter buffers asked for NACKs, PLIs, releases and
    /// receiver reports after each. Each buffer must stay within its capacity and each NACK within its bound; every
    /// access unit handed on must be within the largest size and have NAL units.
    static func webrtcReceive(_ bytes: [UInt8]) {
        var configuration = WebRTCMediaReceiver.Configuration(maximumAccessUnitSize: 64 << 10)
        configuration.buffer = RTPNACKJitterBuffer.Configuration(capacity: 64, maximumDelay: .milliseconds(100), retryInterval: .milliseconds(20),
                                                                 maximumRequests: 3)
        var receiver = WebRTCMediaReceiver(tracks: [
            WebRTCMediaReceiver.Track(kind: "video", payloadType: 96, retransmissionPayloadType: 97, clockRate: 90000),
            WebRTCMediaReceiver.Track(kind: "audio", payloadType: 111, clockRate: 48000),
        ], configuration: configuration)
        var offset = 0
        var now = Duration.zero
        func check(_ output: WebRTCMediaReceiver.Output) {
            if case let .video(unit, _) = output {
                precondition(!unit.nalUnits.isEmpty, "WebRTC receive: an access unit without NAL units")
                precondition(unit.nalUnits.reduce(0) { $0 + $1.count } <= 64 << 10, "WebRTC receive: an access unit over the limit")
            }
        }
        while offset + 3 <= bytes.count {
            now += .milliseconds(Int(bytes[offset]))
            let length = Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            offset += 3
            let packet = Array(bytes[offset..<min(bytes.count, offset + length)])
            offset += length
            receiver.receive(ByteView(packet), at: now, check)
            for feedback in receiver.feedback(at: now, senderSSRC: 1) {
                if case let .genericNACK(nack) = feedback {
                    precondition(nack.lostSequenceNumbers.count <= RTCPFeedbackRequests.maximumLostPerSource, "WebRTC receive: NACK too long")
                }
            }
            receiver.advance(to: now, check)
            if let report = receiver.receiverReport(at: now, senderSSRC: 1) { _ = try? report.serialized() }
            for track in receiver.statistics.tracks.values {
                precondition(track.packets.received >= track.packets.duplicates + track.packets.late, "WebRTC receive: counts do not add up")
            }
        }
        receiver.finish(check)
        // The jitter buffer alone, the input as sequence numbers and times: held and missing stay within the capacity.
        var buffer = RTPNACKJitterBuffer(configuration: .init(capacity: 16, maximumDelay: .milliseconds(50)))
        var time = Duration.zero
        var index = 0
        while index + 2 < bytes.count {
            time += .milliseconds(Int(bytes[index] & 0x1F))
            let sequence = UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index + 2])
            buffer.insert(RTPPacket(marker: false, payloadType: 96, sequenceNumber: sequence, timestamp: 0, ssrc: 1, payload: ByteView()), at: time)
            _ = buffer.requests(at: time)
            while buffer.next(at: time) != nil {}
            precondition(buffer.heldPackets <= 16 && buffer.missingPackets <= 16, "NACK jitter buffer: over its capacity")
            index += 3
        }
        _ = buffer.drain()
        precondition(buffer.heldPackets == 0, "NACK jitter buffer: drain left packets")
    }
}
