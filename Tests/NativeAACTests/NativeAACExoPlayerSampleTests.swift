import AAC
import Foundation
import NativeAAC
import TestSupport
import Testing

/// The ExoPlayer ADTS samples of the shared media (an encoder nobody here wrote) against FFmpeg.
@Suite(.requiresMedia, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct NativeAACExoPlayerSampleTests {
    @Test(arguments: ["audio/exoplayer/sample.adts", "audio/exoplayer/sample_with_id3.adts", "audio/exoplayer/sample_cbs_truncated.adts"])
    func matchesFFmpeg(_ path: String) throws {
        let url = MediaFiles.url(path)
        let output = try ExternalTool.run("ffmpeg", ["-v", "quiet", "-i", url.path, "-map", "0:a", "-f", "f32le", "-c:a", "pcm_f32le", "-"])
        let reference = output.standardOutput.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let ours = try AACOracle.nativeDecode(try MediaFiles.bytes(path))
        // FFmpeg's command line outputs 143 of the 144 frames of these files (MANIFEST.md): the first,
        // which decodes to silence, is not in its output, so ours is compared from frame 1 on.
        let firstFrame = ours.samples.prefix(1024 * ours.channels).map { abs($0) }.max() ?? 0
        let difference = AACOracle.compare(Array(ours.samples.dropFirst(1024 * ours.channels)), reference, channels: ours.channels)
        #expect(firstFrame == 0, "the frame FFmpeg leaves out should be silent")
        print("\(path): ours \(ours.samples.count) samples in \(ours.statuses.count) frames, ffmpeg \(reference.count); \(difference)")
        print("  \(ours.statistics)")
        #expect(ours.statuses.allSatisfy { $0 == .decoded })
        #expect(!reference.isEmpty)
        // FFmpeg drops the partial frame at the end; the common length covers every frame it decodes.
        #expect(ours.samples.count - 1024 * ours.channels >= reference.count)
        #expect(difference.maximum <= 1.0 / 16384)
        #expect(difference.rms <= 1.0 / 131072)
    }
}
