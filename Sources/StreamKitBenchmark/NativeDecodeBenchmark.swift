// native-decode: the native H.264 decoder against `ffmpeg -threads 1` on the same Annex B file.

import Bitstream
import Foundation
import NativeH264Decoder

/// Decodes `bytes` with ``NativeH264Decoder`` `rounds` times (best thread CPU time) and with
/// `ffmpeg -threads 1 -i path -f null -` (child CPU time, start-up included), prints both, the frame
/// rates and the ratio; with `yuvPath`, writes our decoded frames there (I420, output order).
func benchmarkNativeDecode(bytes: [UInt8], path: String, rounds: Int, yuvPath: String?) throws {
    let ranges = AnnexB.nalUnitRanges(in: bytes)
    var frameCount = 0, concealed = 0
    var yuv = Data()
    let ours = best(rounds, clock: threadCPUTime) {
        let decoder = NativeH264Decoder()
        var frames: [NativeH264DecodedFrame] = []
        for range in ranges {
            do { frames += try decoder.decode(nalUnit: bytes[range], timestamp: 0) } catch { fail("native decoder: \(error)") }
        }
        frames += decoder.flush()
        frameCount = frames.count
        concealed = frames.map(\.concealedMacroblocks).reduce(0, +)
        if yuvPath != nil && yuv.isEmpty { for frame in frames { yuv.append(contentsOf: frame.picture.packedBytes) } }
        sink &+= frames.count
    }
    if let yuvPath { try yuv.write(to: URL(fileURLWithPath: yuvPath)) }
    func childCPU() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
    var ffmpeg = Double.infinity
    for _ in 0..<rounds {
        let before = childCPU()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-v", "error", "-threads", "1", "-i", path, "-f", "null", "-"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { fail("ffmpeg did not start: \(error)") }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { fail("ffmpeg failed on \(path)") }
        ffmpeg = min(ffmpeg, childCPU() - before)
    }
    print("native-decode \(path): \(frameCount) frames, \(concealed) macroblocks concealed")
    print(String(format: "  native decoder   %8.3f s CPU  %8.1f frames/s", ours, Double(frameCount) / ours))
    print(String(format: "  ffmpeg -threads 1 %7.3f s CPU  %8.1f frames/s (process start-up included)", ffmpeg, Double(frameCount) / ffmpeg))
    print(String(format: "  speed: %.2fx ffmpeg's (ffmpeg time / ours)", ffmpeg / ours))
}
