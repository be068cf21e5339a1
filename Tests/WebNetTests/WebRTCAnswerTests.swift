import Foundation
import RTP
import Testing
import TestSupport

/// The offers `scripts/webrtc-offer-fixtures.sh` saved from Chromium and aiortc.
private func fixture(_ name: String) throws -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name).sdp")
    return try String(contentsOf: url, encoding: .utf8)
}

private let options = WebRTCAnswerOptions(
    iceUserFragment: "skuf", icePassword: "0123456789abcdefghijklmn",
    fingerprint: "sha-256 " + (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":"),
    candidates: [WebRTCCandidate(foundation: "1", priority: 2_130_706_431, address: "127.0.0.1", port: 50_000)],
    sends: true, receives: false, sendingSSRCs: ["video": 0x1234_5678, "audio": 0x0BAD_CAFE])

@Suite("WebRTC offers (JSEP) and the ICE-lite answer")
struct WebRTCAnswerTests {
    @Test("Chromium's recvonly offer: BUNDLE, mids, ICE, DTLS, rtcp-mux, H.264 and rtx, Opus, extmap; the answer takes 42e01f mode 1 and its rtx")
    func chromiumRecvonly() throws {
        let offer = try WebRTCOffer(parsing: try fixture("chromium-recvonly"))
        #expect(offer.bundle == ["0", "1"])
        #expect(offer.media.map(\.kind) == ["video", "audio"])
        let video = offer.media[0]
        #expect(video.mid == "0" && video.direction == "recvonly" && video.rtcpMux && video.setup == "actpass")
        #expect(video.iceUserFragment?.isEmpty == false && (video.icePassword?.count ?? 0) >= 22)
        #expect(video.fingerprint?.hasPrefix("sha-256 ") == true)
        #expect(video.candidates.contains { $0.address == "127.0.0.1" && $0.transport == "udp" && $0.type == "host" })
        #expect(video.headerExtensions.values.contains("urn:ietf:params:rtp-hdrext:sdes:mid"))
        #expect(video.codecs.filter { $0.name == "H264" }.count >= 4)

        let choices = offer.choices(options)
        let h264 = try #require(choices.first { $0.kind == "video" })
        #expect(h264.codec.h264?.packetizationMode == 1)
        #expect(h264.codec.h264?.profileLevelID?.text == "42e01f")
        #expect(h264.retransmission?.associatedPayloadType == h264.codec.payloadType)
        #expect(h264.direction == "sendonly")
        let opus = try #require(choices.first { $0.kind == "audio" })
        #expect(opus.codec.name == "OPUS" && opus.codec.rtpMap.clockRate == 48000)

        let answer = try offer.answer(options).text
        #expect(answer.contains("a=group:BUNDLE 0 1\r\n"))
        #expect(answer.contains("a=ice-lite\r\n"))
        #expect(answer.contains("a=setup:passive\r\n"))
        #expect(answer.contains("a=rtpmap:\(h264.codec.payloadType) H264/90000\r\n"))
        #expect(answer.contains("a=fmtp:\(h264.retransmission?.payloadType ?? 0) apt=\(h264.codec.payloadType)\r\n"))
        #expect(answer.contains("a=rtcp-fb:\(h264.codec.payloadType) nack pli\r\n"))
        #expect(!answer.contains("transport-cc"))
        #expect(answer.contains("a=candidate:1 1 udp 2130706431 127.0.0.1 50000 typ host\r\n"))
        #expect(answer.contains("a=ssrc:305419896 cname:streamkit\r\n"))
        // The answer parses as an offer-shaped description again, with the same choices.
        let reparsed = try WebRTCOffer(parsing: answer)
        #expect(reparsed.media.map(\.mid) == ["0", "1"])
        #expect(reparsed.media[0].codecs.map(\.payloadType) == [h264.codec.payloadType, h264.retransmission?.payloadType].compactMap { $0 })
    }

    @Test("Chromium's sendonly (publisher) offer: audio first, then video; a receiving answer is recvonly in both")
    func chromiumSendonly() throws {
        let offer = try WebRTCOffer(parsing: try fixture("chromium-sendonly"))
        var receiving = options
        receiving.sends = false
        receiving.receives = true
        let choices = offer.choices(receiving)
        #expect(choices.map(\.kind) == offer.media.map(\.kind))
        #expect(choices.allSatisfy { $0.direction == "recvonly" })
        #expect(choices.first { $0.kind == "video" }?.codec.h264?.profileLevelID?.text == "42e01f")
        let answer = try offer.answer(receiving).text
        #expect(!answer.contains("a=ssrc:"))
    }

