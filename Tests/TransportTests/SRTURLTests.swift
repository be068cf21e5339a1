import Testing
import Transport

/// `srt://` URLs read with FFmpeg's option names and units, SRT's stream-id access-control syntax, and the options
/// checked before any socket exists. Pure values: these run in every build.
@Suite("SRT URLs, stream ids and options")
struct SRTURLTests {
    @Test("A caller URL with FFmpeg's options and units (latency in microseconds, connect_timeout in milliseconds)")
    func callerURL() throws {
        let url = try SRTURL("srt://127.0.0.1:9000?latency=400000&passphrase=correct%20horse&pbkeylen=32"
                             + "&streamid=%23%21%3A%3Ar%3Dlive%2Fcam%2Cm%3Dpublish&connect_timeout=1500&pkt_size=1316&maxbw=-1")
        #expect(url.host == "127.0.0.1")
        #expect(url.port == 9000)
        #expect(url.options.mode == .caller)
        #expect(url.options.latency == .milliseconds(400))
        #expect(url.options.passphrase == "correct horse")
        #expect(url.options.keyLength == 32)
        #expect(url.options.streamID == "#!::r=live/cam,m=publish")
        #expect(url.options.connectTimeout == .milliseconds(1500))
        #expect(url.options.payloadSize == 1316)
        #expect(url.ignoredOptions == ["maxbw"])
        #expect(!url.description.contains("horse"), "the passphrase stays out of logs")
    }

    @Test("A URL without a host listens; IPv6 in brackets; an unencoded stream id after streamid= is taken as written")
    func listenerAndIPv6() throws {
        let listener = try SRTURL("srt://:9001")
        #expect(listener.options.mode == .listener && listener.host.isEmpty && listener.port == 9001)
        let v6 = try SRTURL("srt://[::1]:9002?mode=rendezvous")
        #expect(v6.host == "::1" && v6.options.mode == .rendezvous)
        let raw = try SRTURL("srt://127.0.0.1:9003?streamid=#!::r=live/a,m=request")
        #expect(raw.options.streamID == "#!::r=live/a,m=request")
    }

    @Test("Bad URLs and options are named", arguments: [
        ("rtmp://127.0.0.1:9000", "does not start with srt://"),
        ("srt://127.0.0.1", "no port"),
        ("srt://127.0.0.1:0", "is not a number from 1 to 65535"),
        ("srt://127.0.0.1:70000", "is not a number from 1 to 65535"),
        ("srt://127.0.0.1:9000?mode=server", "not caller, listener or rendezvous"),
        ("srt://127.0.0.1:9000?passphrase=short", "10 to 79 characters"),
        ("srt://127.0.0.1:9000?passphrase=long%20enough%20here&pbkeylen=20", "16, 24 or 32"),
        ("srt://127.0.0.1:9000?bogus=1", "unknown option bogus"),
        ("srt://127.0.0.1:9000?streamid=%zz", "bad percent escape"),
        ("srt://:9000?mode=caller", "a caller needs a host"),
        ("srt://127.0.0.1:9000?payload_size=2000", "1 to 1456"),
    ])
    func badURLs(url: String, message: String) {
        #expect(throws: SRTError.self) { try SRTURL(url) }
        do {
            _ = try SRTURL(url)
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test("Stream ids in the access-control syntax, and bare ones")
    func streamIDs() throws {
        let id = try SRTStreamID(parsing: "#!::r=live/cam,m=publish,u=alice,x-token=abc")
        #expect(id.resource == "live/cam")
        #expect(id.mode == .publish)
        #expect(id.user == "alice")
        #expect(id.value(of: "x-token") == "abc")
        #expect(id.description == "#!::r=live/cam,m=publish,u=alice,x-token=abc")
        #expect(SRTStreamID(resource: "live/cam", mode: .request).description == "#!::r=live/cam,m=request")
        let bare = try SRTStreamID(parsing: "live/cam")
        #expect(bare.resource == "live/cam" && bare.mode == nil && bare.description == "live/cam")
        // A bare id is written back as it came, commas and equals signs included (found by the fuzzer).
        let odd = try SRTStreamID(parsing: "Digest user=\"a\", realm=x")
        #expect(odd.resource == "Digest user=\"a\", realm=x" && odd.description == "Digest user=\"a\", realm=x")
        #expect(throws: SRTError.rejected(.badRequest)) { try SRTStreamID(parsing: "#!::r=a,r=b") }
        #expect(throws: SRTError.rejected(.badRequest)) { try SRTStreamID(parsing: "#!::r") }
        #expect(throws: SRTError.rejected(.badMode)) { try SRTStreamID(parsing: "#!::r=a,m=watch") }
    }

    @Test("Rejection reasons read as what they mean")
    func rejectionReasons() {
        #expect(SRTRejectionReason.badSecret.description.contains("wrong passphrase"))
        #expect(SRTRejectionReason.forbidden.description == "forbidden (access control 1403)")
        #expect(SRTRejectionReason(code: 2001).description.contains("application"))
    }

    #if !SRT
    @Test("Without the SRT trait, a socket says the build has no SRT")
    func unavailable() {
        #expect(throws: SRTError.unavailable) { try SRTSocket.connect(to: "srt://127.0.0.1:9000") }
        #expect(throws: SRTError.unavailable) { try SRTListener(url: "srt://:9000") }
    }
    #endif
}
