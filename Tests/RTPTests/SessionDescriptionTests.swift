import Foundation
import Bitstream
import H264
import MediaCore
import RTP
import Testing
import TestSupport

/// The SDP reader and writer on hand-written descriptions of the shapes cameras and servers write.
@Suite struct SessionDescriptionTests {
    /// An IP camera's DESCRIBE answer: bare LF line ends, session and media control, range, an attribute
    /// and a line type the module does not interpret, an H.264 section and an AAC section.
    static let camera = """
        v=0
        o=- 1188340656180883 1 IN IP4 192.168.1.64
        s=Media Presentation
        e=NONE
        b=AS:5050
        t=0 0
        a=control:rtsp://192.168.1.64:554/Streaming/Channels/101/
        a=range:npt=now-
        a=x-qt-text-nam:Media Presentation
        y=0123456789
        m=video 0 RTP/AVP 96
        c=IN IP4 0.0.0.0
        b=AS:5000
        a=recvonly
        a=x-dimensions:1920,1080
        a=control:trackID=1
        a=rtpmap:96 H264/90000
        a=fmtp:96 profile-level-id=420029; packetization-mode=1; sprop-parameter-sets=Z01AKI2NQDwBE/LAPEiagA==,aO44gA==
        a=framerate:25.0
        m=audio 0 RTP/AVP 97
        c=IN IP4 0.0.0.0
        a=rtpmap:97 MPEG4-GENERIC/16000/1
        a=fmtp:97 streamtype=5;profile-level-id=15;mode=AAC-hbr;config=1408;SizeLength=13;IndexLength=3;IndexDeltaLength=3;Profile=1;
        a=control:trackID=2

        """

    @Test func readsWhatACameraWrites() throws {
        let sdp = try SessionDescription(parsing: Self.camera)
        #expect(sdp.origin?.sessionID == "1188340656180883")
        #expect(sdp.origin?.unicastAddress == "192.168.1.64")
        #expect(sdp.sessionName == "Media Presentation")
        #expect(sdp.bandwidths == [SDPBandwidth(type: "AS", value: 5050)])
        #expect(sdp.control == "rtsp://192.168.1.64:554/Streaming/Channels/101/")
        #expect(sdp.attribute("x-qt-text-nam") == "Media Presentation")
        #expect(sdp.otherLines == [SDPLine(type: "y", value: "0123456789")])
        #expect(sdp.media.count == 2)
        let video = sdp.media[0]
        #expect(video.media == "video" && video.port == 0 && video.payloadTypes == [96])
        #expect(video.direction == "recvonly")
        #expect(video.frameRate == 25)
        #expect(video.controlURL(relativeTo: "rtsp://cam/live") == "rtsp://cam/live/trackID=1")
        guard case let .h264(h264) = try video.payloadFormat(for: 96).parameters else {
            Issue.record("not H.264"); return
        }
        #expect(h264.packetizationMode == 1)
        #expect(h264.profileLevelID == .init(profileIDC: 0x42, constraints: 0, levelIDC: 0x29))
        #expect(h264.sequenceParameterSets.count == 1 && h264.pictureParameterSets.count == 1)
        let audio = sdp.media[1]
        guard case let .mpeg4Generic(aac) = try audio.payloadFormat(for: 97).parameters else {
            Issue.record("not mpeg4-generic"); return
        }
        #expect(aac.sizeLength == 13 && aac.indexLength == 3 && aac.indexDeltaLength == 3)
        #expect(aac.streamType == 5 && aac.profileLevelID == 15 && aac.config == [0x14, 0x08])
        #expect(aac.otherParameters["profile"] == "1")
        let format = try audio.audioFormat()
        #expect(format.sampleRate == 16_000 && format.channelCount == 1 && format.profile == "LC")
        if case let .normalPlayTime(start, end) = SDPRange(attributeValue: sdp.attribute("range") ?? "") {
            #expect(start == nil && end == nil)
        } else {
            Issue.record("range not read as npt")
        }
    }

