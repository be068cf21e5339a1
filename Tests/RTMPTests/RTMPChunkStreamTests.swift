import Bitstream
import Testing
@testable import Transport

/// The chunk stream (Adobe RTMP specification 1.0 §5.3) on bytes: what the writer cuts, the parser puts back together,
/// whatever the chunk size, the chunk streams, the timestamps (extended ones included) and the cuts of the input.
@Suite("RTMP chunk stream")
struct RTMPChunkStreamTests {
    static func messages(_ parser: inout RTMPChunkStreamParser) throws -> [RTMPMessage] {
        var out: [RTMPMessage] = []
        while let item = try parser.next() {
            if case let .message(message) = item { out.append(message) }
        }
        return out
    }

    static func sample(count: Int) -> [RTMPMessage] {
        var random = SplitMix64Bytes.make(count: count * 4, seed: 3).makeIterator()
        var timestamp: UInt32 = 0
        return (0..<count).map { index in
            let length = Int(random.next() ?? 0) * 37 % 9000
            let type: RTMPMessageType = [.video, .audio, .dataAMF0, .commandAMF0][index % 4]
            if index == count / 2 { timestamp = 0xFF_FFF0 }  // cross into extended timestamps
            timestamp &+= UInt32(random.next() ?? 0) % 50
            return RTMPMessage(type: type, streamID: index % 5 == 0 ? 0 : 1, timestamp: timestamp,
                               payload: ByteView(SplitMix64Bytes.make(count: length, seed: UInt64(index))))
        }
    }