    @Test("High is taken where offered and preferred; no H.264 mode 1 rejects the video section (port 0, out of BUNDLE)")
    func profileChoice() throws {
        let text = """
        v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE v a\r\n\
        m=video 9 UDP/TLS/RTP/SAVPF 96 97 98\r\na=mid:v\r\na=recvonly\r\na=rtcp-mux\r\n\
        a=rtpmap:96 H264/90000\r\na=fmtp:96 packetization-mode=1;profile-level-id=42e01f\r\n\
        a=rtpmap:97 H264/90000\r\na=fmtp:97 packetization-mode=1;profile-level-id=640c1f\r\na=rtpmap:98 rtx/90000\r\na=fmtp:98 apt=97\r\n\
        m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:a\r\na=rtpmap:111 opus/48000/2\r\n
        """
        let offer = try WebRTCOffer(parsing: text)
        var high = options
        high.h264Profiles = [.high, .constrainedBaseline]
        let video = try #require(offer.choices(high).first)
        #expect(video.codec.payloadType == 97 && video.retransmission?.payloadType == 98)
        #expect(offer.choices(options).first?.codec.payloadType == 96)
        #expect(offer.choices(options).first?.retransmission == nil)

        let noMode1 = try WebRTCOffer(parsing: text.replacingOccurrences(of: "packetization-mode=1", with: "packetization-mode=0"))
        let answer = try noMode1.answer(options)
        #expect(answer.media[0].port == 0)
        #expect(answer.attribute("group") == "BUNDLE a")
        #expect(answer.media[1].direction == "sendonly")
    }

    @Test("aiortc's offer is read, and aiortc's setRemoteDescription accepts our answer (codecs and directions as chosen)",
          .needsRealTime, .enabled(if: PythonPeers.isRunnable("aiortc")))
    func aiortcAcceptsAnswer() async throws {
        let offerText = try fixture("aiortc-recvonly")
        let offer = try WebRTCOffer(parsing: offerText)
        #expect(offer.media.map(\.kind) == ["video", "audio"])
        #expect(try offer.answer(options).media.map(\.port) == [50_000, 50_000])
        // setRemoteDescription needs the offer of that peer connection: aiortc makes a fresh one and we answer it.
        let script = """
        import asyncio, sys, aioice
        aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: ["127.0.0.1"]
        from aiortc import RTCPeerConnection, RTCSessionDescription
        async def main():
            pc = RTCPeerConnection()
            pc.addTransceiver("video", direction="recvonly")
            pc.addTransceiver("audio", direction="recvonly")
            await pc.setLocalDescription(await pc.createOffer())
            print(pc.localDescription.sdp.replace("\\r\\n", "\\\\n"), flush=True)
            answer = sys.stdin.readline().replace("\\\\n", "\\r\\n")
            await pc.setRemoteDescription(RTCSessionDescription(sdp=answer, type="answer"))
            for t in pc.getTransceivers():
                codecs = [f"{c.mimeType}/{c.clockRate}:{c.payloadType}:{c.parameters}" for c in t._codecs]
                print(t.mid, t.kind, t.currentDirection, codecs)
            await pc.close()
        asyncio.run(main())
        """
        let result = try await runWithOffer(script)
        #expect(result.contains("0 video recvonly [\"video/H264/90000:"))
        #expect(result.contains("profile-level-id': '42e01f'"))
        #expect(result.contains("video/rtx/90000:") && !result.contains("VP8"))
        #expect(result.contains("1 audio recvonly ['audio/opus/48000"))
    }

    /// Starts aiortc with `script`, reads the offer it prints, answers it, and returns what it prints after.
    private func runWithOffer(_ script: String) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-k", "5", "40", PythonPeers.python, "-c", script]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let reader = output.fileHandleForReading
        let lines = try await OffPool.run { () throws -> String in
            var collected = Data()
            while !collected.contains(UInt8(ascii: "\n")) {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                collected.append(chunk)
            }
            return String(decoding: collected, as: UTF8.self)
        }
        let offerLine = lines.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        let offer = try WebRTCOffer(parsing: offerLine.replacingOccurrences(of: "\\n", with: "\r\n"))
        let answer = try offer.answer(options).text.replacingOccurrences(of: "\r\n", with: "\\n")
        input.fileHandleForWriting.write(Data((answer + "\n").utf8))
        try input.fileHandleForWriting.close()
        let rest = try await OffPool.run { () throws -> Data in reader.readDataToEndOfFile() }
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else { throw TestFailure("aiortc: exit \(process.terminationStatus): \(stderr.suffix(1500))") }
        return String(lines.dropFirst(offerLine.count)) + String(decoding: rest, as: UTF8.self)
    }
}
