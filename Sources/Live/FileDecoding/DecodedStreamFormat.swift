import Containers
import H264
import HEVC
import MediaCore

/// What ``FileDecoder`` says about the stream's pictures beyond their size: the source pixel format (and
/// whether it had to be converted) and how the pictures are scanned (the Y4M `I` tag).
public enum DecodedStreamFormat {
    /// The stream's SPS, parsed, from a format description's parameter sets.
    private static func sequenceParameterSet(in format: FormatDescription) -> (h264: H264SequenceParameterSet?, hevc: HEVCSequenceParameterSet?) {
        switch format.codec {
        case .h264:
            let sps = format.parameterSets.first { $0.first.map { $0 & 0x1F == 7 } ?? false }
            return (sps.flatMap { try? H264SequenceParameterSet(nalUnit: $0) }, nil)
        case .hevc:
            let sps = format.parameterSets.first { $0.first.map { $0 >> 1 & 0x3F == 33 } ?? false }
            return (nil, sps.flatMap { try? HEVCSequenceParameterSet(nalUnit: $0) })
        case .aac, .opus:
            return (nil, nil)
        }
    }

    /// A notice for standard error when the stream's pictures are not 8-bit 4:2:0 and are converted
    /// to it (the decoder's output is always 8-bit 4:2:0).
    /// - Parameters:
    ///   - format: the stream's format, once known.
    ///   - output: the pixel format written.
    /// - Returns: the notice, or `nil` when nothing is converted.
    public static func conversionNotice(for format: FormatDescription?, writing output: PixelFormat) -> String? {
        guard let format else { return nil }
        let sets = sequenceParameterSet(in: format)
        let source: (name: String, chroma: String, bits: Int, isEightBit420: Bool)
        if let sps = sets.h264 {
            source = (sps.pixelFormatName, sps.chromaFormatName, sps.bitDepthLuma, sps.isEightBit420)
        } else if let sps = sets.hevc {
            source = (sps.pixelFormatName, sps.chromaFormatName, sps.bitDepthLuma, sps.isEightBit420)
        } else {
            return nil
        }
        guard !source.isEightBit420 else { return nil }
        return "note: the stream's pictures are \(source.name) (\(source.bits)-bit \(source.chroma)); "
            + "they are written converted to 8-bit 4:2:0 (\(output.ffmpegName))"
    }

    /// The Y4M `I` tag for a stream: H.264's field order from its first picture; H.265 streams are
    /// written progressive.
    /// - Parameters:
    ///   - codec: the stream's codec.
    ///   - head: the start of the stream.
    /// - Returns: the interlacing tag.
    public static func interlacing(of codec: CodecType, head: [UInt8]) -> Y4MInterlacing {
        guard codec == .h264, let order = H264FieldOrder.of(annexBStream: head) else { return .progressive }
        return Y4MInterlacing(order)
    }
}
