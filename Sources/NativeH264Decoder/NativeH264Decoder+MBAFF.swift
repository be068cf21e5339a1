import NativeH264Kernels

/// The neighbours of the current macroblock of an MBAFF frame, resolved through Table 6-4
/// (``MBAFFGeometry/locate(xN:yN:maxW:maxH:currentIsField:currentIsBottom:fieldPairs:)``) before it is decoded:
/// for each 4x4 luma and chroma block row, the macroblock to the left and the block row in it (§6.4.11.4,
/// §6.4.11.5); the macroblock above (whose bottom block row is always the one above); the availability of the
/// neighbouring samples for intra prediction (§8.3.1.2, §8.3.3, §8.3.4). Macroblocks are internal indices
/// (``NativeH264Decoder/mbaffIndex(_:)``), −1 when not available.
struct MBAFFMacroblockNeighbours {
    /// The macroblock left of each luma 4x4 block row (xN −1, yN 4·row).
    var leftMb: InlineArray<4, Int> = .init(repeating: -1)
    /// The 4x4 block row (yW / 4) in that macroblock.
    var leftRow: InlineArray<4, Int> = .init(repeating: 0)
    /// The macroblock left of each chroma 4x4 block row (maxH 8).
    var chromaLeftMb: InlineArray<2, Int> = .init(repeating: -1)
    /// The chroma 4x4 block row in that macroblock.
    var chromaLeftRow: InlineArray<2, Int> = .init(repeating: 0)
    /// The macroblock above (xN 0, yN −1).
    var topMb = -1
    /// The samples left (the pair A), above, above left and above right are available.
    var left = false, top = false, topLeft = false, topRight = false
}

/// Where a macroblock's samples are: the plane view its prediction reads (the frame, or for a field
/// macroblock of an MBAFF frame the field of its parity: every other row), its corner in that view, and
/// the first sample it writes with the distance between its rows (§6.4.1).
struct MacroblockSamples {
    /// The luma view.
    let luma: PlaneView
    /// The macroblock's corner in the luma view.
    let lumaX: Int, lumaY: Int
    /// The macroblock's first luma sample.
    let lumaOrigin: UnsafeMutablePointer<UInt8>
    /// Samples from one of the macroblock's luma rows to the next.
    let lumaStride: Int
    /// The chroma views (1x1 dummies without chroma).
    let cb: PlaneView, cr: PlaneView
    /// The macroblock's corner in the chroma views.
    let chromaX: Int, chromaY: Int
    /// The macroblock's first Cb and Cr samples.
    let cbOrigin: UnsafeMutablePointer<UInt8>, crOrigin: UnsafeMutablePointer<UInt8>
    /// Samples from one of the macroblock's chroma rows to the next.
    let chromaStride: Int
}

extension NativeH264Decoder {
    /// The internal index of macroblock address `mbAddr` of an MBAFF frame: the raster position of the
    /// macroblock's slot, column (mbAddr / 2) % PicWidthInMbs, row 2 · pair row + (mbAddr % 2) (§6.4.1), so that
    /// a frame macroblock sits where it would in a progressive frame and the per-macroblock tables keep their
    /// layout; a field macroblock pair's top (top field) and bottom (bottom field) macroblocks take its two slots.
    @inline(__always)
    func mbaffIndex(_ mbAddr: Int) -> Int {
        let pair = mbAddr >> 1
        return ((pair / widthInMbs) * 2 + (mbAddr & 1)) * widthInMbs + pair % widthInMbs
    }

