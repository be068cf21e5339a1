// streamkit-benchmark: in-process speed of the bitstream layer against its floor and its former self.
//
//   streamkit-benchmark annexb-to-avcc FILE [--megabytes 100] [--rounds 5]
//   streamkit-benchmark bits FILE [--megabytes 100] [--rounds 5] [--elements 2000000]
//   streamkit-benchmark rtp FILE [--megabytes 100] [--rounds 5]
//   streamkit-benchmark kernels [--operations 20000] [--rounds 5]
//   streamkit-benchmark native-intra FILE.y4m [--qp 26] [--frames 100] [--rounds 3]
//   streamkit-benchmark mp4-mux FILE.h264 [--megabytes 100] [--rounds 5]
//   streamkit-benchmark native FILE.y4m [--qp 26] [--frames 60] [--keyint 30]
//   streamkit-benchmark mp4-demux FILE [--rounds 5]
//   streamkit-benchmark ts FILE.ts [--rounds 5]
//   streamkit-benchmark flv FILE.h264 [--megabytes 100] [--rounds 5]
//   streamkit-benchmark native-encode IN.y4m OUT.264 [--qp 26 | --bitrate BPS] [--frames N] [--keyint 30] [--preset NAME] [--threads N] [--slices N]
//   streamkit-benchmark native-slices FILE.y4m [--qp 26] [--frames 30] [--keyint 30] [--slices 4] [--bytes 1200] [--rounds 2]
//   streamkit-benchmark native-modes FILE.y4m [--qps 40,45,51] [--frames 30] [--keyint 30] [--out DIR]
//   streamkit-benchmark aac-decode FILE.aac [--loops 20] [--rounds 3]
//   streamkit-benchmark aac-encode IN.wav OUT.aac [--bitrate 128000] [--rounds 3]
//   streamkit-benchmark native-decode FILE.264 [--rounds 3] [--yuv OUT.yuv]
//   streamkit-benchmark srtp [--size 1200] [--packets 20000] [--rounds 5]   (build with --traits OpenSSL)
//
// annexb-to-avcc: Annex B → AVCC conversion and a memcpy of the same bytes (FILE repeated to the size).
// bits: slice headers of an H.264 stream read with the legacy and the current BitReader, and a stream
// of random u(n)/ue/se writes and reads with the legacy and current BitWriter/BitReader against a memcpy
// of the written bytes. kernels: the native H.264 encoder's pixel kernels, reference against fast.
// Prints the best time of each and the ratios. Speed is measured here, never asserted in a test.

