import H264

/// Why the native decoder could not decode a NAL unit or a picture. Each case names the feature,
/// field or limit and where (NAL unit index in decoding order, macroblock address).
public enum NativeH264DecoderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A feature this decoder does not implement yet (CABAC, B slices, interlace, FMO …).
    /// - Parameters: feature: what it is; nalIndex: the NAL unit that uses it.
    case unsupportedFeature(_ feature: String, nalIndex: Int)
    /// A parameter set or slice header could not be parsed.
    case header(H264Error, nalIndex: Int)
    /// The SPS describes a picture larger than its level allows (§A.3.1), checked before allocating.
    case sizeBeyondLevel(widthInMbs: Int, heightInMbs: Int, levelIDC: UInt8)
    /// The slice data is malformed: the field and the macroblock where decoding stopped.
    case sliceData(field: String, macroblock: Int, nalIndex: Int)
    /// A slice arrived before any IDR picture or its parameter sets.
    case noActivePicture(nalIndex: Int)

    /// A sentence naming what went wrong and where.
    public var description: String {
        switch self {
        case let .unsupportedFeature(feature, nalIndex): "H.264 decoder: \(feature) is not supported (NAL unit \(nalIndex))"
        case let .header(error, nalIndex): "H.264 decoder: NAL unit \(nalIndex): \(error)"
        case let .sizeBeyondLevel(w, h, level):
            "H.264 decoder: SPS: \(w)x\(h) macroblocks exceed what level_idc \(level) allows (§A.3.1, MaxFS)"
        case let .sliceData(field, macroblock, nalIndex):
            "H.264 decoder: slice data: \(field) at macroblock \(macroblock) (NAL unit \(nalIndex))"
        case let .noActivePicture(nalIndex): "H.264 decoder: slice without parameter sets or IDR picture (NAL unit \(nalIndex))"
        }
    }
}

/// A malformed element met inside `slice_data( )`: the syntax element's name. The slice decoder
/// throws it; the decoder adds the macroblock and NAL unit (``NativeH264DecoderError/sliceData(field:macroblock:nalIndex:)``).
struct SliceDataError: Error {
    /// The syntax element (or rule) that failed.
    let field: String
}
