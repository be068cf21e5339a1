/// The two fields of a frame of an interlaced stream (§3.52 field, §8.2.4 fields as reference pictures): each
/// a half-height picture of its own, with its own marking, picture order count and motion. Field pictures
/// decode into them and are then woven into the frame; frame pictures are split into them after decoding.
final class FieldPair {
    /// The top field (the frame's even rows).
    let top: DecoderPicture
    /// The bottom field (the frame's odd rows).
    let bottom: DecoderPicture

    /// Allocates the fields of a frame.
    /// - Parameter frame: the frame (an even number of macroblock rows).
    init(frame: DecoderPicture) {
        let hasChroma = frame.chromaWidth > 0
        top = DecoderPicture(widthInMbs: frame.widthInMbs, heightInMbs: frame.heightInMbs / 2, hasChroma: hasChroma)
        bottom = DecoderPicture(widthInMbs: frame.widthInMbs, heightInMbs: frame.heightInMbs / 2, hasChroma: hasChroma)
        top.fieldParity = 1
        bottom.fieldParity = 2
        top.frame = frame
        bottom.frame = frame
    }

    /// The field of a parity: 1 top, 2 bottom.
    /// - Parameter parity: 1 or 2.
    /// - Returns: that field.
    func field(_ parity: Int) -> DecoderPicture { parity == 2 ? bottom : top }

    /// Copies a field's samples into the frame's rows of its parity (weaving).
    /// - Parameters:
    ///   - field: the field (of this pair).
    ///   - frame: the frame.
    static func weave(_ field: DecoderPicture, into frame: DecoderPicture) {
        let offset = field.fieldParity == 2 ? 1 : 0
        for row in 0..<field.height {
            (frame.luma + (2 * row + offset) * frame.width).update(from: field.luma + row * field.width, count: field.width)
        }
        guard frame.chromaWidth > 0, field.chromaWidth == frame.chromaWidth else { return }
        for row in 0..<field.chromaHeight {
            let to = (2 * row + offset) * frame.chromaWidth, from = row * field.chromaWidth
            (frame.cb + to).update(from: field.cb + from, count: field.chromaWidth)
            (frame.cr + to).update(from: field.cr + from, count: field.chromaWidth)
        }
    }

    /// Copies the frame's rows of a field's parity into the field (splitting a decoded frame).
    /// - Parameters:
    ///   - frame: the frame.
    ///   - field: the field (of this pair).
    static func split(_ frame: DecoderPicture, into field: DecoderPicture) {
        let offset = field.fieldParity == 2 ? 1 : 0
        for row in 0..<field.height {
            (field.luma + row * field.width).update(from: frame.luma + (2 * row + offset) * frame.width, count: field.width)
        }
        guard frame.chromaWidth > 0, field.chromaWidth == frame.chromaWidth else { return }
        for row in 0..<field.chromaHeight {
            let from = (2 * row + offset) * frame.chromaWidth, to = row * field.chromaWidth
            (field.cb + to).update(from: frame.cb + from, count: field.chromaWidth)
            (field.cr + to).update(from: frame.cr + from, count: field.chromaWidth)
        }
    }
}

/// The decoder's state across the pictures of an interlaced stream (field pictures, §7.4.3): what the
/// current picture is, and the frame whose first field waits for its second.
struct InterlaceState {
    /// The current picture is a field (field_pic_flag 1): field scans, field CABAC contexts, field deblocking.
    var fieldPicture = false
    /// The current picture is an MBAFF frame (MbaffFrameFlag 1: macroblock pairs, NativeH264Decoder+MBAFF.swift).
    var mbaff = false
    /// The current macroblock's blocks use the field scans (§8.5.6, §8.5.7): in a field picture, or a field
    /// macroblock of an MBAFF frame.
    var fieldScan = false
    /// The current picture is the second field of its frame.
    var secondField = false
    /// The frame of the current picture.
    var frame: DecoderPicture?
    /// A frame whose first field is decoded and whose second has not come yet.
    var pendingFrame: DecoderPicture?
    /// The parity (1 top, 2 bottom) of the pending frame's decoded field.
    var pendingParity = 0
    /// Whether the pending frame's first field is an IDR picture.
    var pendingIsIDR = false
}
