// swift-tools-version:6.1
// StreamKit — live video pipeline (capture → encode → packetize → decode) for Linux.
// Layers and module boundaries: see ../shared/DESIGN.md. Imports flow down only.
import PackageDescription

let package = Package(
    name: "StreamKit",
    products: [
        .executable(name: "streamkit", targets: ["streamkit"]),
        .library(name: "Bitstream", targets: ["Bitstream"]),
        .library(name: "H264", targets: ["H264"]),
        .library(name: "HEVC", targets: ["HEVC"]),
        .library(name: "AAC", targets: ["AAC"]),
        .library(name: "Containers", targets: ["Containers"]),
    ],
    targets: [
        // Layer 1
        .target(name: "Bitstream"),
        // Layer 2
        .target(name: "H264", dependencies: ["Bitstream"]),
        .target(name: "HEVC", dependencies: ["Bitstream"]),
        .target(name: "AAC", dependencies: ["Bitstream"]),
        // Layer 4
        .target(name: "Containers", dependencies: ["Bitstream", "H264", "HEVC", "AAC"]),
        // Layer 6
        .executableTarget(name: "streamkit", dependencies: ["Containers", "H264", "HEVC", "AAC", "Bitstream"]),

        // Benchmarks: speed against the peer on the same input, printed as ratios (never timed tests).
        .executableTarget(name: "streamkit-benchmark", dependencies: ["Bitstream"], path: "Sources/StreamKitBenchmark"),

        // Fuzzing: a libFuzzer driver (see scripts/fuzz.sh). The C target only declares the weak driver symbol.
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "streamkit-fuzz",
            dependencies: ["CFuzzerDriver", "Bitstream", "H264", "HEVC", "AAC", "Containers"],
            path: "Sources/StreamKitFuzz"
        ),

        // Test oracles shared by the test targets: media paths, ffmpeg/ffprobe runner, MP4 box finder.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "BitstreamTests", dependencies: ["Bitstream", "TestSupport"]),
        .testTarget(name: "H264Tests", dependencies: ["H264", "Bitstream"]),
        .testTarget(name: "HEVCTests", dependencies: ["HEVC", "Bitstream"]),
        .testTarget(name: "AACTests", dependencies: ["AAC", "Bitstream"]),
        .testTarget(name: "ContainersTests", dependencies: ["Containers", "H264", "HEVC", "AAC", "Bitstream", "TestSupport"]),
        .testTarget(name: "StreamKitCLITests", dependencies: ["Containers", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
