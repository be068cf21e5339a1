import Bitstream
import CodecInterface
import MediaCore
import NativeH264Decoder

/// ``NativeH264Decoder`` behind ``VideoDecoder``: the `native` engine's H.264 decoder.
///
/// Each ``EncodedFrame`` is one access unit in AVCC form; the parameter sets of its
/// ``FormatDescription`` are decoded first whenever they change (and before the first frame). Pictures
/// come out in display order with the pts of the frame they were coded in. A picture the decoder had to
/// conceal still comes out; a feature the decoder does not support stops the frame with
/// ``CodecError/undecodableFrame(_:reason:)``.
final class NativeVideoDecoder: VideoDecoder {
    private let decoder: NativeH264Decoder
    private var sentParameterSets: [[UInt8]] = []
    private var presentationTimes: [Int64: MediaTime] = [:]
    private var frameIndex: Int64 = 0

    /// Creates a decoder.
    /// - Parameter output: the layout of the pictures to return.
    init(output: PixelFormat) {
        decoder = NativeH264Decoder(outputFormat: output)
    }

    /// Decodes one access unit.
    /// - Parameter encoded: the frame, NAL units in AVCC form.
    /// - Returns: the pictures that became ready, in display order.
    /// - Throws: ``CodecError/inputMismatch(_:)`` for another codec or malformed AVCC framing;
    ///   ``CodecError/undecodableFrame(_:reason:)`` naming the frame and the decoder's error.
    func decode(_ encoded: EncodedFrame) throws(CodecError) -> [DecodedPicture] {
        guard encoded.codec == .h264 else { throw .inputMismatch("frame is \(encoded.codec.rawValue), decoder is h264") }
        let ranges: [Range<Int>]
        do {
            ranges = try AVCC.nalUnitRanges(in: encoded.data, lengthSize: encoded.format.nalUnitLengthSize)
        } catch {
            throw .inputMismatch("frame at pts \(encoded.pts): \(error)")
        }
        let index = frameIndex
        frameIndex += 1
        presentationTimes[index] = encoded.pts
        var frames: [NativeH264DecodedFrame] = []
        do throws(NativeH264DecoderError) {
            if encoded.format.parameterSets != sentParameterSets {
                for set in encoded.format.parameterSets { frames += try decoder.decode(nalUnit: set, timestamp: index) }
                sentParameterSets = encoded.format.parameterSets
            }
            for range in ranges { frames += try decoder.decode(nalUnit: encoded.data[range], timestamp: index) }
            frames += decoder.endAccessUnit()
        } catch {
            throw .undecodableFrame(FramePosition(index: Int(index), pts: encoded.pts), reason: error.description)
        }
        return pictures(frames)
    }

    /// Returns every picture the decoder still holds.
    /// - Returns: the remaining pictures in display order.
    func flush() throws(CodecError) -> [DecodedPicture] {
        let remaining = pictures(decoder.flush())
        presentationTimes.removeAll()
        return remaining
    }

    private func pictures(_ frames: [NativeH264DecodedFrame]) -> [DecodedPicture] {
        frames.map { frame in
            let pts = presentationTimes.removeValue(forKey: frame.timestamp) ?? MediaTime(value: frame.timestamp, timescale: 30)
            return DecodedPicture(picture: frame.picture, pts: pts)
        }
    }
}
