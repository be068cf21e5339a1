import MediaCore

/// A rectangle of luma samples (used for the synthetic picture's regions).
struct PixelRect: Sendable, Hashable {
    /// Left column.
    var x: Int
    /// Top row.
    var y: Int
    /// Width in samples.
    var width: Int
    /// Height in rows.
    var height: Int
}

/// The synthetic camera's picture: scrolling colour bars over a scrolling grey ramp, a moving box, and a
/// burnt-in frame counter and clock.
///
/// Everything that does not depend on the frame index (the bar and ramp rows, the colours) is computed
/// once; a frame is then one row copy per row plus a few small rectangle fills, so a 640x480 frame costs
/// a fraction of a millisecond.
///
/// Layout: the top two thirds hold eight colour bars (white, yellow, cyan, green, magenta, red, blue, black,
/// 100 % BT.601) scrolling left by 4 pixels a frame; the bottom third holds a black-to-white ramp scrolling
/// right. An orange box of 1/8 of the shorter side bounces around, starting at the bottom-left corner. The top
/// left holds a black panel with the frame number (at least 6 digits) and the pts as `hh:mm:ss.mmm`.
struct TestPattern: Sendable {
    let width: Int
    let height: Int
    let format: PixelFormat
    let range: ColorRange

    /// The horizontal period of the bars and the ramp in luma samples: `2 * chromaWidth` (even, ≥ width).
    private let period: Int
    /// Rows above this one show the bars, the rest the ramp.
    private let barsBandHeight: Int
    /// Luma of two periods of bars / ramp, so any window of `width` samples starting below `period` is contiguous.
    private let barsLuma: [UInt8]
    private let rampLuma: [UInt8]
    /// Chroma rows, two periods long. Bi-planar layouts: the interleaved pairs in the layout's order in `…First`
    /// (`…Second` is empty). Planar layouts: plane 1's samples in `…First`, plane 2's in `…Second`.
    private let barsChromaFirst: [UInt8]
    private let barsChromaSecond: [UInt8]
    private let rampChromaFirst: [UInt8]
    private let rampChromaSecond: [UInt8]
    /// The box: its side (even) and colour (luma, then chroma in the layout's order).
    private let boxSide: Int
    private let boxColour: (luma: UInt8, first: UInt8, second: UInt8)
    /// Text levels and size.
    private let black: UInt8
    private let white: UInt8
    private let neutralChroma: UInt8 = 128
    /// Each font pixel is a `textScale` x `textScale` block.
    let textScale: Int
    /// Luma samples the scrolling layers move per frame (even, so chroma moves by whole samples).
    static let scrollStep = 4
    /// Digits the counter shows at least.
    static let counterDigits = 6

    /// Prepares the pattern.
    /// - Parameters:
    ///   - width: picture width (≥ 1).
    ///   - height: picture height (≥ 1).
    ///   - format: the layout to render.
    ///   - range: video (16–235) or full (0–255) levels.
    init(width: Int, height: Int, format: PixelFormat, range: ColorRange) {
        self.width = width
        self.height = height
        self.format = format
        self.range = range
        let chromaWidth = (width + 1) / 2
        period = 2 * chromaWidth
        barsBandHeight = (2 * height + 2) / 3
        let isPlanar = format.planeCount == 3
        let swapsChroma = format == .yv12 || format == .nv21

        let bars: [(Double, Double, Double)] = [(1, 1, 1), (1, 1, 0), (0, 1, 1), (0, 1, 0),
                                                (1, 0, 1), (1, 0, 0), (0, 0, 1), (0, 0, 0)]
        let barColours = bars.map { Self.ycbcr(red: $0.0, green: $0.1, blue: $0.2, range: range) }
        let ordered = { (c: (y: UInt8, cb: UInt8, cr: UInt8)) in swapsChroma ? (c.cr, c.cb) : (c.cb, c.cr) }
        let blackLevel = Self.ycbcr(red: 0, green: 0, blue: 0, range: range).y
        let whiteLevel = Self.ycbcr(red: 1, green: 1, blue: 1, range: range).y
        black = blackLevel
        white = whiteLevel

        var barsLuma = [UInt8](repeating: 0, count: 2 * period)
        var rampLuma = [UInt8](repeating: 0, count: 2 * period)
        for x in 0..<(2 * period) {
            let inPeriod = x % period
            barsLuma[x] = barColours[inPeriod * bars.count / period].y
            let span = Int(whiteLevel) - Int(blackLevel)
            rampLuma[x] = UInt8(Int(blackLevel) + span * inPeriod / max(period - 1, 1))
        }
        self.barsLuma = barsLuma
        self.rampLuma = rampLuma

        // Chroma: one sample per two luma columns; two periods of chromaWidth samples.
        let chromaCount = 2 * chromaWidth
        var first = [UInt8](), second = [UInt8]()
        first.reserveCapacity(isPlanar ? chromaCount : 2 * chromaCount)
        for sample in 0..<chromaCount {
            let lumaColumn = (2 * sample) % period
            let pair = ordered(barColours[lumaColumn * bars.count / period])
            if isPlanar {
                first.append(pair.0)
                second.append(pair.1)
            } else {
                first.append(pair.0)
                first.append(pair.1)
            }
        }
        barsChromaFirst = first
        barsChromaSecond = second
        rampChromaFirst = [UInt8](repeating: neutralChroma, count: isPlanar ? chromaCount : 2 * chromaCount)
        rampChromaSecond = isPlanar ? [UInt8](repeating: neutralChroma, count: chromaCount) : []

        boxSide = max(2, min(width, height) / 8 & ~1)
        let orange = Self.ycbcr(red: 1, green: 0.55, blue: 0, range: range)
        let orangeChroma = ordered(orange)
        boxColour = (orange.y, orangeChroma.0, orangeChroma.1)
        textScale = max(1, min(width, height) / 160)
    }

