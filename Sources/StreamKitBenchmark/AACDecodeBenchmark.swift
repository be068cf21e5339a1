// `streamkit-benchmark aac-decode FILE.aac [--loops N] [--rounds N]`: the native AAC-LC decoder against
// FFmpeg's `aac` decoder on the same ADTS stream, repeated N times, CPU seconds of each and the ratio.
import AAC
import Foundation
import NativeAAC

/// Decodes an ADTS file `loops` times with the native decoder (best of `rounds`, thread CPU time) and
/// with `ffmpeg -c:a aac … -f null -` (its `-benchmark` user time), and prints both and the ratio.
/// - Parameters:
///   - path: the ADTS file.
///   - loops: how many times the stream is decoded in one run.
///   - rounds: how many runs of ours to take the best of.
func benchmarkAACDecode(path: String, loops: Int, rounds: Int) throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let frames = ADTSFrameScanner.scan(bytes).frames
    guard let first = frames.first else { fail("\(path): no ADTS frame") }
    var decoder = try NativeAACDecoder(adtsHeader: first.header)
    var checksum: Float = 0
    let ours = try best(rounds, clock: threadCPUTime) {
        decoder = try NativeAACDecoder(adtsHeader: first.header)
        for _ in 0..<loops {
            for frame in frames {
                for decoded in decoder.decode(adtsFrame: frame) { checksum += decoded.channels[0][512] }
            }
        }
    }
    let seconds = Double(frames.count * 1024 * loops) / Double(decoder.sampleRate)
    print(String(format: "native:  %d frames × %d, %.2f s of %d-channel audio in %.3f s CPU (%.0f× real time)%@",
                 frames.count, loops, seconds, decoder.channelCount, ours, seconds / ours, checksum.isNaN ? " NaN" : ""))
    // FFmpeg's user time includes its start-up (dynamic linking, probing); decoding the stream `loops` and
    // `2 × loops` times and taking the difference leaves the decoding alone.
    guard let once = try ffmpegUserTime(path: path, loops: loops), let twice = try ffmpegUserTime(path: path, loops: 2 * loops) else {
        print("ffmpeg: no -benchmark time in its output")
        return
    }
    let theirs = max(twice - once, 1e-6)
    print(String(format: "ffmpeg:  %.3f s user time for %d more loops (%.3f s and %.3f s in all; %.0f× real time)",
                 theirs, loops, once, twice, seconds / theirs))
    print(String(format: "ratio:   native takes %.2f× FFmpeg's decoding time", ours / theirs))
}

/// The user CPU seconds `ffmpeg -benchmark` reports for decoding a file `loops` times with `-c:a aac`.
private func ffmpegUserTime(path: String, loops: Int) throws -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["ffmpeg", "-hide_banner", "-nostats", "-benchmark", "-threads", "1", "-stream_loop", "\(loops - 1)", "-c:a", "aac",
                         "-i", path, "-f", "null", "-"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard let range = output.range(of: "utime=") else { return nil }
    return Double(output[range.upperBound...].prefix { $0 == "." || $0.isNumber })
}
