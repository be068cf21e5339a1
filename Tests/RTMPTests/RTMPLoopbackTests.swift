import Bitstream
import Containers
import Testing
import TestSupport
import Transport

/// Our client and our server, with nothing else: what a new user writes first. Each test has a port of its own (``TestPorts``).
@Suite("RTMP client ↔ our server", .needsRealTime, .serialized)
struct RTMPLoopbackTests {
    @Test("publish with the client, play with another client: metadata, sequence headers and frames arrive in order")
    func publishAndPlay() async throws {
        let port = TestPorts.reserve()
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try RTMPServer(configuration: .allowing(["live/key"], address: .loopback(.ipv4, port: port)), on: loop)
        server.start()
        defer { server.stop() }

        let publisher = try await RTMPClient.connect(to: "rtmp://127.0.0.1:\(port)/live/key",
                                                     options: RTMPClientOptions(fourCCs: ["hvc1", "avc1"]), on: loop)
        #expect(publisher.serverFourCCs == ["hvc1", "avc1"])
        try await publisher.publish()
        try await publisher.sendMetadata(["width": 320, "height": 240, "videocodecid": 7])
        let header: [UInt8] = [0x17, 0, 0, 0, 0, 1, 0x64, 0, 0x1F]
        let audioHeader: [UInt8] = [0xAF, 0, 0x12, 0x10]
        try await publisher.sendVideo(ByteView(header), timestamp: 0)
        try await publisher.sendAudio(ByteView(audioHeader), timestamp: 0)
        // A player joining now gets onMetaData and both headers, then video from the next key frame on.
        let player = try await RTMPClient.connect(to: "rtmp://127.0.0.1:\(port)/live/key", on: loop)
        try await player.play()
        try await publisher.sendVideo(ByteView([0x27, 1, 0, 0, 0, 0xAA]), timestamp: 33)  // inter frame: skipped
        var sent: [[UInt8]] = []
        for index in 0..<50 {
            let frame: [UInt8] = [index % 10 == 0 ? 0x17 : 0x27, 1, 0, 0, 0] + SplitMix64Bytes.make(count: 5000 + index, seed: UInt64(index))
            sent.append(frame)
            try await publisher.sendVideo(ByteView(frame), timestamp: UInt32(66 + index * 33))
        }
        var got: [RTMPMessage] = []
        for await message in player.messages where [.video, .audio, .dataAMF0].contains(message.type) {
            got.append(message)
            if got.filter({ $0.type == .video }).count == 51 { break }
        }
        let data = try AMF0Decoder().decodeValues(from: got.first { $0.type == .dataAMF0 && (try? AMF0Decoder().decodeValues(from: $0.payload).first?.string) == "onMetaData" }?.payload ?? ByteView())
        #expect(data.first?.string == "onMetaData" && data.last?["width"]?.number == 320)
        let video = got.filter { $0.type == .video }.map(\.bytes)
        #expect(video.first == header)
        #expect(Array(video.dropFirst()) == sent)
        #expect(got.first { $0.type == .audio }?.bytes == audioHeader)
        await player.close()
        await publisher.close()
    }

    @Test("the first program: connect, publish, send, close, in a few lines")
    func firstProgram() async throws {
        let port = TestPorts.reserve()
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try RTMPServer(configuration: RTMPServerConfiguration(address: .loopback(.ipv4, port: port)), on: loop)
        server.start()
        defer { server.stop() }
        let received = server.subscribe(to: "live/first")

        let client = try await RTMPClient.connect(to: "rtmp://127.0.0.1:\(port)/live/first", on: loop)
        try await client.publish()
        try await client.sendVideo(ByteView([0x17, 1, 0, 0, 0, 1, 2, 3]), timestamp: 0)
        await client.close()

        var types: [RTMPMessageType] = []
        for await message in received { types.append(message.type) }
        #expect(types == [.video])
    }
}
