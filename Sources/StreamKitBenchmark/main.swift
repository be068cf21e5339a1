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
//   streamkit-benchmark native-encode IN.y4m OUT.264 [--qp 26 | --bitrate BPS] [--frames N] [--keyint 30]
//   streamkit-benchmark native-slices FILE.y4m [--qp 26] [--frames 30] [--keyint 30] [--slices 4] [--bytes 1200] [--rounds 2]
//
// annexb-to-avcc: Annex B → AVCC conversion and a memcpy of the same bytes (FILE repeated to the size).
// bits: slice headers of an H.264 stream read with the legacy and the current BitReader, and a stream
// of random u(n)/ue/se writes and reads with the legacy and current BitWriter/BitReader against a memcpy
// of the written bytes. kernels: the native H.264 encoder's pixel kernels, reference against fast.
// Prints the best time of each and the ratios. Speed is measured here, never asserted in a test.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "kernels" {
    func kernelOption(_ name: String, default value: Int) -> Int {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.endIndex,
              let parsed = Int(arguments[index + 1]), parsed > 0 else { return value }
        return parsed
    }
    benchmarkKernels(operations: kernelOption("--operations", default: 20_000), rounds: kernelOption("--rounds", default: 5))
    if sink == 42 { print("") }
    exit(0)
}
if arguments.first == "native-intra", arguments.count >= 2 {
    func intraOption(_ name: String, default value: Int) -> Int {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.endIndex,
              let parsed = Int(arguments[index + 1]), parsed >= 0 else { return value }
        return parsed
    }
    try benchmarkNativeIntra(path: arguments[arguments.startIndex + 1], qp: min(intraOption("--qp", default: 26), 51),
                             frameLimit: max(intraOption("--frames", default: 100), 1), rounds: max(intraOption("--rounds", default: 3), 1))
    exit(0)
}
if arguments.first == "native", arguments.count >= 2 {
    func gopOption(_ name: String, default value: Int) -> Int {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.endIndex,
              let parsed = Int(arguments[index + 1]), parsed >= 0 else { return value }
        return parsed
    }
    try benchmarkNativeGOP(path: arguments[arguments.startIndex + 1], qp: min(gopOption("--qp", default: 26), 51),
                           frameLimit: max(gopOption("--frames", default: 60), 1), keyFrameInterval: max(gopOption("--keyint", default: 30), 1))
    exit(0)
}
if arguments.first == "native-encode", arguments.count >= 3 {
    func encodeOption(_ name: String, default value: Int) -> Int {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.endIndex,
              let parsed = Int(arguments[index + 1]), parsed >= 0 else { return value }
        return parsed
    }
    let settings = NativeEncodeSettings(quantisationParameter: min(encodeOption("--qp", default: 26), 51),
                                        bitRate: arguments.contains("--bitrate") ? max(encodeOption("--bitrate", default: 1_000_000), 1) : nil,
                                        frameLimit: max(encodeOption("--frames", default: Int.max), 1),
                                        keyFrameInterval: max(encodeOption("--keyint", default: 30), 1))
    try runNativeEncode(inputPath: arguments[arguments.startIndex + 1], outputPath: arguments[arguments.startIndex + 2], settings: settings)
    exit(0)
}
if arguments.first == "native-slices", arguments.count >= 2 {
    func slicesOption(_ name: String, default value: Int) -> Int {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.endIndex,
              let parsed = Int(arguments[index + 1]), parsed > 0 else { return value }
        return parsed
    }
    try benchmarkNativeSlices(path: arguments[arguments.startIndex + 1], qp: min(slicesOption("--qp", default: 26), 51),
                              frameLimit: slicesOption("--frames", default: 30), keyFrameInterval: slicesOption("--keyint", default: 30),
                              sliceCount: slicesOption("--slices", default: 4), maximumBytes: max(slicesOption("--bytes", default: 1200), 32),
                              rounds: slicesOption("--rounds", default: 2))
    exit(0)
}
let usage = """
    usage: streamkit-benchmark annexb-to-avcc FILE [--megabytes N] [--rounds N]
           streamkit-benchmark bits FILE [--megabytes N] [--rounds N] [--elements N]
           streamkit-benchmark rtp FILE [--megabytes N] [--rounds N]
           streamkit-benchmark kernels [--operations N] [--rounds N]
           streamkit-benchmark native-intra FILE.y4m [--qp N] [--frames N] [--rounds N]
           streamkit-benchmark mp4-mux FILE.h264 [--megabytes N] [--rounds N]
           streamkit-benchmark native FILE.y4m [--qp N] [--frames N] [--keyint N]
           streamkit-benchmark mp4-demux FILE [--rounds N]
           streamkit-benchmark native-encode IN.y4m OUT.264 [--qp N | --bitrate BPS] [--frames N] [--keyint N]
           streamkit-benchmark native-slices FILE.y4m [--qp N] [--frames N] [--keyint N] [--slices N] [--bytes N] [--rounds N]
    """
guard let command = arguments.first, ["annexb-to-avcc", "bits", "rtp", "mp4-mux", "mp4-demux"].contains(command), arguments.count >= 2 else {
    fail(usage, code: 2)
}
let path = arguments[arguments.startIndex + 1]
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.endIndex,
          let parsed = Int(arguments[index + 1]) else { return value }
    return parsed
}
guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { fail("cannot read \(path)") }
let file = [UInt8](data)
let megabytes = option("--megabytes", default: 100)
let rounds = option("--rounds", default: 5)

switch command {
case "mp4-demux":
    try benchmarkMP4Demux(file: file, path: path, rounds: rounds)
case "annexb-to-avcc":
    try benchmarkAnnexBToAVCC(file: file, path: path, megabytes: megabytes, rounds: rounds)
case "rtp":
    try benchmarkRTP(file: file, path: path, megabytes: megabytes, rounds: rounds)
case "mp4-mux":
    try benchmarkMP4Mux(file: file, path: path, megabytes: megabytes, rounds: rounds)
default:
    benchmarkSliceHeaders(file: file, path: path, megabytes: megabytes, rounds: rounds)
    print("")
    benchmarkBitStream(elementCount: option("--elements", default: 2_000_000), rounds: rounds)
}
if sink == 42 { print("") }  // keeps the work observable
