import H264
import MediaCore

/// One picture out of ``NativeH264Decoder``, in output order (§C.4.5.3), with what the decoder
/// had to do to make it.
public struct NativeH264DecodedFrame: Sendable, Equatable {
    /// The cropped picture (I420 or NV12; 4:0:0 streams get mid-grey chroma).
    public var picture: PixelBuffer
    /// The timestamp the caller gave with the access unit.
    public var timestamp: Int64
    /// `PicOrderCnt( )` of the frame (§8.2.1).
    public var pictureOrderCount: Int
    /// Macroblocks that were not decoded from the stream (lost or damaged slices) and were
    /// concealed with the co-located samples of the previous frame (or mid-grey). 0 for a clean picture.
    public var concealedMacroblocks: Int
    /// What went wrong while decoding the picture: damaged slice data, missing references. Empty for a
    /// clean picture.
    public var problems: [NativeH264DecoderError]
    /// How the frame's fields are ordered in time (``H264FieldOrder``, as `inspect` reports a stream's):
    /// ``H264FieldOrder/progressive`` for progressive streams.
    public var fieldOrder: H264FieldOrder

    /// Creates an output frame.
    /// - Parameters:
    ///   - picture: the picture.
    ///   - timestamp: the caller's timestamp.
    ///   - pictureOrderCount: its picture order count.
    ///   - concealedMacroblocks: how many macroblocks were concealed.
    ///   - problems: what went wrong.
    ///   - fieldOrder: the order of its fields (progressive by default).
    public init(picture: PixelBuffer, timestamp: Int64, pictureOrderCount: Int, concealedMacroblocks: Int = 0,
                problems: [NativeH264DecoderError] = [], fieldOrder: H264FieldOrder = .progressive) {
        self.picture = picture
        self.timestamp = timestamp
        self.pictureOrderCount = pictureOrderCount
        self.concealedMacroblocks = concealedMacroblocks
        self.problems = problems
        self.fieldOrder = fieldOrder
    }
}
