// streamkit-benchmark native-modes FILE.y4m [--qps 40,45,51] [--frames 30] [--keyint 30]: the native encoder's
// mode decisions per QP: bytes of the IDR and the mean P picture, the macroblock types of the P pictures,
// PSNR-Y and CPU fps of the whole run (one thread), beside x264 --profile baseline --preset veryfast --tune
// zerolatency at the same QP on the same frames (its bytes and PSNR-Y). Shows whether the bits fall as the
// QP rises, as they must. With --out DIR it also writes each QP's stream (DIR/qpN.264) and the encoder's
// reconstruction (DIR/qpN.yuv, I420) for a bit-exactness check of the release build against ffmpeg.
import Containers
import Foundation
import MediaCore
import NativeH264

/// Runs the per-QP mode report.
/// - Parameters:
///   - path: a Y4M file (4:2:0).
///   - qps: the fixed QPs to run.
///   - frameLimit: at most this many frames.
///   - keyFrameInterval: the GOP length.
///   - outputFolder: where to write each QP's stream and reconstruction, or `nil`.
func benchmarkNativeModes(path: String, qps: [Int], frameLimit: Int, keyFrameInterval: Int, outputFolder: String?) throws {
    var reader = try Y4MReader(path: path)
    var frames = [PixelBuffer]()
    while frames.count < frameLimit, let frame = try reader.nextFrame() { frames.append(frame) }
    guard let first = frames.first else { fail("no frames in \(path)") }
    let rate = Double(framesPerSecond(reader.header.frameRate))
    print("native-modes: \(frames.count) frames of \(first.width)x\(first.height) from \(path), GOP \(keyFrameInterval)")
    for qp in qps {
        var encoder = try NativeH264Encoder(width: first.width, height: first.height, quantisationParameter: qp,
                                            framesPerSecond: Int(rate), keyFrameInterval: keyFrameInterval, threadCount: 1)
        var keyBytes = [Int](), predictedBytes = [Int](), types = NativeH264Encoder.MacroblockTypeCounts()
        var reconstruction = [PixelBuffer]()
        var seconds = 0.0
        var stream = [UInt8](), reconstructed = [UInt8]()
        for frame in frames {
            let start = threadCPUTime()
            let picture = try encoder.encode(frame)
            seconds += threadCPUTime() - start
            let bytes = picture.nalUnits.reduce(0) { $0 + $1.count + 4 }
            if picture.isKeyFrame { keyBytes.append(bytes) } else { predictedBytes.append(bytes); types.add(picture.macroblockTypes) }
            reconstruction.append(picture.reconstruction)
            if outputFolder != nil {
                stream += picture.annexB
                reconstructed += picture.reconstruction.packedBytes
            }
        }
        if let outputFolder {
            try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
            try Data(stream).write(to: URL(fileURLWithPath: "\(outputFolder)/qp\(qp).264"))
            try Data(reconstructed).write(to: URL(fileURLWithPath: "\(outputFolder)/qp\(qp).yuv"))
        }
        let total = keyBytes.reduce(0, +) + predictedBytes.reduce(0, +)
        let kbps = Double(total * 8) * rate / Double(frames.count) / 1000
        let meanP = predictedBytes.isEmpty ? 0 : predictedBytes.reduce(0, +) / predictedBytes.count
        let peer = X264FixedQPRun(arguments: ["--profile", "baseline", "--preset", "veryfast", "--tune", "zerolatency",
                                               "--keyint", "\(keyFrameInterval)", "--min-keyint", "\(keyFrameInterval)", "--no-scenecut",
                                               "--qp", "\(qp)", "--threads", "1", "--frames", "\(frames.count)"], path: path)
        let peerKbps = Double(peer.bytes * 8) * rate / Double(frames.count) / 1000
        print("  QP \(qp): \(String(format: "%7.1f", kbps)) kbit/s  PSNR-Y \(String(format: "%.2f", lumaPSNR(frames, reconstruction))) dB  "
              + "IDR \(keyBytes.first ?? 0) B  P mean \(meanP) B  \(String(format: "%.1f", Double(frames.count) / seconds)) fps | "
              + "x264 \(String(format: "%7.1f", peerKbps)) kbit/s PSNR-Y \(String(format: "%.2f", peer.psnrY)) dB (ours/x264 \(String(format: "%.2f", kbps / max(peerKbps, 0.001)))x)")
        print("    P macroblocks: skip \(types.skipped) 16x16 \(types.predicted16x16) 16x8 \(types.predicted16x8) 8x16 \(types.predicted8x16) "
              + "8x8 \(types.predicted8x8) I16 \(types.intra16x16) I4 \(types.intra4x4)")
    }
}