    /// Where macroblock `mb` (internal index) of `picture` has its samples (§6.4.1): as in a progressive frame,
    /// except a field macroblock of an MBAFF frame, whose rows are every other row of its pair from row 0 (top
    /// field) or row 1 (bottom field), predicted from samples of the same field.
    @inline(__always)
    func macroblockSamples(_ mb: Int, _ picture: DecoderPicture) -> MacroblockSamples {
        let mbX = mb % widthInMbs, mbY = mb / widthInMbs
        let width = picture.width, chromaWidth = max(picture.chromaWidth, 1)
        let hasChroma = picture.chromaWidth > 0
        if interlace.mbaff && mbField[mb] != 0 {
            let parity = mbY & 1, pairRow = mbY >> 1
            let lumaBase = picture.luma + parity * width
            let cbBase = picture.cb + (hasChroma ? parity * chromaWidth : 0), crBase = picture.cr + (hasChroma ? parity * chromaWidth : 0)
            let chromaHeight = max(picture.chromaHeight / 2, 1)
            return MacroblockSamples(
                luma: PlaneView(base: lumaBase, width: width, height: picture.height / 2, stride: 2 * width),
                lumaX: mbX * 16, lumaY: pairRow * 16, lumaOrigin: lumaBase + pairRow * 16 * 2 * width + mbX * 16, lumaStride: 2 * width,
                cb: PlaneView(base: cbBase, width: chromaWidth, height: chromaHeight, stride: hasChroma ? 2 * chromaWidth : chromaWidth),
                cr: PlaneView(base: crBase, width: chromaWidth, height: chromaHeight, stride: hasChroma ? 2 * chromaWidth : chromaWidth),
                chromaX: mbX * 8, chromaY: pairRow * 8,
                cbOrigin: cbBase + pairRow * 8 * 2 * chromaWidth + mbX * 8, crOrigin: crBase + pairRow * 8 * 2 * chromaWidth + mbX * 8,
                chromaStride: 2 * chromaWidth)
        }
        let chromaHeight = max(picture.chromaHeight, 1)
        return MacroblockSamples(
            luma: PlaneView(base: picture.luma, width: width, height: picture.height, stride: width),
            lumaX: mbX * 16, lumaY: mbY * 16, lumaOrigin: picture.luma + mbY * 16 * width + mbX * 16, lumaStride: width,
            cb: PlaneView(base: picture.cb, width: chromaWidth, height: chromaHeight, stride: chromaWidth),
            cr: PlaneView(base: picture.cr, width: chromaWidth, height: chromaHeight, stride: chromaWidth),
            chromaX: mbX * 8, chromaY: mbY * 8,
            cbOrigin: picture.cb + (hasChroma ? mbY * 8 * chromaWidth + mbX * 8 : 0),
            crOrigin: picture.cr + (hasChroma ? mbY * 8 * chromaWidth + mbX * 8 : 0), chromaStride: chromaWidth)
    }

    /// `slice_data( )` of an MBAFF frame for CAVLC (§7.3.4, MbaffFrameFlag 1): macroblock pairs from
    /// CurrMbAddr = 2 · first_mb_in_slice, mb_field_decoding_flag with each pair's top macroblock (I slices: no
    /// macroblock is skipped, so the top one always carries it; the bottom one shares it, §7.4.4), then
    /// `macroblock_layer( )` until the RBSP ends. P and B slices are refused before (``checkSupport(sps:pps:header:)``).
    func decodeSliceDataMBAFF(_ reader: inout SliceBitReader, _ context: inout SliceContext) throws(SliceDataError) {
        let count = widthInMbs * heightInMbs
        var mbAddr = Int(context.header.firstMbInSlice) * 2
        guard (0...51).contains(context.qp) else { throw SliceDataError(field: "slice_qp_delta (SliceQPY outside 0…51)") }
        defer { interlace.fieldScan = false }
        var field = false
        var moreData = true
        while moreData {
            guard mbAddr < count else { throw SliceDataError(field: "slice data beyond the last macroblock") }
            let mb = mbaffIndex(mbAddr)
            if mbAddr & 1 == 0 {
                field = reader.bit()
                let flag: UInt8 = field ? 1 : 0
                mbField[mb] = flag
                mbField[mb + widthInMbs] = flag
            }
            context.currentMb = mb
            interlace.fieldScan = field
            resolveMBAFFNeighbours(mbAddr, mb: mb, isField: field, context)
            try decodeMacroblock(mb, &reader, &context)
            if reader.isOverrun { throw SliceDataError(field: "macroblock_layer (slice data cut short)") }
            moreData = reader.position < reader.bitCount
            mbAddr += 1
        }
    }