    @Test func writesBackWhatItRead() throws {
        let sdp = try SessionDescription(parsing: Self.camera)
        let text = sdp.text
        #expect(text.hasPrefix("v=0\r\no=- 1188340656180883 1 IN IP4 192.168.1.64\r\ns=Media Presentation\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(try SessionDescription(parsing: text) == sdp)
    }

    @Test(arguments: [
        ("o=- 0 0 IN IP4 1.2.3.4\nv=0\n", SDPError.missingVersion(line: 1)),
        ("v=1\n", SDPError.missingVersion(line: 1)),
        ("v=0\ns=x\nthis is not a line\n", SDPError.malformedLine(line: 3, text: "this is not a line")),
        ("v=0\r\ns=x\r\nm=video 70000 RTP/AVP 96\r\n", SDPError.invalidField(line: 3, field: "port", value: "70000")),
        ("v=0\ns=x\nm=video 0 RTP/AVP 96\na=rtpmap:96 H264\n", SDPError.invalidField(line: 4, field: "a=rtpmap", value: "96 H264")),
        ("v=0\ns=x\nc=IN IP4\n", SDPError.invalidField(line: 3, field: "c=", value: "IN IP4")),
        ("v=0\ns=x\ns=y\n", SDPError.duplicateLine(line: 3, type: "s")),
        ("v=0\ns=x\nt=now 0\n", SDPError.invalidField(line: 3, field: "t=", value: "now 0")),
        ("v=0\ns=x\nb=AS:fast\n", SDPError.invalidField(line: 3, field: "b=", value: "AS:fast")),
    ])
    func namesTheLineThatIsWrong(text: String, expected: SDPError) {
        #expect(throws: expected) { try SessionDescription(parsing: text) }
    }

    @Test func rejectsNULAndInvalidUTF8() {
        #expect(throws: SDPError.invalidText(line: 2)) { try SessionDescription(parsing: Array("v=0\ns=a\0b\n".utf8)) }
        #expect(throws: SDPError.invalidText(line: 3)) { try SessionDescription(parsing: Array("v=0\ns=x\n".utf8) + [0x61, 0x3D, 0xFF, 0x0A]) }
    }

