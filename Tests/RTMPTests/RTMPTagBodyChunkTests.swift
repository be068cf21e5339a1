import Bitstream
import CAllocationCounter
import Containers
import Testing
import Transport

/// `RTMPChunkStreamWriter.write(_:type:…)`: an FLV tag body cut into chunks straight from its header and its
/// payload's view writes the very bytes the message path writes for the body put together first (every chunk
/// size, every header form, extended timestamps), and costs no allocation per picture once its buffers exist.
@Suite("RTMP chunks from FLV tag bodies")
struct RTMPTagBodyChunkTests {
    /// Bodies of every header form: legacy AVC (5 bytes), Enhanced RTMP `hvc1` CodedFrames (8) and
    /// CodedFramesX (5), a sequence end with no payload, and AAC (2).
    static func videoBodies(payloadBytes: Int) -> [FLVVideoTagBody] {
        let payload = ByteView((0..<payloadBytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        return [
            FLVVideoTagBody(frameType: .keyFrame, codec: .legacy(codecID: 7), packetType: .codedFrames, compositionTimeOffset: 66, payload: payload),
            FLVVideoTagBody(frameType: .interFrame, codec: .legacy(codecID: 7), packetType: .codedFrames, compositionTimeOffset: -33, payload: payload),
            FLVVideoTagBody(frameType: .interFrame, codec: .enhanced(.hvc1), packetType: .codedFrames, compositionTimeOffset: 100, payload: payload),
            FLVVideoTagBody(frameType: .interFrame, codec: .enhanced(.hvc1), packetType: .codedFramesX, payload: payload),
            FLVVideoTagBody(frameType: .keyFrame, codec: .legacy(codecID: 7), packetType: .sequenceEnd, payload: ByteView()),
        ]
    }

    @Test("the same chunks as the message of the body's bytes", arguments: [1, 2, 3, 7, 128, 4096])
    func sameChunksAsTheMessagePath(chunkSize: Int) throws {
        var direct = RTMPChunkStreamWriter(), viaMessage = RTMPChunkStreamWriter()
        direct.chunkSize = chunkSize
        viaMessage.chunkSize = chunkSize
        let audio = FLVAudioTagBody.aac(.raw, payload: ByteView([UInt8](repeating: 0x21, count: 300)))
        // Timestamps that give formats 0 (first, and back in time), 1, 2 and 3, and extended ones.
        let timestamps: [UInt32] = [0, 33, 66, 99, 99, 50, 0xFF_FFFE, 0x100_0020, 0x100_0040, 0x100_0060]
        var expected: [UInt8] = [], written: [UInt8] = []
        for (index, timestamp) in timestamps.enumerated() {
            for body in Self.videoBodies(payloadBytes: 10 + index * 97) {
                viaMessage.write(RTMPMessage(type: .video, streamID: 1, timestamp: timestamp, payload: ByteView(try body.bytes())),
                                 chunkStreamID: 6, into: &expected)
                try direct.write(body, type: .video, streamID: 1, timestamp: timestamp, chunkStreamID: 6, into: &written)
            }
            viaMessage.write(RTMPMessage(type: .audio, streamID: 1, timestamp: timestamp, payload: ByteView(try audio.bytes())),
                             chunkStreamID: 4, into: &expected)
            try direct.write(audio, type: .audio, streamID: 1, timestamp: timestamp, chunkStreamID: 4, into: &written)
        }
        #expect(written.count == expected.count)
        #expect(written == expected, "chunk size \(chunkSize): first difference at byte \(zip(written, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
    }

    @Test("a header FLV cannot hold is refused and nothing is written")
    func unrepresentableHeader() {
        var writer = RTMPChunkStreamWriter()
        var output: [UInt8] = [1, 2, 3]
        let body = FLVVideoTagBody(frameType: .keyFrame, codec: .legacy(codecID: 7), packetType: .codedFrames, compositionTimeOffset: 1 << 23,
                                   payload: ByteView([0, 0, 0, 1, 0x65]))
        #expect(throws: FLVError.self) { try writer.write(body, type: .video, streamID: 1, timestamp: 0, chunkStreamID: 6, into: &output) }
        #expect(output == [1, 2, 3])
    }

    @Test("no allocation per picture once the writer and the output have grown")
    func noAllocationPerPicture() throws {
        var writer = RTMPChunkStreamWriter()
        writer.chunkSize = 4096
        let bodies = Self.videoBodies(payloadBytes: 20_000)
        var output: [UInt8] = []
        output.reserveCapacity(64 * 1024)
        for (index, body) in bodies.enumerated() {
            try writer.write(body, type: .video, streamID: 1, timestamp: UInt32(index), chunkStreamID: 6, into: &output)
        }
        // Each body 100 times over (walking the array of bodies itself allocates in a debug build: it stays
        // outside the counted part).
        var allocations = 0
        for (index, body) in bodies.enumerated() {
            let before = streamkit_thread_allocation_count()
            for round in 0..<100 {
                output.removeAll(keepingCapacity: true)
                try writer.write(body, type: .video, streamID: 1, timestamp: UInt32(100 + round * 40 + index), chunkStreamID: 6, into: &output)
            }
            let after = streamkit_thread_allocation_count()
            guard before >= 0 else {
                Issue.record("the allocation counter is not available in this build (sanitizer or non-glibc)")
                return
            }
            allocations += after - before
        }
        #expect(allocations == 0, "\(allocations) allocations for \(100 * bodies.count) pictures")
        #expect(output.count > 0)
    }
}
