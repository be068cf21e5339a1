import Bitstream
import Foundation
import MediaCore
import NativeH264Decoder
import TestSupport
import Transport

/// Runs the native decoder over Annex B bytes and hashes what it outputs.
enum DecoderRun {
    /// The result of decoding a whole stream.
    struct Result {
        /// Frames in output order.
        var frames: [NativeH264DecodedFrame] = []
        /// Errors thrown (the first one stops decoding when `stopOnError`).
        var errors: [NativeH264DecoderError] = []
    }

    /// Decodes every NAL unit of an Annex B stream, one timestamp per access unit (counted by pictures).
    static func decode(_ bytes: [UInt8], stopOnError: Bool = true, format: PixelFormat = .i420) -> Result {
        let decoder = NativeH264Decoder(outputFormat: format)
        var result = Result()
        for (index, range) in AnnexB.nalUnitRanges(in: bytes).enumerated() {
            do {
                result.frames += try decoder.decode(nalUnit: bytes[range], timestamp: Int64(index))
            } catch {
                result.errors.append(error)
                if stopOnError { return result }
            }
        }
        result.frames += decoder.flush()
        return result
    }

    /// MD5 of one frame's I420 samples, lower-case hex (as ffmpeg's framemd5 with yuv420p).
    static func md5(_ frame: NativeH264DecodedFrame) -> String {
        MD5.hex(MD5.digest(frame.picture.packedBytes))
    }

    /// MD5 of all frames' samples one after the other (the conformance tables' "decoded_md5").
    static func md5(_ frames: [NativeH264DecodedFrame]) -> String {
        var digest = MD5()
        for frame in frames { digest.update(frame.picture.packedBytes) }
        return MD5.hex(digest.finalize())
    }
}
