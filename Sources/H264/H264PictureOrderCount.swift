/// The picture order count of one picture (ITU-T H.264 §8.2.1): the values that put pictures in
/// output order.
public struct H264PictureOrderCount: Sendable, Hashable {
    /// `TopFieldOrderCnt`, `nil` for a bottom field.
    public var topFieldOrderCount: Int?
    /// `BottomFieldOrderCnt`, `nil` for a top field.
    public var bottomFieldOrderCount: Int?

    /// Creates a picture order count.
    /// - Parameters:
    ///   - topFieldOrderCount: `TopFieldOrderCnt`, `nil` for a bottom field.
    ///   - bottomFieldOrderCount: `BottomFieldOrderCnt`, `nil` for a top field.
    public init(topFieldOrderCount: Int?, bottomFieldOrderCount: Int?) {
        self.topFieldOrderCount = topFieldOrderCount
        self.bottomFieldOrderCount = bottomFieldOrderCount
    }

    /// `PicOrderCnt( picX )` (8-1): the smaller of the two for a frame, the field's own otherwise.
    public var value: Int {
        switch (topFieldOrderCount, bottomFieldOrderCount) {
        case let (top?, bottom?): return min(top, bottom)
        case let (top?, nil): return top
        case let (nil, bottom?): return bottom
        case (nil, nil): return 0
        }
    }
}
