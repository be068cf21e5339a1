/// Whether a picture is a frame or one field of a frame (`field_pic_flag`, `bottom_field_flag`).
public enum H264PictureStructure: Sendable, Hashable {
    /// A frame (or complementary field pair coded as a frame, possibly MBAFF).
    case frame
    /// The top field.
    case topField
    /// The bottom field.
    case bottomField

    /// Whether the picture is a field.
    public var isField: Bool { self != .frame }
}
