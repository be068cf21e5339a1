/// A 5x7 bitmap font for the synthetic camera's burnt-in counter and clock: the digits 0–9, ':' and '.'.
///
/// Each glyph is seven rows, top to bottom; in each row bit 4 is the leftmost column and bit 0 the rightmost.
/// The bitmaps are drawn for StreamKit.
enum DigitFont {
    /// Columns per glyph.
    static let glyphWidth = 5
    /// Rows per glyph.
    static let glyphHeight = 7
    /// Columns from one glyph's left edge to the next (one blank column between glyphs).
    static let advance = 6

    /// Rows of the glyphs, seven per glyph, in the order 0 1 2 3 4 5 6 7 8 9 : .
    private static let rows: [UInt8] = [
        0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E,  // 0
        0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E,  // 1
        0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F,  // 2
        0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E,  // 3
        0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02,  // 4
        0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E,  // 5
        0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E,  // 6
        0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08,  // 7
        0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E,  // 8
        0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C,  // 9
        0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00,  // :
        0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C,  // .
    ]

    /// One row of a character's glyph.
    /// - Parameters:
    ///   - character: an ASCII byte: '0'…'9', ':' or '.'.
    ///   - row: 0 ..< ``glyphHeight``.
    /// - Returns: the row's bits (bit 4 = leftmost column), or `nil` for a character the font lacks or a
    ///   row out of range.
    static func row(of character: UInt8, _ row: Int) -> UInt8? {
        guard row >= 0, row < glyphHeight else { return nil }
        let glyph: Int
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): glyph = Int(character - UInt8(ascii: "0"))
        case UInt8(ascii: ":"): glyph = 10
        case UInt8(ascii: "."): glyph = 11
        default: return nil
        }
        return rows[glyph * glyphHeight + row]
    }
}