    /// Converts an RGB colour (components 0…1) to 8-bit BT.601 Y′CbCr (ITU-R BT.601-7 §2.5).
    /// - Parameters:
    ///   - red: R′ in 0…1.
    ///   - green: G′ in 0…1.
    ///   - blue: B′ in 0…1.
    ///   - range: video range (Y 16–235, C 16–240) or full range (0–255).
    /// - Returns: the three 8-bit components.
    static func ycbcr(red: Double, green: Double, blue: Double, range: ColorRange) -> (y: UInt8, cb: UInt8, cr: UInt8) {
        let luma = 0.299 * red + 0.587 * green + 0.114 * blue
        let cb = (blue - luma) / 1.772
        let cr = (red - luma) / 1.402
        let quantize = { (value: Double) in UInt8(max(0, min(255, value.rounded()))) }
        switch range {
        case .video: return (quantize(16 + 219 * luma), quantize(128 + 224 * cb), quantize(128 + 224 * cr))
        case .full: return (quantize(255 * luma), quantize(128 + 255 * cb), quantize(128 + 255 * cr))
        }
    }

    // MARK: Geometry that depends on the frame index

    /// How far the bars have scrolled at a frame, in luma samples (even, below ``period``).
    private func scrollOffset(_ index: Int64) -> Int {
        Int(index.magnitude % UInt64(period) * UInt64(Self.scrollStep) % UInt64(period))
    }

    /// The moving box at a frame: it bounces between the picture's edges, starting at the bottom-left corner.
    /// - Parameter index: the frame number.
    /// - Returns: the box, with even coordinates.
    func boxRect(_ index: Int64) -> PixelRect {
        let travelX = max(width - boxSide, 0), travelY = max(height - boxSide, 0)
        let x = Self.bounce(index.magnitude &* 6, travelX) & ~1
        let y = (travelY - Self.bounce(index.magnitude &* 4, travelY)) & ~1
        return PixelRect(x: x, y: y, width: boxSide, height: boxSide)
    }

    /// A triangle wave: `position` folded into 0…`limit` and back.
    private static func bounce(_ position: UInt64, _ limit: Int) -> Int {
        guard limit > 0 else { return 0 }
        let phase = Int(position % UInt64(2 * limit))
        return phase <= limit ? phase : 2 * limit - phase
    }

    /// Where the text panel is, and the two text lines in it.
    private var panelOrigin: Int { 2 * textScale }

    /// The rectangle the frame counter's digits are drawn in (for up to ``counterDigits`` digits).
    var counterRect: PixelRect {
        PixelRect(x: panelOrigin + textScale, y: panelOrigin + textScale,
                  width: (Self.counterDigits * DigitFont.advance - 1) * textScale, height: DigitFont.glyphHeight * textScale)
    }

