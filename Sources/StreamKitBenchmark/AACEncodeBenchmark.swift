// `streamkit-benchmark aac-encode IN.wav OUT.aac [--bitrate BPS] [--rounds N]`: the native AAC-LC encoder
// against FFmpeg's `aac` encoder on the same WAV file, CPU seconds of each and the ratio; writes our ADTS
// stream to OUT.aac (scripts/benchmark-aac-encoder.sh scores it with Zimtohrli).
import AAC
import Containers
import Foundation
import NativeAAC

/// Encodes a WAV file with the native encoder (best of `rounds`, thread CPU time) and with
/// `ffmpeg -c:a aac` (its `-benchmark` user time, start-up subtracted), writes ours as ADTS, and prints
/// both times, the ratio, and our bit rate.
/// - Parameters:
///   - input: the WAV file.
///   - output: where our ADTS stream goes.
///   - bitRate: the target, bits per second.
///   - rounds: how many runs of ours to take the best of.
func benchmarkAACEncode(input: String, output: String, bitRate: Int, rounds: Int) throws {
    var reader = try WAVReader(path: input)
    var planar: [[Float]] = Array(repeating: [], count: reader.format.channelCount)
    while let buffer = try reader.read(maxFrameCount: 65536) {
        for (channel, samples) in buffer.planarFloat32.enumerated() { planar[channel] += samples }
    }
    let sampleRate = reader.format.sampleRate
    var frames: [[UInt8]] = []
    var statistics = AACEncoderStatistics()
    let ours = try best(rounds, clock: threadCPUTime) {
        var encoder = try NativeAACEncoder(sampleRate: sampleRate, channelCount: planar.count, bitRate: bitRate)
        frames = encoder.encode(planar)
        frames += encoder.flush()
        statistics = encoder.statistics
    }
    var bytes: [UInt8] = []
    for frame in frames {
        bytes += try ADTSHeader(audioObjectType: .aacLC, sampleRate: sampleRate, channels: planar.count, payloadLength: frame.count).serialized()
        bytes += frame
    }
    try Data(bytes).write(to: URL(fileURLWithPath: output))
    let seconds = Double(planar.first?.count ?? 0) / Double(sampleRate)
    let rate = Double(frames.reduce(0) { $0 + $1.count } * 8) / max(seconds, 1e-9)
    print(String(format: "native:  %.2f s of %d-channel audio in %.3f s CPU (%.0f× real time), %.0f bit/s raw (%+.1f %% of %d), "
                 + "M/S bands %d, mean noise-to-mask %.1f dB, padding %d bits",
                 seconds, planar.count, ours, seconds / ours, rate, (rate / Double(bitRate) - 1) * 100, bitRate,
                 statistics.midSideBands, statistics.noiseToThresholdDecibels / Double(max(statistics.frames, 1)), statistics.paddingBits))
    guard let theirs = try ffmpegEncodeUserTime(path: input, bitRate: bitRate) else {
        print("ffmpeg: no -benchmark time in its output")
        return
    }
    print(String(format: "ffmpeg:  %.3f s user time (%.0f× real time)", theirs, seconds / max(theirs, 1e-6)))
    print(String(format: "ratio:   native takes %.2f× FFmpeg's encoding time", ours / max(theirs, 1e-6)))
}

/// The user CPU seconds of `ffmpeg -c:a aac` encoding a file, less those of decoding it alone (its start-up
/// and the WAV reading), from `-benchmark`.
private func ffmpegEncodeUserTime(path: String, bitRate: Int) throws -> Double? {
    func userTime(_ arguments: [String]) throws -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-nostats", "-benchmark", "-threads", "1", "-i", path] + arguments + ["-f", "null", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let range = output.range(of: "utime=") else { return nil }
        return Double(output[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }
    guard let encoding = try userTime(["-c:a", "aac", "-b:a", "\(bitRate)"]), let copying = try userTime(["-c:a", "pcm_f32le"]) else { return nil }
    return max(encoding - copying, 1e-6)
}