try BenchmarkCommand.dispatch(CommandLine.arguments.dropFirst(), among: [
    BenchmarkCommand(name: "annexb-to-avcc", synopsis: "FILE [--megabytes N] [--rounds N]", input: .bytes) {
        try benchmarkAnnexBToAVCC(file: $0.file, path: $0.path, megabytes: $0.megabytes, rounds: $0.rounds)
    },
    BenchmarkCommand(name: "bits", synopsis: "FILE [--megabytes N] [--rounds N] [--elements N]", input: .bytes) {
        benchmarkSliceHeaders(file: $0.file, path: $0.path, megabytes: $0.megabytes, rounds: $0.rounds)
        print("")
        benchmarkBitStream(elementCount: $0.option("--elements", default: 2_000_000), rounds: $0.rounds)
    },
    BenchmarkCommand(name: "srtp", synopsis: "[--size BYTES] [--packets N] [--rounds N]", input: .none) {
        try benchmarkSRTP(packetSize: $0.option("--size", default: 1200, minimum: 13),
                          packets: $0.option("--packets", default: 20_000, minimum: 1),
                          rounds: $0.option("--rounds", default: 5, minimum: 1))
    },
    BenchmarkCommand(name: "rtp", synopsis: "FILE [--megabytes N] [--rounds N]", input: .bytes) {
        try benchmarkRTP(file: $0.file, path: $0.path, megabytes: $0.megabytes, rounds: $0.rounds)
    },
    BenchmarkCommand(name: "kernels", synopsis: "[--operations N] [--rounds N]", input: .none) {
        benchmarkKernels(operations: $0.option("--operations", default: 20_000, minimum: 1), rounds: $0.option("--rounds", default: 5, minimum: 1))
    },
    BenchmarkCommand(name: "native-intra", synopsis: "FILE.y4m [--qp N] [--frames N] [--rounds N]", input: .path) {
        try benchmarkNativeIntra(path: $0.path, qp: min($0.option("--qp", default: 26, minimum: 0), 51),
                                 frameLimit: max($0.option("--frames", default: 100, minimum: 0), 1),
                                 rounds: max($0.option("--rounds", default: 3, minimum: 0), 1))
    },
    BenchmarkCommand(name: "mp4-mux", synopsis: "FILE.h264 [--megabytes N] [--rounds N]", input: .bytes) {
        try benchmarkMP4Mux(file: $0.file, path: $0.path, megabytes: $0.megabytes, rounds: $0.rounds)
    },
    BenchmarkCommand(name: "native", synopsis: "FILE.y4m [--qp N] [--frames N] [--keyint N]", input: .path) {
        try benchmarkNativeGOP(path: $0.path, qp: min($0.option("--qp", default: 26, minimum: 0), 51),
                               frameLimit: max($0.option("--frames", default: 60, minimum: 0), 1),
                               keyFrameInterval: max($0.option("--keyint", default: 30, minimum: 0), 1))
    },
    BenchmarkCommand(name: "mp4-demux", synopsis: "FILE [--rounds N]", input: .bytes) {
        try benchmarkMP4Demux(file: $0.file, path: $0.path, rounds: $0.rounds)
    },
    BenchmarkCommand(name: "ts", synopsis: "FILE.ts [--rounds N]", input: .bytes) {
        try benchmarkTS(file: $0.file, path: $0.path, rounds: $0.rounds)
    },
    BenchmarkCommand(name: "flv", synopsis: "FILE.h264 [--megabytes N] [--rounds N]", input: .bytes) {
        try benchmarkFLV(file: $0.file, path: $0.path, megabytes: $0.megabytes, rounds: $0.rounds)
    },
    BenchmarkCommand(name: "native-encode",
                     synopsis: "IN.y4m OUT.264 [--qp N | --bitrate BPS] [--frames N] [--keyint N] [--preset NAME] [--threads N] [--slices N]",
                     input: .path) {
        let usage = "usage: streamkit-benchmark native-encode IN.y4m OUT.264 [--qp N | --bitrate BPS] [--frames N] [--keyint N] [--preset NAME] "
            + "[--threads N] [--slices N]"
        guard let output = $0.arguments.dropFirst().first, !output.hasPrefix("--") else { fail(usage, code: 2) }
        guard let preset = NativeEncodeSettings.preset(in: $0.arguments) else { fail(usage, code: 2) }
        let settings = NativeEncodeSettings(quantisationParameter: min($0.option("--qp", default: 26, minimum: 0), 51),
                                            bitRate: $0.arguments.contains("--bitrate") ? max($0.option("--bitrate", default: 1_000_000, minimum: 0), 1) : nil,
                                            frameLimit: max($0.option("--frames", default: Int.max, minimum: 0), 1),
                                            keyFrameInterval: max($0.option("--keyint", default: 30, minimum: 0), 1), preset: preset,
                                            threadCount: max($0.option("--threads", default: 1, minimum: 1), 1),
                                            sliceCount: $0.arguments.contains("--slices") ? max($0.option("--slices", default: 1, minimum: 1), 1) : nil)
        try runNativeEncode(inputPath: $0.path, outputPath: output, settings: settings)
    },
    BenchmarkCommand(name: "native-slices", synopsis: "FILE.y4m [--qp N] [--frames N] [--keyint N] [--slices N] [--bytes N] [--rounds N]",
                     input: .path) {
        try benchmarkNativeSlices(path: $0.path, qp: min($0.option("--qp", default: 26, minimum: 1), 51),
                                  frameLimit: $0.option("--frames", default: 30, minimum: 1), keyFrameInterval: $0.option("--keyint", default: 30, minimum: 1),
                                  sliceCount: $0.option("--slices", default: 4, minimum: 1), maximumBytes: max($0.option("--bytes", default: 1200, minimum: 1), 32),
                                  rounds: $0.option("--rounds", default: 2, minimum: 1))
    },
    BenchmarkCommand(name: "native-modes", synopsis: "FILE.y4m [--qps Q,Q,...] [--frames N] [--keyint N] [--out DIR]", input: .path) {
        let arguments = Array($0.arguments)
        let list = arguments.firstIndex(of: "--qps").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        let qps = list.map { $0.split(separator: ",").compactMap { Int($0) } } ?? [40, 45, 51]
        try benchmarkNativeModes(path: $0.path, qps: qps.map { min(max($0, 0), 51) }, frameLimit: $0.option("--frames", default: 30, minimum: 1),
                                 keyFrameInterval: $0.option("--keyint", default: 30, minimum: 1),
                                 outputFolder: arguments.firstIndex(of: "--out").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil })
    },
    BenchmarkCommand(name: "aac-decode", synopsis: "FILE.aac [--loops N] [--rounds N]", input: .path) {
        try benchmarkAACDecode(path: $0.path, loops: $0.option("--loops", default: 20, minimum: 1), rounds: $0.option("--rounds", default: 3, minimum: 1))
    },
    BenchmarkCommand(name: "aac-encode", synopsis: "IN.wav OUT.aac [--bitrate BPS] [--rounds N]", input: .path) {
        guard let output = $0.arguments.dropFirst().first, !output.hasPrefix("--") else {
            fail("usage: streamkit-benchmark aac-encode IN.wav OUT.aac [--bitrate BPS] [--rounds N]", code: 2)
        }
        try benchmarkAACEncode(input: $0.path, output: output, bitRate: $0.option("--bitrate", default: 128_000, minimum: 1),
                               rounds: $0.option("--rounds", default: 3, minimum: 1))
    },
    BenchmarkCommand(name: "native-decode", synopsis: "FILE.264 [--rounds N] [--yuv OUT.yuv]", input: .bytes) {
        let arguments = Array($0.arguments)
        try benchmarkNativeDecode(bytes: $0.file, path: $0.path, rounds: max($0.option("--rounds", default: 3, minimum: 1), 1),
                                  yuvPath: arguments.firstIndex(of: "--yuv").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil })
    },
])