    @Test("writer → parser round trip at several chunk sizes, cut at every split of the input", arguments: [1, 128, 4096, 65_536])
    func roundTrip(chunkSize: Int) throws {
        let sent = Self.sample(count: 40)
        var writer = RTMPChunkStreamWriter()
        var bytes: [UInt8] = []
        if chunkSize != 128 {
            writer.write(RTMPControlMessage.setChunkSize(UInt32(chunkSize)).message, chunkStreamID: 2, into: &bytes)
            writer.chunkSize = chunkSize
        }
        for message in sent {
            writer.write(message, chunkStreamID: RTMPConnection.chunkStream(for: message), into: &bytes)
        }
        for step in [bytes.count, 7, 1000] {
            var parser = RTMPChunkStreamParser()
            var got: [RTMPMessage] = []
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + step)
                parser.append(bytes[offset..<end])
                got += try Self.messages(&parser)
                offset = end
            }
            let media = got.filter { $0.type != .setChunkSize }
            #expect(media.count == sent.count)
            for (a, b) in zip(media, sent) {
                #expect(a.type == b.type && a.timestamp == b.timestamp && a.streamID == b.streamID && a.bytes == b.bytes)
            }
            #expect(parser.chunkSize == chunkSize)
            #expect(!parser.hasIncompleteMessage)
        }
    }

    @Test("messages of two chunk streams interleaved chunk by chunk; 3-byte basic headers; an Abort drops a message")
    func interleavedAndAbort() throws {
        // Two messages of 300 bytes on chunk streams 4 and 400, interleaved at 128-byte chunks.
        let a = [UInt8](repeating: 0xAA, count: 300), b = [UInt8](repeating: 0xBB, count: 300)
        var writerA = RTMPChunkStreamWriter(), writerB = RTMPChunkStreamWriter()
        var bytesA: [UInt8] = [], bytesB: [UInt8] = []
        writerA.write(RTMPMessage(type: .audio, streamID: 1, timestamp: 5, payload: ByteView(a)), chunkStreamID: 4, into: &bytesA)
        writerB.write(RTMPMessage(type: .video, streamID: 1, timestamp: 9, payload: ByteView(b)), chunkStreamID: 400, into: &bytesB)
        // A's chunks: 12+128, 1+128, 1+44; B's: 14+128, 3+128, 3+44.
        let chunksA = [bytesA[0..<140], bytesA[140..<269], bytesA[269...]]
        let chunksB = [bytesB[0..<142], bytesB[142..<273], bytesB[273...]]
        var stream: [UInt8] = []
        for index in 0..<3 { stream += chunksA[index]; stream += chunksB[index] }
        var parser = RTMPChunkStreamParser()
        parser.append(stream)
        let got = try Self.messages(&parser)
        #expect(got.map(\.chunkStreamID) == [4, 400])
        #expect(got.first?.bytes == a && got.last?.bytes == b)
        #expect(got.first?.timestamp == 5 && got.last?.timestamp == 9)

        // The first chunk of a message on chunk stream 4, then Abort for it, then a whole new message there.
        var abortParser = RTMPChunkStreamParser()
        abortParser.append(bytesA[0..<140])
        abortParser.append(RTMPChunkStreamWriterTestBytes.control(RTMPControlMessage.abort(chunkStreamID: 4)))
        abortParser.append(bytesA)
        let afterAbort = try Self.messages(&abortParser).filter { $0.type == .audio }
        #expect(afterAbort.count == 1 && afterAbort.first?.bytes == a)
    }

    @Test("extended timestamps: on format 0 and on every format-3 chunk; also when a peer leaves them off continuations")
    func extendedTimestamps() throws {
        let payload = [UInt8](repeating: 1, count: 300)
        var writer = RTMPChunkStreamWriter()
        var bytes: [UInt8] = []
        writer.write(RTMPMessage(type: .video, streamID: 1, timestamp: 0x0100_0000, payload: ByteView(payload)), chunkStreamID: 6, into: &bytes)
        // 12 header + 4 extended + 128, then (1 + 4 + 128), then (1 + 4 + 44).
        #expect(bytes.count == 12 + 4 + 128 + 5 + 128 + 5 + 44)
        #expect(Array(bytes[1...3]) == [0xFF, 0xFF, 0xFF] && Array(bytes[144...148]) == [0xC6, 0x01, 0, 0, 0])
        var parser = RTMPChunkStreamParser()
        parser.append(bytes)
        let got = try Self.messages(&parser)
        #expect(got.first?.timestamp == 0x0100_0000 && got.first?.bytes == payload)

        // The same message without the extended field on its continuation chunks (as some encoders send).
        var lenient: [UInt8] = Array(bytes[0..<144]) + [0xC6] + Array(bytes[149..<277]) + [0xC6] + Array(bytes[282...])
        var second = RTMPChunkStreamParser()
        second.append(lenient)
        #expect(try Self.messages(&second).first?.bytes == payload)
        lenient.removeAll()
    }

    @Test("format 3 starting a new message repeats the last delta (after format 0: its timestamp, as ffmpeg writes it)")
    func formatThreeDelta() throws {
        var writer = RTMPChunkStreamWriter()
        var bytes: [UInt8] = []
        for timestamp: UInt32 in [40, 80, 120, 160] {
            writer.write(RTMPMessage(type: .audio, streamID: 1, timestamp: timestamp, payload: ByteView([1, 2, 3])), chunkStreamID: 4, into: &bytes)
        }
        // fmt 0 (ts 40), then delta 40 equals the stored field 40 → fmt 3 three times.
        #expect(bytes.count == 12 + 3 + 3 * (1 + 3))
        var parser = RTMPChunkStreamParser()
        parser.append(bytes)
        #expect(try Self.messages(&parser).map(\.timestamp) == [40, 80, 120, 160])
    }

    @Test("a timestamp that goes back is reported, and the message still comes out")
    func timestampGoesBack() throws {
        var writer = RTMPChunkStreamWriter()
        var bytes: [UInt8] = []
        writer.write(RTMPMessage(type: .video, streamID: 1, timestamp: 1000, payload: ByteView([1])), chunkStreamID: 6, into: &bytes)
        writer.write(RTMPMessage(type: .video, streamID: 1, timestamp: 500, payload: ByteView([2])), chunkStreamID: 6, into: &bytes)
        var parser = RTMPChunkStreamParser()
        parser.append(bytes)
        var items: [String] = []
        while let item = try parser.next() {
            switch item {
            case let .message(message): items.append("message \(message.timestamp)")
            case let .timestampWentBack(id, previous, timestamp): items.append("back \(id) \(previous)→\(timestamp)")
            }
        }
        #expect(items == ["message 1000", "back 6 1000→500", "message 500"])
    }

    @Test("limits: chunk size 2^31, a length over the limit, too many chunk streams, an unopened chunk stream, an interrupted message")
    func limits() throws {
        func error(_ bytes: [UInt8], limits: RTMPLimits = RTMPLimits()) -> RTMPError? {
            var parser = RTMPChunkStreamParser(limits: limits)
            parser.append(bytes)
            do throws(RTMPError) {
                while try parser.next() != nil {}
                return nil
            } catch {
                // The parser stays failed.
                #expect(throws: RTMPError.self) { _ = try parser.next() }
                return error
            }
        }
        #expect(error(RTMPHostilePeerTests.controlChunk(type: 1, body: [0x80, 0, 0, 0])) == .chunkSizeOutOfRange(requested: 0x8000_0000, limit: 0xFF_FFFF, offset: 16))
        #expect(error(RTMPHostilePeerTests.controlChunk(type: 1, body: [0, 0, 0, 0])) == .chunkSizeOutOfRange(requested: 0, limit: 0xFF_FFFF, offset: 16))
        #expect(error([0x06, 0, 0, 0, 0x10, 0, 0, 9, 1, 0, 0, 0], limits: RTMPLimits(maximumMessageLength: 1 << 20)) == nil)
        #expect(error([0x06, 0, 0, 0, 0x10, 0, 0, 9, 1, 0, 0, 0], limits: RTMPLimits(maximumMessageLength: (1 << 20) - 1))
                == .messageTooLong(length: 1 << 20, limit: (1 << 20) - 1, chunkStreamID: 6, messageType: 9, offset: 0))
        #expect(error([0xC0 | 9, 0]) == .chunkStreamNotOpened(chunkStreamID: 9, format: 3, offset: 0))
        #expect(error([0x80 | 0, 10, 0, 0, 0]) == .chunkStreamNotOpened(chunkStreamID: 74, format: 2, offset: 0))
        var many: [UInt8] = []
        for id in 0..<5 { many += [0, UInt8(id), 0, 0, 0, 0, 0, 1, 9, 0, 0, 0, 0, 0x17] }
        #expect(error(many, limits: RTMPLimits(maximumChunkStreams: 4)) == .tooManyChunkStreams(limit: 4, chunkStreamID: 68, offset: 56))
        // A format-0 header in the middle of a 300-byte message of the same chunk stream.
        let interrupted: [UInt8] = [0x06, 0, 0, 0, 0, 1, 44, 9, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 128) + [0x06, 0, 0, 0, 0, 0, 1, 9, 1, 0, 0, 0, 0]
        #expect(error(interrupted) == .interruptedMessage(chunkStreamID: 6, received: 128, expected: 300, offset: 140))
        // Many chunk streams each holding part of a large message: the buffered-bytes cap.
        var big: [UInt8] = RTMPHostilePeerTests.controlChunk(type: 1, body: [0, 0, 0x10, 0])  // chunk size 4096
        for id in 0..<4 { big += [UInt8(10 + id), 0, 0, 0, 0x01, 0, 0, 9, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 4096) }
        #expect(error(big, limits: RTMPLimits(maximumBufferedBytes: 10_000)) == .bufferLimitExceeded(limit: 10_000, chunkStreamID: 12, offset: 16 + 2 * 4108))
    }

    @Test("protocol control and user control messages read what they write")
    func controlMessages() throws {
        let controls: [RTMPControlMessage] = [.setChunkSize(4096), .abort(chunkStreamID: 7), .acknowledgement(sequenceNumber: 123_456),
                                              .windowAcknowledgementSize(2_500_000), .setPeerBandwidth(2_500_000, limitType: 2)]
        for control in controls { #expect(try RTMPControlMessage(control.message) == control) }
        let events: [RTMPUserControlEvent] = [.streamBegin(streamID: 1), .streamEOF(streamID: 1), .streamDry(streamID: 2),
                                              .setBufferLength(streamID: 1, milliseconds: 3000), .streamIsRecorded(streamID: 1),
                                              .pingRequest(timestamp: 99), .pingResponse(timestamp: 99)]
        for event in events { #expect(try RTMPUserControlEvent(event.message) == event) }
        #expect(throws: RTMPError.self) { try RTMPUserControlEvent(RTMPMessage(type: .userControl, streamID: 0, timestamp: 0, payload: ByteView([0, 3, 0, 0]))) }
        #expect(throws: RTMPError.self) { try RTMPControlMessage(RTMPMessage(type: .setPeerBandwidth, streamID: 0, timestamp: 0, payload: ByteView([0, 0, 0, 1]))) }
    }

    @Test("URLs: application, stream key, default ports, rtmps")
    func urls() throws {
        let url = try RTMPURL(parsing: "rtmp://127.0.0.1/live/key?token=1")
        #expect(url.port == 1935 && url.app == "live" && url.streamName == "key?token=1" && url.tcURL == "rtmp://127.0.0.1:1935/live")
        let secure = try RTMPURL(parsing: "rtmps://[::1]/app/inst/k")
        #expect(secure.isSecure && secure.port == 443 && secure.host == "::1" && secure.app == "app/inst" && secure.streamName == "k")
        #expect(throws: RTMPError.self) { try RTMPURL(parsing: "http://x/live/k") }
        #expect(throws: RTMPError.self) { try RTMPURL(parsing: "rtmp://h:0/live/k") }
        #expect(throws: RTMPError.self) { try RTMPURL(parsing: "rtmp:///live/k") }
    }
}

/// Bytes of single control messages, for the tests.
enum RTMPChunkStreamWriterTestBytes {
    static func control(_ control: RTMPControlMessage) -> [UInt8] {
        var writer = RTMPChunkStreamWriter()
        var bytes: [UInt8] = []
        writer.write(control.message, chunkStreamID: 2, into: &bytes)
        return bytes
    }
}
