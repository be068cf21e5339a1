// streamkit-benchmark native FILE.y4m [--qp 26] [--frames 60] [--keyint 30]: the native encoder with
// P pictures (IDR every --keyint frames) against its own all-intra mode and against x264
// --profile baseline --preset veryfast --tune zerolatency --keyint N --qp Q (one thread), same frames,
// one run, and x264 --preset ultrafast. Prints fps, bytes and PSNR-Y of each and the ratios. Times are
// CPU time (the encoding thread's for ours, the child's user + system time for x264), so the ratios
// hold on a loaded machine; x264's include its start-up and Y4M reading.
import Containers
import Foundation
import MediaCore
import NativeH264

/// Runs the comparison.
/// - Parameters:
///   - path: a Y4M file (4:2:0).
///   - qp: the fixed QP of every encoder.
///   - frameLimit: at most this many frames.
///   - keyFrameInterval: the GOP length of the native P mode and x264.
func benchmarkNativeGOP(path: String, qp: Int, frameLimit: Int, keyFrameInterval: Int) throws {
    var reader = try Y4MReader(path: path)
    var frames = [PixelBuffer]()
    while frames.count < frameLimit, let frame = try reader.nextFrame() { frames.append(frame) }
    guard let first = frames.first else { fail("no frames in \(path)") }
    print("native: \(frames.count) frames of \(first.width)x\(first.height) from \(path), QP \(qp)")
    var results = [(String, Double, Int, Double)]()
    for interval in [1, keyFrameInterval] {
        var bytes = 0
        var reconstruction = [PixelBuffer]()
        var encoder = try NativeH264Encoder(width: first.width, height: first.height, quantisationParameter: qp, keyFrameInterval: interval)
        let seconds = try best(1, clock: threadCPUTime) {
            for frame in frames {
                let picture = try encoder.encode(frame)
                bytes += picture.nalUnits.reduce(0) { $0 + $1.count + 4 }
                reconstruction.append(picture.reconstruction)
            }
        }
        results.append(("native GOP \(interval)", seconds, bytes, lumaPSNR(frames, reconstruction)))
    }
    for (label, preset) in [("x264 veryfast", ["--profile", "baseline", "--preset", "veryfast", "--tune", "zerolatency"]),
                            ("x264 ultrafast", ["--preset", "ultrafast"])] {
        let peer = X264FixedQPRun(arguments: preset + ["--keyint", "\(keyFrameInterval)", "--ipratio", "1.0", "--bframes", "0",
                                                        "--qp", "\(qp)", "--threads", "1", "--frames", "\(frames.count)"], path: path)
        results.append(("\(label) \(keyFrameInterval)", peer.cpuSeconds, peer.bytes, peer.psnrY))
    }
    for (name, seconds, bytes, psnr) in results {
        print("  \(name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(String(format: "%8.1f", Double(frames.count) / seconds)) fps  \(String(format: "%9d", bytes)) bytes  PSNR-Y \(String(format: "%.2f", psnr)) dB")
    }
    let gop = results[1], intra = results[0], peerBytes = results[2].2, peerPSNR = results[2].3, peer = results[2].1
    print("  native GOP/all-intra: size \(String(format: "%.2f", Double(gop.2) / Double(intra.2)))x, PSNR-Y \(String(format: "%+.2f", gop.3 - intra.3)) dB")
    print("  native GOP/x264: size \(String(format: "%.2f", Double(gop.2) / Double(max(peerBytes, 1))))x, PSNR-Y \(String(format: "%+.2f", gop.3 - peerPSNR)) dB, speed \(String(format: "%.2f", peer / gop.1))x; against ultrafast: speed \(String(format: "%.2f", results[3].1 / gop.1))x (CPU time; x264's includes start-up)")
}
