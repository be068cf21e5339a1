import AAC
import Bitstream
import Foundation
import H264
import HEVC
import MediaCore
import POSIX
import RTP
import Testing
import TestSupport

/// SDP against real peers: what ffmpeg and GStreamer write must read, and what we write must be enough for
/// ffmpeg to decode the stream it describes.
@Suite(.needsRealTime, .serialized) struct SessionDescriptionPeerTests {
    /// Encodes a one-second clip to an elementary-stream file of `kind` (h264, h265, aac) with ffmpeg.
    static func encode(_ kind: String, in directory: URL) async throws -> URL {
        let url = directory.appendingPathComponent("clip.\(kind)")
        var arguments = ["-v", "error", "-y"]
        switch kind {
        case "aac":
            arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "1", "-ac", "2", "-c:a", "aac", "-b:a", "96k"]
        case "h265":
            arguments += ["-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-t", "1", "-pix_fmt", "yuv420p",
                          "-c:v", "libx265", "-x265-params", "log-level=error:bframes=0"]
        default:
            arguments += ["-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-t", "1", "-pix_fmt", "yuv420p",
                          "-c:v", "libx264", "-bf", "0", "-g", "25"]
        }
        try await ExternalTool.check("ffmpeg", arguments + [url.path])
        return url
    }

    /// The clip ffmpeg's RTP muxer sends: AAC needs its AudioSpecificConfig as a global header, so the ADTS
    /// file is remuxed to .m4a (same frames, same config).
    static func sendable(_ clip: URL) async throws -> URL {
        guard clip.pathExtension == "aac" else { return clip }
        let m4a = clip.deletingPathExtension().appendingPathExtension("m4a")
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", clip.path, "-c", "copy", m4a.path])
        return m4a
    }

    /// The parameter-set NAL units of an Annex B file, first of each type, in VPS, SPS, PPS order.
    static func parameterSets(of url: URL, hevc: Bool) throws -> [[UInt8]] {
        let bytes = try [UInt8](Data(contentsOf: url))
        let units = AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }
        let types: [UInt8] = hevc ? [32, 33, 34] : [7, 8]
        return types.compactMap { type in units.first { ($0.first.map { hevc ? ($0 >> 1) & 0x3F : $0 & 0x1F }) == type } }
    }

    @Test(.enabled(if: ExternalTool.isRunnable("ffmpeg")), arguments: ["h264", "h265"])
    func readsWhatFFmpegWritesForVideo(kind: String) async throws {
        let port = TestPorts.reserve(2)
        let directory = try ExternalTool.temporaryDirectory()
        let clip = try await Self.encode(kind, in: directory)
        let sdpURL = directory.appendingPathComponent("ffmpeg.sdp")
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", clip.path, "-c", "copy", "-f", "rtp",
                                          "rtp://127.0.0.1:\(port)", "-sdp_file", sdpURL.path])
        let sdp = try SessionDescription(parsing: String(contentsOf: sdpURL, encoding: .utf8))
        #expect(sdp.connection?.address == "127.0.0.1")
        let media = try #require(sdp.media.first)
        #expect(media.port == Int(port) && media.media == "video")
        let expected = try Self.parameterSets(of: clip, hevc: kind == "h265")
        let format = try media.videoFormat()
        #expect(format.parameterSets == expected, "the sprop parameter sets are the stream's own")
        #expect(format.width == 320 && format.height == 240)
        let payload = try media.payloadFormat(for: try #require(media.payloadTypes.first))
        #expect(payload.clockRate == 90_000)
        switch payload.parameters {
        case let .h264(parameters):
            #expect(kind == "h264")
            #expect(parameters.packetizationMode == 1)
            let sps = expected[0]
            #expect(parameters.profileLevelID == .init(profileIDC: sps[1], constraints: sps[2], levelIDC: sps[3]))
        case let .h265(parameters):
            #expect(kind == "h265")
            #expect(!parameters.carriesDecodingOrderNumbers)
        default:
            Issue.record("unexpected payload format \(payload)")
        }
        // What ffmpeg wrote, written back by us, reads to the same description.
        #expect(try SessionDescription(parsing: sdp.text) == sdp)
    }

    @Test(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func readsWhatFFmpegWritesForAAC() async throws {
        let port = TestPorts.reserve(2)
        let directory = try ExternalTool.temporaryDirectory()
        let clip = try await Self.encode("aac", in: directory)
        let sdpURL = directory.appendingPathComponent("ffmpeg.sdp")
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", try Self.sendable(clip).path, "-c", "copy", "-f", "rtp",
                                          "rtp://127.0.0.1:\(port)", "-sdp_file", sdpURL.path])
        let sdp = try SessionDescription(parsing: String(contentsOf: sdpURL, encoding: .utf8))
        let media = try #require(sdp.media.first)
        let format = try media.audioFormat()
        #expect(format.sampleRate == 48_000 && format.channelCount == 2 && format.profile == "LC")
        let adts = try ADTSHeader.parse(try [UInt8](Data(contentsOf: clip)))
        #expect(format.audioSpecificConfig == (try AudioSpecificConfig(adtsHeader: adts).serialized()),
                "the config is the stream's own AudioSpecificConfig")
        guard case let .mpeg4Generic(parameters) = try media.payloadFormat(for: media.payloadTypes[0]).parameters else {
            Issue.record("not mpeg4-generic"); return
        }
        #expect(parameters.mode == "AAC-hbr" && parameters.sizeLength == 13 && parameters.indexLength == 3
                && parameters.indexDeltaLength == 3)
    }

    /// Our SDP for a stream ffmpeg sends: ffmpeg must decode it through our description alone, to the
    /// same frames (framemd5) as the elementary stream decoded directly.
    @Test(.enabled(if: ExternalTool.isRunnable("ffmpeg")), arguments: ["h264", "h265", "aac"])
    func ffmpegDecodesThroughOurSDP(kind: String) async throws {
        let port = TestPorts.reserve(2)
        let directory = try ExternalTool.temporaryDirectory()
        let clip = try await Self.encode(kind, in: directory)
        let media: SDPMediaDescription
        switch kind {
        case "aac":
            let adts = try ADTSHeader.parse(try [UInt8](Data(contentsOf: clip)))
            let config = try AudioSpecificConfig(adtsHeader: adts)
            let format = AudioFormatDescription(codec: .aac, sampleRate: config.outputSampleRate, channelCount: config.channelCount ?? 2,
                                                profile: "LC", audioSpecificConfig: try config.serialized())
            // ffmpeg's RTP muxer numbers a lone stream's dynamic payload type 97 for audio, 96 for video.
            media = try SDPMediaDescription(audio: format, payloadType: 97, port: Int(port))
        default:
            let sets = try Self.parameterSets(of: clip, hevc: kind == "h265")
            let format = FormatDescription(codec: kind == "h265" ? .hevc : .h264, width: 320, height: 240,
                                           profileLevel: kind == "h265" ? .hevcMain : .h264High, parameterSets: sets)
            media = try SDPMediaDescription(video: format, payloadType: 96, port: Int(port))
        }
        let session = SessionDescription(connection: SDPConnection(address: "127.0.0.1"), media: [media])
        let sdpURL = directory.appendingPathComponent("ours.sdp")
        try session.text.write(to: sdpURL, atomically: true, encoding: .utf8)
        let received = directory.appendingPathComponent("received.md5")
        let receiver = try PeerProcess("ffmpeg", ["-nostdin", "-v", "error", "-y", "-protocol_whitelist", "file,udp,rtp",
                                                  "-analyzeduration", "200000", "-i", sdpURL.path, "-t", "0.8",
                                                  "-f", "framemd5", received.path])
        defer { receiver.stop() }
        #expect(await Readiness.waitForUDP(port: port), "ffmpeg did not bind its RTP port")
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-re", "-i", try Self.sendable(clip).path, "-c", "copy", "-f", "rtp",
                                          "rtp://127.0.0.1:\(port)"])
        // `-t 0.8` ends the receiver once it has decoded 0.8 s (it keeps reading after the sender's BYE).
        await receiver.wait(seconds: 5)
        let log = receiver.stop()
        // The elementary stream itself (for AAC the ADTS file: the .m4a's edit list would trim the priming frame).
        let direct = try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", clip.path, "-f", "framemd5", "-"]).text
        // The frame that crosses `-t 0.8` is cut short (audio), so it is left out of the comparison.
        let ours = Array(FrameMD5.hashes((try? String(contentsOf: received, encoding: .utf8)) ?? "").dropLast())
        let reference = FrameMD5.hashes(direct)
        // 0.8 s of the 1 s clip: a prefix of the direct decode, of 80 % of its frames.
        #expect(ours.count >= reference.count * 3 / 4, "ffmpeg decoded \(ours.count) of \(reference.count) frames; log: \(log.suffix(600))")
        // A run of the direct decode's frames, in order (a receiver may join a packet late).
        let start = ours.first.flatMap { reference.firstIndex(of: $0) } ?? reference.count
        #expect(start <= 2 && reference.dropFirst(start).prefix(ours.count).elementsEqual(ours),
                "decoded frames differ from the direct decode: \(ours.prefix(4)) vs \(reference.prefix(4))")
    }

    /// GStreamer's RTSP server (H.264 + AAC, the recipe of PEERS.md): its DESCRIBE answer reads, and both
    /// formats come out of it.
    @Test(.enabled(if: ExternalTool.isCI || FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func readsWhatGStreamerWrites() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let script = directory.appendingPathComponent("server.py")
        try """
        import gi; gi.require_version("Gst", "1.0"); gi.require_version("GstRtspServer", "1.0")
        from gi.repository import Gst, GstRtspServer, GLib
        Gst.init(None)
        s = GstRtspServer.RTSPServer(); s.set_address("127.0.0.1"); s.set_service("\(port)")
        f = GstRtspServer.RTSPMediaFactory(); f.set_shared(True)
        f.set_launch("( videotestsrc is-live=true ! video/x-raw,width=640,height=360,framerate=30/1 ! x264enc tune=zerolatency "
                     "key-int-max=30 ! rtph264pay name=pay0 pt=96 config-interval=-1 audiotestsrc is-live=true ! "
                     "audio/x-raw,rate=48000,channels=2 ! avenc_aac ! rtpmp4gpay name=pay1 pt=97 )")
        s.get_mount_points().add_factory("/test", f); s.attach(None); GLib.MainLoop().run()
        """.write(to: script, atomically: true, encoding: .utf8)
        let server = try PeerProcess("/usr/bin/python3", [script.path])
        defer { server.stop() }
        let answer = try await OffPool.run { try Self.describe(port: port, path: "/test") }
        let body = try #require(answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) }, "no body in \(answer)")
        let sdp = try SessionDescription(parsing: body)
        let video = try #require(sdp.media.first { $0.media == "video" })
        let audio = try #require(sdp.media.first { $0.media == "audio" })
        let videoFormat = try video.videoFormat()
        #expect(videoFormat.codec == .h264 && videoFormat.width == 640 && videoFormat.height == 360)
        let audioFormat = try audio.audioFormat()
        #expect(audioFormat.sampleRate == 48_000 && audioFormat.channelCount == 2)
        #expect(video.control != nil && audio.control != nil)
        #expect(try SessionDescription(parsing: sdp.text) == sdp)
    }

    /// Sends `DESCRIBE` over a plain TCP connection (retrying while the server starts) and returns the answer.
    static func describe(port: UInt16, path: String) throws -> String {
        let deadline = Date().addingTimeInterval(15)
        while true {
            do {
                let socket = try Socket(.tcp, family: .ipv4)
                defer { try? socket.close() }
                _ = try socket.connect(to: .loopback(.ipv4, port: port))
                let request = "DESCRIBE rtsp://127.0.0.1:\(port)\(path) RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n\r\n"
                let requestBytes = Array(request.utf8)
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
                defer { buffer.deallocate() }
                requestBytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
                try socket.sendAll(UnsafeRawBufferPointer(rebasing: buffer[..<requestBytes.count]))
                var answer: [UInt8] = []
                while true {
                    let count = try socket.receive(into: buffer) ?? 0
                    if count == 0 { break }
                    answer += buffer[..<count]
                    let text = String(decoding: answer, as: UTF8.self)
                    if let end = text.range(of: "\r\n\r\n"),
                       let lengthLine = text[..<end.lowerBound].split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
                       let length = Int(lengthLine.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)),
                       text.utf8.count - text[..<end.upperBound].utf8.count >= length {
                        return text
                    }
                    if answer.count > 1 << 20 { break }
                }
                throw TestFailure("incomplete DESCRIBE answer: \(String(decoding: answer, as: UTF8.self))")
            } catch let error as SystemError {
                guard Date() < deadline else { throw error }
                usleep(200_000)
            }
        }
    }
}
