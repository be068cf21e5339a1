import MediaCore

/// A capture time burnt into a picture as blocks a decoder's output can be read back from: the way to measure
/// glass-to-glass latency through any encoder, network and player (a browser reads the blocks from the decoded
/// frame on a canvas and subtracts them from its own clock, which on one machine is the same clock).
///
/// The layout: the picture's bottom rows hold two rows of 24 blocks each, `blockSide` samples square
/// (`width / 24`, rounded down to even, at least 2). Read left to right, top row first, the 48 blocks are a start
/// mark `1 0 1 1` (so a picture without a timecode is not read as one), 40 bits of the milliseconds since
/// 1970-01-01 modulo 2⁴⁰ (most significant first; about 34 years before it wraps), and the 4-bit sum of the
/// 10 nibbles of those 40 bits (a check that a block lost to compression is noticed). A one is white (luma 235 in
/// video range), a zero black (16); the chroma under the blocks is neutral, so the colours of the picture
/// around them do not tint the blocks once a player converts them to RGB.
public struct CaptureTimecode: Sendable, Hashable {
    /// The blocks in one row.
    public static let blocksPerRow = 24
    /// The start mark, the first four blocks.
    static let startMark: [Bool] = [true, false, true, true]

    /// The milliseconds since 1970-01-01 modulo 2⁴⁰ this timecode carries.
    public let milliseconds: UInt64

    /// A timecode.
    /// - Parameter milliseconds: milliseconds since 1970-01-01; only the low 40 bits are kept.
    public init(milliseconds: UInt64) {
        self.milliseconds = milliseconds & (1 << 40 - 1)
    }

    /// The side of a block for a picture width: `width / 24` rounded down to even, at least 2.
    /// - Parameter width: the picture's width in luma samples.
    /// - Returns: the side in luma samples.
    public static func blockSide(forWidth width: Int) -> Int {
        max(2, width / blocksPerRow & ~1)
    }

    /// The 48 bits, in block order: the start mark, the 40 bits of milliseconds, the check nibble.
    var bits: [Bool] {
        var bits = Self.startMark
        for shift in stride(from: 39, through: 0, by: -1) { bits.append(milliseconds >> UInt64(shift) & 1 == 1) }
        let check = Self.check(milliseconds)
        for shift in stride(from: 3, through: 0, by: -1) { bits.append(check >> UInt64(shift) & 1 == 1) }
        return bits
    }

    /// The sum of the 10 nibbles of 40 bits, modulo 16.
    static func check(_ value: UInt64) -> UInt64 {
        (0..<10).reduce(0) { $0 + (value >> UInt64(4 * $1) & 0xF) } & 0xF
    }

    /// Draws the blocks into the bottom rows of a picture. A picture narrower than 48 or shorter than two blocks'
    /// height is left as it is.
    /// - Parameter buffer: the picture (any of the 4:2:0 layouts).
    public func stamp(into buffer: inout PixelBuffer) {
        let side = Self.blockSide(forWidth: buffer.width)
        guard buffer.width >= 2 * Self.blocksPerRow, buffer.height >= 2 * side else { return }
        let black: UInt8 = buffer.range == .video ? 16 : 0
        let white: UInt8 = buffer.range == .video ? 235 : 255
        let top = (buffer.height - 2 * side) & ~1
        for (index, bit) in bits.enumerated() {
            let x = index % Self.blocksPerRow * side, y = top + index / Self.blocksPerRow * side
            Self.fill(&buffer.planes[0], x: x, y: y, width: side, height: side, value: bit ? white : black)
        }
        // Neutral chroma under the two rows of blocks.
        let chromaTop = top / 2, chromaRows = min(side, buffer.chromaHeight - chromaTop)
        let chromaColumns = Self.blocksPerRow * side / 2
        if buffer.format.planeCount == 2 {
            Self.fill(&buffer.planes[1], x: 0, y: chromaTop, width: 2 * chromaColumns, height: chromaRows, value: 128)
        } else {
            for plane in 1...2 {
                Self.fill(&buffer.planes[plane], x: 0, y: chromaTop, width: chromaColumns, height: chromaRows, value: 128)
            }
        }
    }

    /// Reads a timecode back from a decoded picture's luma: the middle half of each block, averaged, is a one
    /// above the midpoint between black and white.
    /// - Parameter buffer: the decoded picture, of the size it was stamped at.
    /// - Returns: the timecode, or `nil` when the start mark or the check nibble does not match (no timecode, or
    ///   blocks lost to compression).
    public static func read(from buffer: PixelBuffer) -> CaptureTimecode? {
        let side = blockSide(forWidth: buffer.width)
        guard buffer.width >= 2 * blocksPerRow, buffer.height >= 2 * side else { return nil }
        let top = (buffer.height - 2 * side) & ~1
        let plane = buffer.planes[0]
        var bits: [Bool] = []
        for index in 0..<2 * blocksPerRow {
            let x = index % blocksPerRow * side + side / 4, y = top + index / blocksPerRow * side + side / 4
            let span = max(1, side / 2)
            var sum = 0
            for row in y..<y + span {
                for column in x..<x + span { sum += Int(plane.bytes[row * plane.bytesPerRow + column]) }
            }
            bits.append(sum / (span * span) >= 128)
        }
        guard Array(bits.prefix(4)) == startMark else { return nil }
        let value = bits[4..<44].reduce(UInt64(0)) { $0 << 1 | ($1 ? 1 : 0) }
        let check = bits[44..<48].reduce(UInt64(0)) { $0 << 1 | ($1 ? 1 : 0) }
        guard check == Self.check(value) else { return nil }
        return CaptureTimecode(milliseconds: value)
    }

    /// Fills a rectangle of one plane (clipped to the plane) with one value.
    private static func fill(_ plane: inout PixelBuffer.Plane, x: Int, y: Int, width: Int, height: Int, value: UInt8) {
        let rowEnd = min(y + height, plane.rowCount), columnEnd = min(x + width, plane.rowLength)
        guard x < columnEnd, y < rowEnd else { return }
        let stride = plane.bytesPerRow
        plane.bytes.withUnsafeMutableBufferPointer { bytes in
            for row in y..<rowEnd {
                for column in x..<columnEnd { bytes[row * stride + column] = value }
            }
        }
    }
}
