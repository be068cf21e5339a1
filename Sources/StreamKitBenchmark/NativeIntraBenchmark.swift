// streamkit-benchmark native-intra FILE.y4m: the native encoder's all-intra mode (every frame IDR, fixed QP)
// against x264 in the same configuration (--keyint 1 --ipratio 1.0 --qp Q: I frames at Q too, baseline, veryfast, zerolatency, one thread), on
// the same frames in one run. Wall-clock seconds for both (x264 is a process); prints fps, bytes, PSNR-Y
// and the ratios.
import Containers
import Foundation
import MediaCore
import NativeH264

/// PSNR of the luma planes of two equally sized I420 frame lists.
func lumaPSNR(_ a: [PixelBuffer], _ b: [PixelBuffer]) -> Double {
    var squared = 0.0, count = 0.0
    for (x, y) in zip(a, b) {
        let p = x.planes[0], q = y.planes[0]
        for row in 0..<x.height {
            for column in 0..<x.width {
                let d = Double(Int(p.bytes[row * p.bytesPerRow + column]) - Int(q.bytes[row * q.bytesPerRow + column]))
                squared += d * d
            }
        }
        count += Double(x.width * x.height)
    }
    return squared == 0 ? 99 : 10 * log10(255 * 255 / (squared / count))
}

/// Runs the comparison.
/// - Parameters:
///   - path: a Y4M file (4:2:0).
///   - qp: the fixed QP of both encoders.
///   - frameLimit: at most this many frames.
///   - rounds: best of how many rounds.
func benchmarkNativeIntra(path: String, qp: Int, frameLimit: Int, rounds: Int) throws {
    var reader = try Y4MReader(path: path)
    var frames = [PixelBuffer]()
    while frames.count < frameLimit, let frame = try reader.nextFrame() { frames.append(frame) }
    guard let first = frames.first else { fail("no frames in \(path)") }
    var bytes = 0
    var reconstruction = [PixelBuffer]()
    let ours = try best(rounds) {
        var encoder = try NativeH264Encoder(width: first.width, height: first.height, quantisationParameter: qp)
        bytes = 0
        reconstruction.removeAll(keepingCapacity: true)
        for frame in frames {
            let picture = try encoder.encode(frame)
            bytes += picture.nalUnits.reduce(0) { $0 + $1.count + 4 }
            reconstruction.append(picture.reconstruction)
        }
    }
    let ourPSNR = lumaPSNR(frames, reconstruction)
    print("native-intra: \(frames.count) frames of \(first.width)x\(first.height) from \(path), QP \(qp), all IDR, best of \(rounds)")
    print("  native  \(String(format: "%8.1f", Double(frames.count) / ours)) fps  \(String(format: "%9d", bytes)) bytes  PSNR-Y \(String(format: "%.2f", ourPSNR)) dB")

    let runs = (0..<max(rounds, 1)).map { _ in
        X264FixedQPRun(arguments: ["--profile", "baseline", "--preset", "veryfast", "--tune", "zerolatency", "--keyint", "1", "--ipratio", "1.0",
                                   "--qp", "\(qp)", "--threads", "1", "--frames", "\(frames.count)"], path: path)
    }
    let peer = runs.map(\.wallSeconds).min() ?? 0
    let peerBytes = runs[0].bytes
    let peerPSNR = String(format: "%.2f", runs[0].psnrY)
    print("  x264    \(String(format: "%8.1f", Double(frames.count) / peer)) fps  \(String(format: "%9d", peerBytes)) bytes  PSNR-Y \(peerPSNR) dB  (process, includes start-up)")
    print("  native/x264: speed \(String(format: "%.2f", peer / ours))x, size \(String(format: "%.2f", Double(bytes) / Double(max(peerBytes, 1))))x")
}
