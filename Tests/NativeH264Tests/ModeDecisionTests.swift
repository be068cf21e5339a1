import Containers
import Foundation
import MediaCore
import NativeH264
import Testing
import TestSupport

/// The P macroblocks' rate-distortion decision: a coarser QP never costs more bits (at QP 51 the
/// synthetic camera once cost more than at QP 45, its P pictures more than its IDR picture), and x264
/// (`--profile baseline --preset veryfast --tune zerolatency`, the same QP and frames) is the yardstick
/// at the coarsest QP; every stream still decodes bit-exactly in ffmpeg (framemd5 of the decoded
/// frames = md5 of the encoder's reconstruction, ``InterEncoderBitExactnessTests/expectBitExact(_:qp:keyFrameInterval:forcingKeyFrameAt:label:)``).
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct ModeDecisionTests {
    /// Encodes `frames` (GOP 30) at each QP under the oracle and returns the stream bytes per QP,
    /// expecting the bytes to fall as the QP rises and no P picture at the coarsest QP bigger than the IDR picture.
    /// Also returns the intra macroblocks the P pictures had at each QP.
    func expectFewerBitsAtCoarserQPs(_ frames: [PixelBuffer], qps: [Int], label: String) throws -> (bytes: [Int], intraInPredicted: [Int]) {
        let oracle = InterEncoderBitExactnessTests()
        var totals = [Int](), intra = [Int]()
        for qp in qps {
            let outcome = try oracle.expectBitExact(frames, qp: qp, keyFrameInterval: 30, label: "\(label) QP \(qp)")
            intra.append(outcome.intraInPredicted)
            totals.append(outcome.keyFrameBytes.reduce(0, +) + outcome.predictedBytes.reduce(0, +))
            if qp == qps.last {
                let largest = outcome.predictedBytes.max() ?? 0
                #expect(largest <= outcome.keyFrameBytes[0], "\(label) QP \(qp): a P picture of \(largest) bytes, the IDR \(outcome.keyFrameBytes[0])")
            }
        }
        for (index, pair) in zip(totals, totals.dropFirst()).enumerated() {
            #expect(pair.1 < pair.0, "\(label): QP \(qps[index + 1]) costs \(pair.1) bytes, QP \(qps[index]) \(pair.0)")
        }
        return (totals, intra)
    }

    /// The bytes x264 veryfast-baseline makes of `frames` at `qp` (GOP 30, one thread).
    static func x264Bytes(_ frames: [PixelBuffer], qp: Int) throws -> Int {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("native-h264-modes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.y4m").path, output = directory.appendingPathComponent("x264.264").path
        var writer = try Y4MWriter(path: input, header: Y4MHeader(width: frames[0].width, height: frames[0].height, frameRate: Y4MRatio(30, 1)))
        for frame in frames { try writer.write(frame.format == .i420 ? frame : frame.converted(to: .i420)) }
        try writer.finish()
        let run = try ExternalTool.run("x264", ["--profile", "baseline", "--preset", "veryfast", "--tune", "zerolatency", "--keyint", "30",
                                                "--min-keyint", "30", "--no-scenecut", "--qp", "\(qp)", "--threads", "1", "--quiet", "-o", output, input])
        #expect(run.status == 0, "x264: \(run.standardError)")
        return (try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
    }

    @Test("synthetic camera 320x240: fewer bits at QP 45 than 40 and at 51 than 45, P pictures within the IDR's size, no more than x264 at QP 51",
          .enabled(if: ExternalTool.isRunnable("x264")))
    func syntheticCamera() async throws {
        let frames = try await IntraEncoderBitExactnessTests.cameraFrames(width: 320, height: 240, count: 20)
        let (totals, intra) = try expectFewerBitsAtCoarserQPs(frames, qps: [40, 45, 51], label: "camera 320x240")
        let peer = try Self.x264Bytes(frames, qp: 51)
        #expect(totals[2] <= peer, "camera QP 51: \(totals[2]) bytes, x264 \(peer)")
        // The bars' edges below the first row are predicted best by Intra_16x16 vertical: the decision
        // still takes intra inside P pictures, so that path is under the oracle here too.
        #expect(intra.allSatisfy { $0 > 0 }, "intra macroblocks in the P pictures per QP: \(intra)")
    }

    @Test("foreman QCIF: fewer bits at every coarser QP, P pictures within the IDR's size", .requiresMedia)
    func foreman() throws {
        var reader = try Y4MReader(path: MediaFiles.url("sequences/foreman_qcif8.y4m").path)
        var frames = [PixelBuffer]()
        while let frame = try reader.nextFrame() { frames.append(frame) }
        _ = try expectFewerBitsAtCoarserQPs(frames, qps: [26, 40, 45, 51], label: "foreman")
    }
}
