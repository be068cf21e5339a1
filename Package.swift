// swift-tools-version:6.1
// StreamKit — live video pipeline (capture → encode → packetize → decode) for Linux.
// Layers and module boundaries: see ../shared/DESIGN.md. Imports flow down only.
import PackageDescription

let package = Package(
    name: "StreamKit",
    products: [
        .library(name: "Capture", targets: ["Capture"]),
        .library(name: "FFmpegEngine", targets: ["FFmpegEngine"]),
        .executable(name: "streamkit", targets: ["streamkit"]),
        .library(name: "Bitstream", targets: ["Bitstream"]),
        .library(name: "MediaCore", targets: ["MediaCore"]),
        .library(name: "POSIX", targets: ["POSIX"]),
        .library(name: "H264", targets: ["H264"]),
        .library(name: "HEVC", targets: ["HEVC"]),
        .library(name: "AAC", targets: ["AAC"]),
        .library(name: "Opus", targets: ["Opus"]),
        .library(name: "Containers", targets: ["Containers"]),
        .library(name: "RTP", targets: ["RTP"]),
        .library(name: "CodecInterface", targets: ["CodecInterface"]),
        .library(name: "Codecs", targets: ["Codecs"]),
        .library(name: "NativeH264Kernels", targets: ["NativeH264Kernels"]),
        .library(name: "NativeH264", targets: ["NativeH264"]),
        .library(name: "NativeAAC", targets: ["NativeAAC"]),
        .library(name: "NativeH264Decoder", targets: ["NativeH264Decoder"]),
        .library(name: "TransportErrors", targets: ["TransportErrors"]),
        .library(name: "RTSPMessages", targets: ["RTSPMessages"]),
        .library(name: "RTMPWire", targets: ["RTMPWire"]),
        .library(name: "SRTP", targets: ["SRTP"]),
        .library(name: "HTTPMessages", targets: ["HTTPMessages"]),
        .library(name: "STUN", targets: ["STUN"]),
        .library(name: "NetworkIO", targets: ["NetworkIO"]),
        .library(name: "Transport", targets: ["Transport"]),
        .library(name: "Live", targets: ["Live"]),
        // The umbrella: `import StreamKit` is all an app needs.
        .library(name: "StreamKit", targets: ["StreamKit"]),
    ],
    // FFmpeg: the libavcodec engine (libx264, libx265, aac, hardware encoders). Off by default so a plain
    // `swift build` needs the toolchain alone; `swift build --traits FFmpeg` turns it on.
    traits: [
        .trait(name: "FFmpeg", description: "Build the FFmpeg (libavcodec) codec engine"),
        // OpenSSL: TLS (rtmps://) over the system's libssl. Off by default, like FFmpeg; without it a TLS
        // connection fails with TLSError.unavailable ("built without TLS").
        .trait(name: "OpenSSL", description: "Build TLS (rtmps://) over the system's OpenSSL (libssl)"),
        // SRT: srt:// (caller, listener, rendezvous) over the system's libsrt. Off by default; without it an SRT
        // socket fails with SRTError.unavailable ("built without SRT").
        .trait(name: "SRT", description: "Build SRT (srt://) over the system's libsrt"),
        .default(enabledTraits: []),
    ],
    targets: [
        // Layer 1
        .target(name: "Bitstream"),
        // MediaCore reads AVCC framing through Bitstream (same layer, no cycle: Bitstream imports nothing).
        .target(name: "MediaCore", dependencies: ["Bitstream"]),
        // The Linux headers the Glibc module leaves out (epoll, eventfd, TCP options), for POSIX alone.
        .target(name: "CPOSIXShims"),
        .target(name: "POSIX", dependencies: ["CPOSIXShims"]),
        // TransportError and TLSError: the values the network layer fails with, held this low so that a protocol's
        // wire syntax (RTMPError.transport) can name them without importing sockets (same layer as POSIX, which it uses).
        .target(name: "TransportErrors", dependencies: ["POSIX"]),
        // Layer 2
        // H264 and HEVC read MediaCore's FormatDescription out of their decoder configuration records (layer 1).
        .target(name: "H264", dependencies: ["Bitstream", "MediaCore"]),
        .target(name: "HEVC", dependencies: ["Bitstream", "MediaCore"]),
        .target(name: "AAC", dependencies: ["Bitstream"]),
        // Opus's own syntax (RFC 6716 TOC byte, RFC 7845 OpusHead, the ISOBMFF dOps payload): no dependency.
        .target(name: "Opus"),
        // Layer 3. CodecInterface: the engine protocol, configurations and errors — what an engine needs.
        // FFmpegEngine (and later the native engine) implement it. Codecs sits on top: the sessions and
        // the registry whose `default` holds every engine of this build, so it sees the engines.
        .target(name: "CodecInterface", dependencies: ["MediaCore"]),
        .target(name: "Codecs", dependencies: ["CodecInterface", "FFmpegEngine", "NativeH264", "MediaCore", "Bitstream", "H264", "HEVC", "AAC"]),
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libavcodec libavutil libswscale",
                       providers: [.apt(["libavcodec-dev", "libavutil-dev", "libswscale-dev", "pkg-config"])]),
        .target(name: "FFmpegEngine", dependencies: [
            "CodecInterface", "MediaCore", "H264", "HEVC", "AAC", "Bitstream",
            .target(name: "CFFmpeg", condition: .when(traits: ["FFmpeg"])),
        ]),
        // The native H.264 encoder: pixel kernels (SAD/SATD, interpolation, transforms, intra prediction,
        // deblocking — x264's common/) in a target of their own, and the decisions and bitstream writing above them.
        .target(name: "NativeH264Kernels", dependencies: ["MediaCore"]),
        // The native H.264 decoder (CAVLC Constrained Baseline so far) over the same kernels; the native engine wraps it.
        .target(name: "NativeH264Decoder", dependencies: ["NativeH264Kernels", "H264", "Bitstream", "MediaCore", "CodecInterface"]),
        .target(name: "NativeH264", dependencies: ["NativeH264Kernels", "NativeH264Decoder", "NativeAAC", "H264", "Bitstream", "MediaCore", "CodecInterface"]),
        // The native AAC-LC decoder (and the tables, windows and transforms an encoder shares).
        .target(name: "NativeAAC", dependencies: ["AAC", "Bitstream", "MediaCore", "CodecInterface"]),
        // Layer 4
        .target(name: "Containers", dependencies: ["Bitstream", "MediaCore", "H264", "HEVC", "AAC", "Opus", "POSIX"]),
        .target(name: "RTP", dependencies: ["Bitstream", "MediaCore", "H264", "HEVC", "AAC", "Opus"]),
        // Each protocol's byte syntax, below the sockets: no event loop, no sockets, no Foundation networking.
        // RTSP/1.0 messages, headers, interleaved frames and the Basic/Digest authentication syntax.
        .target(name: "RTSPMessages", dependencies: ["Bitstream"]),
        // RTMP: handshake, chunk stream, messages, control messages and events, commands over Containers' AMF0.
        .target(name: "RTMPWire", dependencies: ["Bitstream", "Containers", "TransportErrors"]),
        // SRTP/SRTCP (RFC 3711, RFC 7714): the packet transform on bytes; its ciphers from libcrypto (trait OpenSSL),
        // without which a context fails with SRTPError.unavailable.
        .target(name: "SRTP", dependencies: [.target(name: "COpenSSL", condition: .when(traits: ["OpenSSL"]))]),
        // HTTP/1.1 messages: request and response parsers within caps (Content-Length and chunked bodies), writing.
        .target(name: "HTTPMessages"),
        // STUN (RFC 8489) messages with MESSAGE-INTEGRITY (pure-Swift HMAC-SHA1) and FINGERPRINT (CRC-32), the ICE
        // attributes (RFC 8445), and RFC 7983's first-byte demultiplexing of STUN, DTLS and RTP on one port.
        .target(name: "STUN"),
        // Layer 5
        .target(name: "Capture", dependencies: ["MediaCore", "POSIX"]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSRT", pkgConfig: "srt", providers: [.apt(["libsrt-openssl-dev"])]),
        // The network layer: the epoll event loop, TCP and UDP, TLS (trait OpenSSL), SRT sockets (trait SRT).
        .target(name: "NetworkIO", dependencies: [
            "POSIX", "TransportErrors", "SRTP",
            .target(name: "COpenSSL", condition: .when(traits: ["OpenSSL"])),
            .target(name: "CSRT", condition: .when(traits: ["SRT"])),
        ]),
        // The protocol sessions (RTSP and RTMP clients, servers, publisher, ingest) and the adaptive send queue; it
        // re-exports the network layer and the wire modules, so `import Transport` is all a caller needs.
        .target(name: "Transport", dependencies: [
            "NetworkIO", "TransportErrors", "RTSPMessages", "RTMPWire", "POSIX", "MediaCore", "Bitstream", "Containers",
            "HTTPMessages", "STUN", "RTP", "SRTP",
        ]),
        // Layer 6: the live pipeline (sources → one encoder per rendition → destinations), and the umbrella module.
        .target(name: "Live", dependencies: ["Capture", "Codecs", "Containers", "RTP", "Transport", "POSIX", "MediaCore",
                                            "AAC", "H264", "HEVC", "NativeAAC", "Opus"]),
        .target(name: "StreamKit", dependencies: ["AAC", "Bitstream", "Capture", "Codecs", "Containers", "H264", "HEVC", "Live",
                                                  "MediaCore", "POSIX", "RTP", "Transport"]),
        // Layer 7
        .executableTarget(name: "streamkit", dependencies: [
            "Containers", "Codecs", "FFmpegEngine", "Capture", "MediaCore", "H264", "HEVC", "AAC", "Bitstream",
            "RTP", "Transport", "POSIX", "NativeH264", "NativeAAC", "Live",
        ]),

        // Benchmarks: speed against the peer on the same input, printed as ratios (never timed tests).
        .executableTarget(name: "streamkit-benchmark", dependencies: ["Bitstream", "H264", "AAC", "RTP", "CodecInterface", "NativeH264Kernels", "NativeH264", "NativeH264Decoder", "NativeAAC", "Containers", "MediaCore", "SRTP"], path: "Sources/StreamKitBenchmark"),
        // Our RTSP server replaying a capture, for scripts/benchmark-rtsp-server.sh (CPU per client).
        .executableTarget(name: "streamkit-rtsp-benchmark-server", dependencies: ["Transport", "POSIX"],
                          path: "Sources/RTSPServerBenchmark"),

        // Fuzzing: a libFuzzer driver (see scripts/fuzz.sh). The C target only declares the weak driver symbol.
        .target(name: "CFuzzerDriver"),
        // What one fuzz input goes through: every parser. Shared by the fuzzer and the corpus-replay test.
        .target(name: "FuzzTargets", dependencies: ["Bitstream", "H264", "HEVC", "AAC", "Opus", "NativeAAC", "Containers", "RTP", "RTSPMessages", "RTMPWire", "Transport", "NativeH264Decoder", "SRTP", "NetworkIO", "HTTPMessages", "STUN"]),
        .executableTarget(name: "streamkit-fuzz", dependencies: ["CFuzzerDriver", "FuzzTargets"], path: "Sources/StreamKitFuzz"),

        // Test oracles shared by the test targets: media paths, ffmpeg/ffprobe runner, MP4 box finder, and the peers
        // (PeerProcess, Readiness, PacketCapture, NginxRTMP, SelfSignedCertificate, the streamkit CLI runner).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Test-only: counts the calling thread's heap allocations (malloc interposed in the test binary).
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        .testTarget(name: "BitstreamTests", dependencies: ["Bitstream", "TestSupport", "CAllocationCounter"]),
        .testTarget(name: "H264Tests", dependencies: ["H264", "Bitstream", "TestSupport"]),
        .testTarget(name: "HEVCTests", dependencies: ["HEVC", "Bitstream", "TestSupport"]),
        .testTarget(name: "AACTests", dependencies: ["AAC", "Bitstream", "TestSupport"]),
        .testTarget(name: "ContainersTests", dependencies: ["Containers", "H264", "HEVC", "AAC", "Opus", "Bitstream", "POSIX", "TestSupport", "CAllocationCounter"]),
        .testTarget(name: "RTPTests", dependencies: ["RTP", "Bitstream", "MediaCore", "H264", "HEVC", "AAC", "Opus", "POSIX", "TestSupport"]),
        .testTarget(name: "StreamKitCLITests", dependencies: ["Containers", "Capture", "MediaCore", "TestSupport"]),
        .testTarget(name: "POSIXTests", dependencies: ["POSIX"]),
        .testTarget(name: "MediaCoreTests", dependencies: ["MediaCore", "TestSupport"]),
        .testTarget(name: "CodecsTests", dependencies: ["Codecs", "NativeH264", "FFmpegEngine", "Containers", "Capture", "MediaCore", "TestSupport"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "MediaCore", "TestSupport"]),
        .testTarget(name: "NativeH264KernelsTests", dependencies: ["NativeH264Kernels", "TestSupport"]),
        .testTarget(name: "NativeH264Tests", dependencies: ["NativeH264", "CodecInterface", "NativeH264Kernels", "H264", "Bitstream", "MediaCore", "Capture", "Containers", "TestSupport", "CAllocationCounter"]),
        .testTarget(name: "NativeH264DecoderTests", dependencies: ["NativeH264Decoder", "NativeH264", "CodecInterface", "H264", "Bitstream", "MediaCore", "Capture", "Transport", "TestSupport", "CAllocationCounter"]),
        .testTarget(name: "TransportTests", dependencies: ["Transport", "RTSPMessages", "POSIX", "Bitstream", "TestSupport"]),
        .testTarget(name: "MP4WriterTests", dependencies: ["Containers", "Codecs", "FFmpegEngine", "Capture", "MediaCore", "TestSupport"]),
        // End to end: stream/serve/receive and the RTSP client and publisher against ffmpeg, GStreamer, tshark.
        .testTarget(name: "StreamingTests", dependencies: ["Transport", "RTP", "POSIX", "MediaCore", "TestSupport"]),
        // RTMP against nginx-rtmp, ffmpeg and tshark, and hostile peers against our server (run one suite at a time).
        .testTarget(name: "RTMPTests", dependencies: ["Transport", "RTMPWire", "Containers", "Bitstream", "POSIX", "TestSupport", "CAllocationCounter"]),
        // The RTMP publisher: its send queue and adaptation, and publishing to nginx-rtmp and the modern FFmpeg.
        .testTarget(name: "RTMPPublisherTests", dependencies: ["Transport", "MediaCore", "POSIX", "TestSupport"]),
        // RTMPS through nginx (TLS termination in front of its RTMP module) and the RTMP ingest/player CLI
        // (receive rtmp://, receive --listen, serve --rtmp-port) against ffmpeg and nginx-rtmp.
        .testTarget(name: "RTMPIngestTests", dependencies: ["Transport", "POSIX", "Containers", "MediaCore", "TestSupport"]),
        // The live pipeline in process: fan-out to files, nginx-rtmp and the RTSP server, checked by ffprobe and ffmpeg.
        .testTarget(name: "LiveTests", dependencies: ["StreamKit", "TestSupport"]),
        .testTarget(name: "NativeAACTests", dependencies: ["NativeAAC", "AAC", "Bitstream", "MediaCore", "CodecInterface", "TestSupport"]),
        // SRTP against RFC 3711/7714 vectors and pylibsrtp; DTLS-SRTP against openssl s_server/s_client.
        .testTarget(name: "SRTPTests", dependencies: ["SRTP", "NetworkIO", "POSIX", "TestSupport", "CAllocationCounter"]),
        // HTTP/1.1, STUN, ICE-lite and the WebRTC SDP answer against curl, python, aioice, aiortc and Chromium.
        .testTarget(name: "WebNetTests", dependencies: ["Transport", "HTTPMessages", "STUN", "RTP", "RTSPMessages", "POSIX", "TestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["FuzzTargets", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// The whole test suite's pure pass (scripts/test.sh sets STREAMKIT_OPTIMISE_CODECS_ONLY=1 and builds -c release): the
// codec modules are optimised as in any release build — the native encoder's and decoder's suites measure allocations
// and check bit-exactness on optimised code, and the native live proofs keep up with a camera only there — and so are
// the codecs' test targets and TestSupport; every other module and test target is
// compiled without optimisation, as in a debug build (assertions on) — but for RTSPMessages, whose MD5 hashes every
// decoded picture in the decoder's conformance suites (unoptimised, it took two thirds of their time). The whole build costs about the CPU time of a
// debug build, and one build serves every pure pass instead of a debug and a release build. Without the variable (an app that depends on StreamKit, plain
// `swift build`) the manifest has no unsafe flag.
if Context.environment["STREAMKIT_OPTIMISE_CODECS_ONLY"] == "1" {
    let codecs: Set<String> = [
        "MediaCore", "Bitstream", "H264", "AAC", "CodecInterface",
        "NativeH264Kernels", "NativeH264Decoder", "NativeH264", "NativeAAC",
        "RTSPMessages", "TestSupport", "NativeH264KernelsTests", "NativeH264Tests", "NativeH264DecoderTests", "NativeAACTests",
    ]
    for target in package.targets where !codecs.contains(target.name) && target.type != .system {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"], .when(configuration: .release))]
    }
}

// The traited pass of the whole test suite (scripts/test.sh) runs only the test targets whose code a trait changes (the
// others ran in the pure pass): with STREAMKIT_TEST_TARGETS set to a comma-separated list of test target names, the
// package declares only those test targets, so the build does not compile the rest. Unset (plain `swift test`, an app
// that depends on StreamKit), every test target is declared.
if let kept = Context.environment["STREAMKIT_TEST_TARGETS"], !kept.isEmpty {
    let names = Set(kept.split(separator: ",").map(String.init))
    package.targets.removeAll { $0.type == .test && !names.contains($0.name) }
}