    @Test func capsHostileInput() {
        let huge = "v=0\n" + String(repeating: "a=x\n", count: 20_000)
        #expect(throws: SDPError.tooLarge(byteCount: huge.utf8.count, limit: SessionDescription.maximumByteCount)) {
            try SessionDescription(parsing: huge)
        }
        let many = "v=0\n" + String(repeating: "a=x\n", count: 600)
        #expect(throws: SDPError.tooMany(what: "session attributes", limit: 512)) { try SessionDescription(parsing: many) }
        let media = "v=0\n" + String(repeating: "m=audio 0 RTP/AVP 0\n", count: 65)
        #expect(throws: SDPError.tooMany(what: "media sections", limit: 64)) { try SessionDescription(parsing: media) }
        let lines = "v=0\n" + String(repeating: "\n", count: 5000)
        #expect(throws: SDPError.tooMany(what: "lines", limit: SessionDescription.maximumLineCount)) { try SessionDescription(parsing: lines) }
    }

    @Test func typedParameterErrorsNameTheParameter() throws {
        let sdp = try SessionDescription(parsing: """
            v=0
            s=x
            m=video 0 RTP/AVP 96 97 98
            a=rtpmap:96 H264/90000
            a=fmtp:96 packetization-mode=3
            a=rtpmap:97 H264/90000
            a=fmtp:97 sprop-parameter-sets=Z0I*AA==
            a=rtpmap:98 H265/90000
            a=fmtp:98 sprop-vps=QAEM
            """)
        let video = sdp.media[0]
        #expect(throws: SDPError.invalidParameter(name: "packetization-mode", value: "3", reason: "not an integer in 0...2")) {
            try video.payloadFormat(for: 96)
        }
        #expect(throws: SDPError.invalidParameter(name: "sprop-parameter-sets", value: "Z0I*AA==", reason: "entry 0 is not base64")) {
            try video.payloadFormat(for: 97)
        }
        #expect(throws: SDPError.missingParameter("sprop-sps")) { try video.videoFormat(payloadType: 98) }
        #expect(throws: SDPError.missingRTPMap(payloadType: 99)) { try video.payloadFormat(for: 99) }
        // The rtpmap of static payload type 0 is implied (RFC 3551).
        #expect(SDPMediaDescription(media: "audio", formats: ["0"]).rtpMap(for: 0)?.encodingName == "PCMU")
    }

    @Test func base64RoundTripsEveryLength() throws {
        var random = SplitMix64(seed: 7)
        for length in 0..<40 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var media = SDPMediaDescription(media: "video", formats: ["96"])
            let parameters = SDPH264Parameters(parameterSets: bytes.isEmpty ? [] : [bytes])
            media.attributes = [SDPAttribute("rtpmap", "96 H264/90000"), SDPAttribute("fmtp", "96 " + parameters.formatParameters.text)]
            guard case let .h264(read) = try media.payloadFormat(for: 96).parameters else { Issue.record("not H.264"); return }
            #expect(read.parameterSets == (bytes.isEmpty ? [] : [bytes]), "length \(length)")
        }
        // Padding left out, as some cameras write it.
        var media = SDPMediaDescription(media: "video", formats: ["96"])
        media.attributes = [SDPAttribute("rtpmap", "96 H264/90000"), SDPAttribute("fmtp", "96 sprop-parameter-sets=aO44gA,aM4")]
        guard case let .h264(read) = try media.payloadFormat(for: 96).parameters else { Issue.record("not H.264"); return }
        #expect(read.parameterSets == [[0x68, 0xEE, 0x38, 0x80], [0x68, 0xCE]])
    }

    /// The small program a sender writes: a format in, an .sdp file out; and a receiver: the file in, the
    /// decoder's format out — equal to what went in.
    @Test func describesAFormatAndReadsItBack() throws {
        let sps = H264SequenceParameterSet(profileIDC: 66, constraintFlags: [], levelIDC: 30, picWidthInMbsMinus1: 19, picHeightInMapUnitsMinus1: 14)
        var spsUnit = sps.nalUnit()
        let pps: [UInt8] = [0x68, 0xCE, 0x38, 0x80]
        let video = FormatDescription(codec: .h264, width: sps.width, height: sps.height,
                                      profileLevel: ProfileLevel(codec: .h264, profileNamed: sps.profileName, level: sps.levelName),
                                      parameterSets: [spsUnit, pps])
        let audio = AudioFormatDescription(codec: .aac, sampleRate: 48_000, channelCount: 2, profile: "LC",
                                           audioSpecificConfig: [0x11, 0x90])
        let session = SessionDescription(connection: SDPConnection(address: "127.0.0.1"), media: [
            try SDPMediaDescription(video: video, port: 23_100, control: "trackID=0", frameRate: 30),
            try SDPMediaDescription(audio: audio, port: 23_102, control: "trackID=1"),
        ])
        let read = try SessionDescription(parsing: session.text)
        #expect(read == session)
        #expect(try read.media[0].videoFormat() == video)
        #expect(try read.media[1].audioFormat() == audio)
        #expect(read.media[0].attribute("fmtp")?.hasPrefix("96 packetization-mode=1;profile-level-id=42001e;sprop-parameter-sets=") == true)
        #expect(read.media[1].attribute("rtpmap") == "97 MPEG4-GENERIC/48000/2")
        spsUnit.removeLast()
        #expect(throws: SDPError.self) { try SDPH264Parameters(parameterSets: [spsUnit, pps]).formatDescription() }
        #expect(throws: SDPError.unrepresentableFormat("an H.264 SDP needs an SPS and a PPS")) {
            try SDPMediaDescription(video: FormatDescription(codec: .h264, width: 1, height: 1, profileLevel: .h264High, parameterSets: [pps]))
        }
    }
}
