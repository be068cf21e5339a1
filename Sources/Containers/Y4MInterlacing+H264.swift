import H264

extension Y4MInterlacing {
    /// The `I` tag for an H.264 stream's field order: `Ip`, `It` or `Ib`.
    /// - Parameter fieldOrder: the stream's field order (``H264FieldOrder/of(annexBStream:)``).
    public init(_ fieldOrder: H264FieldOrder) {
        switch fieldOrder {
        case .progressive: self = .progressive
        case .topFieldFirst: self = .topFieldFirst
        case .bottomFieldFirst: self = .bottomFieldFirst
        }
    }
}