    /// The rectangle the clock `hh:mm:ss.mmm` is drawn in.
    var clockRect: PixelRect {
        PixelRect(x: panelOrigin + textScale, y: panelOrigin + textScale + (DigitFont.glyphHeight + 1) * textScale,
                  width: (12 * DigitFont.advance - 1) * textScale, height: DigitFont.glyphHeight * textScale)
    }

    /// The counter text of a frame: its number, zero-padded to ``counterDigits`` digits.
    static func counterText(_ index: Int64) -> [UInt8] {
        var text: [UInt8] = []
        appendDecimal(index.magnitude, width: counterDigits, to: &text)
        return text
    }

    /// The clock text of a time: `hh:mm:ss.mmm` (hours grow past two digits if they must).
    static func clockText(_ time: MediaTime) -> [UInt8] {
        let milliseconds = time.value.magnitude * 1000 / UInt64(time.timescale)
        var text: [UInt8] = []
        text.reserveCapacity(16)  // one allocation per frame
        appendDecimal(milliseconds / 3_600_000, width: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendDecimal(milliseconds / 60_000 % 60, width: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendDecimal(milliseconds / 1000 % 60, width: 2, to: &text)
        text.append(UInt8(ascii: "."))
        appendDecimal(milliseconds % 1000, width: 3, to: &text)
        return text
    }

    /// Appends `value` in decimal ASCII, zero-padded to `width` digits (more if it needs them), without
    /// going through a `String`.
    private static func appendDecimal(_ value: UInt64, width: Int, to text: inout [UInt8]) {
        var length = 1
        var rest = value / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        let start = text.count
        text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(width, length)))
        var position = text.count - 1
        var remaining = value
        while remaining > 0, position >= start {
            text[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
            position -= 1
        }
    }

    // MARK: Rendering

    /// Renders one frame.
    /// - Parameters:
    ///   - index: the frame number (drives the motion and the counter).
    ///   - pts: the frame's time (drawn as the clock).
    /// - Returns: the picture.
    func render(index: Int64, pts: MediaTime) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, format: format, range: range)
        let offset = scrollOffset(index)
        let rampOffset = (period - offset) % period
        let box = boxRect(index)
        let counter = Self.counterText(index)
        let clock = Self.clockText(pts)
        let panelColumns = max(counter.count, clock.count)
        let panel = PixelRect(x: panelOrigin, y: panelOrigin,
                              width: (panelColumns * DigitFont.advance + 1) * textScale,
                              height: (2 * (DigitFont.glyphHeight + 1) + 1) * textScale)

        // Luma.
        let lumaStride = buffer.planes[0].bytesPerRow
        buffer.planes[0].bytes.withUnsafeMutableBufferPointer { plane in
            barsLuma.withUnsafeBufferPointer { bars in
                rampLuma.withUnsafeBufferPointer { ramp in
                    Self.scroll(into: plane, stride: lumaStride, rows: height, rowLength: width, split: barsBandHeight,
                                top: bars, topStart: offset, bottom: ramp, bottomStart: rampOffset)
                }
            }
            let luma = Canvas(plane: plane, stride: lumaStride, width: width, height: height, bytesPerSample: 1)
            luma.fill(box, box: boxColour.luma, boxColour.luma)
            luma.fill(panel, box: black, black)
            var lineY = panel.y + textScale
            for line in [counter, clock] {
                for (column, character) in line.enumerated() {
                    let x = panel.x + textScale + column * DigitFont.advance * textScale
                    for row in 0..<DigitFont.glyphHeight {
                        guard let bits = DigitFont.row(of: character, row), bits != 0 else { continue }
                        for bit in 0..<DigitFont.glyphWidth where bits & (0x10 >> bit) != 0 {
                            luma.fill(PixelRect(x: x + bit * textScale, y: lineY + row * textScale,
                                                width: textScale, height: textScale), box: white, white)
                        }
                    }
                }
                lineY += (DigitFont.glyphHeight + 1) * textScale
            }
        }

