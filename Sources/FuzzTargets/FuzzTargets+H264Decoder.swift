import Bitstream
import NativeH264Decoder

extension FuzzTargets {
    /// The native H.264 decoder over the input read as an Annex B stream: every NAL unit decoded in
    /// order (errors are typed and skipped), then a flush. Frames are limited to 1620 macroblocks (SD) so
    /// that a hostile SPS cannot make one input allocate much.
    static func h264Decoder(_ bytes: [UInt8]) {
        let decoder = NativeH264Decoder(outputFormat: .i420, maximumFrameSize: 1620)
        var frames = 0
        for range in AnnexB.nalUnitRanges(in: bytes) {
            frames += ((try? decoder.decode(nalUnit: bytes[range], timestamp: 0)) ?? []).count
        }
        frames += decoder.flush().count
        precondition(frames >= 0)
    }
}