    /// The macroblock loop of `slice_data( )` in an MBAFF frame with CABAC (§7.3.4), after the engine's
    /// initialisation: macroblock pairs from CurrMbAddr = 2 · first_mb_in_slice; with each pair's top macroblock
    /// mb_field_decoding_flag (I slices: never skipped), ctxIdx 70 + ctxIdxInc (§9.3.3.1.1: the pairs left and
    /// above that are available field pairs); then `macroblock_layer( )`, and after each bottom macroblock end_of_slice_flag.
    func decodeMBAFFMacroblocksCABAC(_ engine: inout CABACDecoder, _ context: inout SliceContext,
                                     _ state: inout CABACSliceState) throws(SliceDataError) {
        let count = widthInMbs * heightInMbs
        defer { interlace.fieldScan = false }
        var mbAddr = Int(context.header.firstMbInSlice) * 2
        var field = false
        while true {
            guard mbAddr < count else { throw SliceDataError(field: "slice data beyond the last macroblock") }
            let mb = mbaffIndex(mbAddr)
            if mbAddr & 1 == 0 {
                let pairs = MBAFFGeometry(widthInMbs: widthInMbs).neighbourPairs(of: mbAddr)
                let a = pairs.a < 0 ? -1 : mbaffIndex(pairs.a), b = pairs.b < 0 ? -1 : mbaffIndex(pairs.b)
                let leftAvailable = a >= 0 && isAvailable(a, context), aboveAvailable = b >= 0 && isAvailable(b, context)
                let increment = MBAFFGeometry.fieldDecodingFlagContextIncrement(
                    leftAvailable: leftAvailable, leftIsField: leftAvailable && mbField[a] != 0,
                    aboveAvailable: aboveAvailable, aboveIsField: aboveAvailable && mbField[b] != 0)
                field = engine.decision(70 + increment) == 1
                let flag: UInt8 = field ? 1 : 0
                mbField[mb] = flag
                mbField[mb + widthInMbs] = flag
            }
            context.currentMb = mb
            interlace.fieldScan = field
            resolveMBAFFNeighbours(mbAddr, mb: mb, isField: field, context)
            try decodeMacroblockCABAC(mb, &engine, &context, &state)
            if engine.isOverrun { throw SliceDataError(field: "macroblock_layer (slice data cut short)") }
            // end_of_slice_flag follows a pair's bottom macroblock only (§7.3.4: moreDataFlag 1 after a top one).
            if mbAddr & 1 == 1 && engine.terminate() == 1 { break }
            mbAddr += 1
        }
    }

    /// Resolves the neighbours of macroblock address `mbAddr` (internal index `mb`) of an MBAFF frame into
    /// ``mbaffNeighbours``: the pairs A, B, C, D (§6.4.10), available when decoded in the current slice
    /// (§6.4.8), their coding (mb_field_decoding_flag), then Table 6-4 for each location the macroblock's
    /// syntax and intra prediction read.
    func resolveMBAFFNeighbours(_ mbAddr: Int, mb: Int, isField: Bool, _ context: SliceContext) {
        let pairs = MBAFFGeometry(widthInMbs: widthInMbs).neighbourPairs(of: mbAddr)
        let a = pairs.a < 0 ? -1 : mbaffIndex(pairs.a), b = pairs.b < 0 ? -1 : mbaffIndex(pairs.b)
        let c = pairs.c < 0 ? -1 : mbaffIndex(pairs.c), d = pairs.d < 0 ? -1 : mbaffIndex(pairs.d)
        let availableA = a >= 0 && isAvailable(a, context), availableB = b >= 0 && isAvailable(b, context)
        let availableC = c >= 0 && isAvailable(c, context), availableD = d >= 0 && isAvailable(d, context)
        var fields: MBAFFFieldPairs = []
        if availableA && mbField[a] != 0 { fields.insert(.a) }
        if availableB && mbField[b] != 0 { fields.insert(.b) }
        if availableC && mbField[c] != 0 { fields.insert(.c) }
        if availableD && mbField[d] != 0 { fields.insert(.d) }
        let bottom = mbAddr & 1 != 0
        let w = widthInMbs
        /// mbAddrN (internal index, −1 when not available) and yW of location (xN, yN).
        func resolve(_ xN: Int, _ yN: Int, _ maxH: Int) -> (Int, Int) {
            guard let location = MBAFFGeometry.locate(xN: xN, yN: yN, maxW: maxH, maxH: maxH, currentIsField: isField,
                                                      currentIsBottom: bottom, fieldPairs: fields) else { return (-1, 0) }
            let top: Int
            switch location.pair {
            case .current: top = bottom ? mb - w : mb
            case .a: top = availableA ? a : -1
            case .b: top = availableB ? b : -1
            case .c: top = availableC ? c : -1
            case .d: top = availableD ? d : -1
            }
            guard top >= 0 else { return (-1, 0) }
            return (location.isBottom ? top + w : top, location.yW)
        }
        var n = MBAFFMacroblockNeighbours()
        for row in 0..<4 {
            let (left, yW) = resolve(-1, 4 * row, 16)
            n.leftMb[row] = left
            n.leftRow[row] = yW >> 2
        }
        for row in 0..<2 {
            let (left, yW) = resolve(-1, 4 * row, 8)
            n.chromaLeftMb[row] = left
            n.chromaLeftRow[row] = yW >> 2
        }
        n.topMb = resolve(0, -1, 16).0
        n.left = availableA
        n.top = n.topMb >= 0
        n.topLeft = resolve(-1, -1, 16).0 >= 0
        n.topRight = resolve(16, -1, 16).0 >= 0
        mbaffNeighbours = n
    }