        // Chroma.
        let chromaWidth = buffer.chromaWidth, chromaHeight = buffer.chromaHeight
        let chromaSplit = (barsBandHeight + 1) / 2
        let halve = { (rect: PixelRect) in
            PixelRect(x: rect.x / 2, y: rect.y / 2, width: (rect.width + 1) / 2, height: (rect.height + 1) / 2)
        }
        if format.planeCount == 2 {
            let stride = buffer.planes[1].bytesPerRow
            buffer.planes[1].bytes.withUnsafeMutableBufferPointer { plane in
                barsChromaFirst.withUnsafeBufferPointer { bars in
                    rampChromaFirst.withUnsafeBufferPointer { ramp in
                        Self.scroll(into: plane, stride: stride, rows: chromaHeight, rowLength: 2 * chromaWidth,
                                    split: chromaSplit, top: bars, topStart: offset, bottom: ramp, bottomStart: rampOffset)
                    }
                }
                let chroma = Canvas(plane: plane, stride: stride, width: chromaWidth, height: chromaHeight, bytesPerSample: 2)
                chroma.fill(halve(box), box: boxColour.first, boxColour.second)
                chroma.fill(halve(panel), box: neutralChroma, neutralChroma)
            }
        } else {
            for (planeIndex, bars, ramp, colour) in [(1, barsChromaFirst, rampChromaFirst, boxColour.first),
                                                     (2, barsChromaSecond, rampChromaSecond, boxColour.second)] {
                let stride = buffer.planes[planeIndex].bytesPerRow
                buffer.planes[planeIndex].bytes.withUnsafeMutableBufferPointer { plane in
                    bars.withUnsafeBufferPointer { barsRow in
                        ramp.withUnsafeBufferPointer { rampRow in
                            Self.scroll(into: plane, stride: stride, rows: chromaHeight, rowLength: chromaWidth,
                                        split: chromaSplit, top: barsRow, topStart: offset / 2,
                                        bottom: rampRow, bottomStart: rampOffset / 2)
                        }
                    }
                    let chroma = Canvas(plane: plane, stride: stride, width: chromaWidth, height: chromaHeight, bytesPerSample: 1)
                    chroma.fill(halve(box), box: colour, colour)
                    chroma.fill(halve(panel), box: neutralChroma, neutralChroma)
                }
            }
        }
        return buffer
    }

    /// Copies a window of a source row into every row of a plane: rows above `split` from `top`, the rest
    /// from `bottom`. Windows that would run past a source row are clipped (they cannot, by construction).
    private static func scroll(into plane: UnsafeMutableBufferPointer<UInt8>, stride: Int, rows: Int, rowLength: Int,
                               split: Int, top: UnsafeBufferPointer<UInt8>, topStart: Int,
                               bottom: UnsafeBufferPointer<UInt8>, bottomStart: Int) {
        guard let destination = plane.baseAddress, let topBase = top.baseAddress, let bottomBase = bottom.baseAddress else { return }
        let topCount = max(0, min(rowLength, top.count - topStart))
        let bottomCount = max(0, min(rowLength, bottom.count - bottomStart))
        for row in 0..<rows {
            let rowStart = row * stride
            guard rowStart + rowLength <= plane.count else { return }
            if row < split {
                (destination + rowStart).update(from: topBase + topStart, count: topCount)
            } else {
                (destination + rowStart).update(from: bottomBase + bottomStart, count: bottomCount)
            }
        }
    }
}

/// A plane to draw clipped rectangles into: `bytesPerSample` is 1 for planar samples and 2 for the
/// interleaved chroma pairs of NV12/NV21.
private struct Canvas {
    let plane: UnsafeMutableBufferPointer<UInt8>
    let stride: Int
    let width: Int
    let height: Int
    let bytesPerSample: Int

    /// Fills a rectangle (in samples), clipped to the plane, with `first` (and `second` for the second byte of
    /// an interleaved pair).
    func fill(_ rect: PixelRect, box first: UInt8, _ second: UInt8) {
        let left = max(rect.x, 0), right = min(rect.x + rect.width, width)
        let top = max(rect.y, 0), bottom = min(rect.y + rect.height, height)
        guard left < right, top < bottom, let base = plane.baseAddress else { return }
        for row in top..<bottom {
            let start = row * stride + left * bytesPerSample
            let end = row * stride + right * bytesPerSample
            guard end <= plane.count else { return }
            if bytesPerSample == 1 {
                (base + start).update(repeating: first, count: end - start)
            } else {
                var position = start
                while position < end {
                    base[position] = first
                    base[position + 1] = second
                    position += 2
                }
            }
        }
    }
}