    /// Intra4x4PredMode's (or Intra8x8PredMode's) prediction in an MBAFF frame (§8.3.1.1, §8.3.2.1): as
    /// ``predictedIntra4x4Mode(_:raster:leftMb:topMb:_:)`` with the neighbouring blocks of Table 6-4. For an
    /// 8x8 block the 4x4 block of an Intra_4x4 neighbour is n = 1 of its 8x8 block left (n = 3 for a frame
    /// macroblock's lower 8x8 blocks next to a field pair) and n = 2 above: that is the 4x4 block row of yW,
    /// as for a 4x4 block at the same place.
    @inline(__always)
    func predictedIntraModeMBAFF(_ mb: Int, raster: Int) -> Int {
        let base = mb * 16
        let x = raster & 3, y = raster >> 2
        var modeA = -1, modeB = -1
        if x > 0 {
            modeA = Int(intraModes[base + raster - 1])
        } else {
            let left = mbaffNeighbours.leftMb[y]
            if left >= 0 { modeA = mbKind[left] == Kind.intraNxN ? Int(intraModes[left * 16 + mbaffNeighbours.leftRow[y] * 4 + 3]) : 2 }
        }
        if y > 0 {
            modeB = Int(intraModes[base + raster - 4])
        } else {
            let top = mbaffNeighbours.topMb
            if top >= 0 { modeB = mbKind[top] == Kind.intraNxN ? Int(intraModes[top * 16 + 12 + x]) : 2 }
        }
        return modeA < 0 || modeB < 0 ? 2 : min(modeA, modeB)
    }

    /// nC of a luma block in an MBAFF frame (§9.2.1 with the neighbouring 4x4 blocks of Table 6-4).
    @inline(__always)
    func lumaNCMBAFF(_ mb: Int, x: Int, y: Int) -> Int {
        var left = -1, top = -1
        if x > 0 {
            left = Int(lumaTotals[mb * 16 + y * 4 + x - 1])
        } else if mbaffNeighbours.leftMb[y] >= 0 {
            left = Int(lumaTotals[mbaffNeighbours.leftMb[y] * 16 + mbaffNeighbours.leftRow[y] * 4 + 3])
        }
        if y > 0 {
            top = Int(lumaTotals[mb * 16 + (y - 1) * 4 + x])
        } else if mbaffNeighbours.topMb >= 0 {
            top = Int(lumaTotals[mbaffNeighbours.topMb * 16 + 12 + x])
        }
        if left >= 0 && top >= 0 { return (left + top + 1) >> 1 }
        return left >= 0 ? left : (top >= 0 ? top : 0)
    }

    /// nC of a 4:2:0 chroma AC block in an MBAFF frame (§9.2.1, neighbouring 4x4 chroma blocks of Table 6-4).
    @inline(__always)
    func chromaNCMBAFF(_ mb: Int, component: Int, x: Int, y: Int) -> Int {
        let c = component * 4
        var left = -1, top = -1
        if x > 0 {
            left = Int(chromaTotals[mb * 8 + c + y * 2])
        } else if mbaffNeighbours.chromaLeftMb[y] >= 0 {
            left = Int(chromaTotals[mbaffNeighbours.chromaLeftMb[y] * 8 + c + mbaffNeighbours.chromaLeftRow[y] * 2 + 1])
        }
        if y > 0 {
            top = Int(chromaTotals[mb * 8 + c + x])
        } else if mbaffNeighbours.topMb >= 0 {
            top = Int(chromaTotals[mbaffNeighbours.topMb * 8 + c + 2 + x])
        }
        if left >= 0 && top >= 0 { return (left + top + 1) >> 1 }
        return left >= 0 ? left : (top >= 0 ? top : 0)
    }
}
