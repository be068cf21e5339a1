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
    /// The macroblock above left (xN −1, yN −1, neighbour D of §6.4.11.7) and the 4x4 block row in it.
    var topLeftMb = -1, topLeftRow = 0
    /// The macroblock above right (xN 16, yN −1, neighbour C of a partition as wide as the macroblock) and the 4x4 block row in it.
    var topRightMb = -1, topRightRow = 0
    /// Neighbour D of a partition at the left edge whose top is 4x4 block row 1, 2 or 3 (xN −1, yN 4·row − 1): in an MBAFF
    /// frame not always the block left of the row above (§6.4.11.7, Table 6-4); index row − 1.
    var leftDiagonalMb: InlineArray<3, Int> = .init(repeating: -1)
    /// The 4x4 block row in that macroblock.
    var leftDiagonalRow: InlineArray<3, Int> = .init(repeating: 0)
    /// The samples left (the pair A), above, above left and above right are available for intra prediction
    /// (§8.3.1.2: in the slice, and intra when constrained_intra_pred_flag is 1); `left` the upper half of the left
    /// column (luma rows 0–7, chroma rows 0–3), `leftLower` its lower half: with constrained intra prediction a frame
    /// macroblock next to a field pair needs both of its macroblocks intra, a field macroblock next to a frame pair
    /// takes its upper half from the pair's top macroblock and its lower half from the bottom one (Table 6-4).
    var left = false, leftLower = false, top = false, topLeft = false, topRight = false
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
    /// CurrMbAddr = 2 · first_mb_in_slice; in P and B slices mb_skip_run first. mb_field_decoding_flag comes with a
    /// pair's top macroblock, or with its bottom one when the top one is skipped (prevMbSkipped): that bit follows
    /// the run, and is read before the skipped top macroblock is predicted, which uses it (§7.4.4). When both are
    /// skipped the flag is inferred (``MBAFFGeometry/inferredFieldDecodingFlag(leftAvailable:leftIsField:aboveAvailable:aboveIsField:)``).
    /// Then `macroblock_layer( )` until the RBSP ends.
    func decodeSliceDataMBAFF(_ reader: inout SliceBitReader, _ context: inout SliceContext) throws(SliceDataError) {
        let count = widthInMbs * heightInMbs
        var mbAddr = Int(context.header.firstMbInSlice) * 2
        guard (0...51).contains(context.qp) else { throw SliceDataError(field: "slice_qp_delta (SliceQPY outside 0…51)") }
        defer { interlace.fieldScan = false }
        var field = false
        var moreData = true
        while moreData {
            guard mbAddr < count else { throw SliceDataError(field: "slice data beyond the last macroblock") }
            if context.isP || context.isB {
                let run = Int(try reader.ue())
                guard run <= count - mbAddr else { throw SliceDataError(field: "mb_skip_run") }
                for remaining in stride(from: run, to: 0, by: -1) {
                    let mb = mbaffIndex(mbAddr)
                    if mbAddr & 1 == 0 {
                        // The bottom macroblock is not skipped: it carries the flag, the next bit (§7.3.4).
                        field = remaining == 1 && reader.position < reader.bitCount ? reader.bit() : inferredFieldDecodingFlag(mbAddr, &context)
                        setPairField(mb, field)
                    }
                    decodeSkippedMBAFF(mbAddr, mb: mb, field: field, &context)
                    mbAddr += 1
                }
                if run > 0 {
                    moreData = reader.position < reader.bitCount
                    if !moreData { break }
                    guard mbAddr < count else { throw SliceDataError(field: "mb_skip_run") }
                }
            }
            let mb = mbaffIndex(mbAddr)
            if mbAddr & 1 == 0 {
                field = reader.bit()
                setPairField(mb, field)
            }
            // A bottom macroblock has its pair's flag: from the top one, or read after the run that skipped the top one.
            context.currentMb = mb
            interlace.fieldScan = field
            resolveMBAFFNeighbours(mbAddr, mb: mb, isField: field, &context)
            try decodeMacroblock(mb, &reader, &context)
            if reader.isOverrun { throw SliceDataError(field: "macroblock_layer (slice data cut short)") }
            moreData = reader.position < reader.bitCount
            mbAddr += 1
        }
    }

    /// Sets mb_field_decoding_flag of the pair whose top macroblock is `mb` (internal index).
    @inline(__always)
    func setPairField(_ mb: Int, _ field: Bool) {
        let flag: UInt8 = field ? 1 : 0
        mbField[mb] = flag
        mbField[mb + widthInMbs] = flag
    }

    /// mb_field_decoding_flag of the pair holding `mbAddr` when neither macroblock carries it (§7.4.4): the left
    /// pair's when available, else the above pair's, else frame.
    func inferredFieldDecodingFlag(_ mbAddr: Int, _ context: inout SliceContext) -> Bool {
        let pairs = MBAFFGeometry(widthInMbs: widthInMbs).neighbourPairs(of: mbAddr)
        let a = pairs.a < 0 ? -1 : mbaffIndex(pairs.a), b = pairs.b < 0 ? -1 : mbaffIndex(pairs.b)
        let leftAvailable = a >= 0 && isAvailable(a, &context), aboveAvailable = b >= 0 && isAvailable(b, &context)
        return MBAFFGeometry.inferredFieldDecodingFlag(leftAvailable: leftAvailable, leftIsField: leftAvailable && mbField[a] != 0,
                                                       aboveAvailable: aboveAvailable, aboveIsField: aboveAvailable && mbField[b] != 0)
    }

    /// A skipped macroblock of an MBAFF frame (P_Skip §8.4.1.1 or B_Skip §8.4.1.2), its pair's field flag known.
    func decodeSkippedMBAFF(_ mbAddr: Int, mb: Int, field: Bool, _ context: inout SliceContext) {
        context.currentMb = mb
        interlace.fieldScan = field
        resolveMBAFFNeighbours(mbAddr, mb: mb, isField: field, &context)
        if context.isB { decodeBSkip(mb, &context) } else { decodeSkip(mb, &context) }
    }

    /// The macroblock loop of `slice_data( )` in an MBAFF frame with CABAC (§7.3.4), after the engine's
    /// initialisation: macroblock pairs from CurrMbAddr = 2 · first_mb_in_slice. In P and B slices mb_skip_flag
    /// first: the top macroblock's ctxIdxInc with the neighbours of the inferred field flag (§7.4.4); when the top
    /// one is skipped, the bottom one's mb_skip_flag follows and, when it is not skipped, mb_field_decoding_flag,
    /// both decoded before the skipped top macroblock is predicted with that flag. mb_field_decoding_flag
    /// (ctxIdx 70 + ctxIdxInc, §9.3.3.1.1.1: the pairs left and above that are available field pairs) otherwise
    /// with the top macroblock; then `macroblock_layer( )`, and after each bottom macroblock end_of_slice_flag.
    func decodeMBAFFMacroblocksCABAC(_ engine: inout CABACDecoder, _ context: inout SliceContext,
                                     _ state: inout CABACSliceState) throws(SliceDataError) {
        let count = widthInMbs * heightInMbs
        defer { interlace.fieldScan = false }
        var mbAddr = Int(context.header.firstMbInSlice) * 2
        var field = false
        let inter = context.isP || context.isB
        var topSkipped = false, bottomSkipped = false
        /// mb_field_decoding_flag (ctxIdx 70…72).
        func fieldFlag(_ engine: inout CABACDecoder) -> Bool {
            let pairs = MBAFFGeometry(widthInMbs: widthInMbs).neighbourPairs(of: mbAddr)
            let a = pairs.a < 0 ? -1 : mbaffIndex(pairs.a), b = pairs.b < 0 ? -1 : mbaffIndex(pairs.b)
            let leftAvailable = a >= 0 && isAvailable(a, &context), aboveAvailable = b >= 0 && isAvailable(b, &context)
            let increment = MBAFFGeometry.fieldDecodingFlagContextIncrement(
                leftAvailable: leftAvailable, leftIsField: leftAvailable && mbField[a] != 0,
                aboveAvailable: aboveAvailable, aboveIsField: aboveAvailable && mbField[b] != 0)
            return engine.decision(70 + increment) == 1
        }
        while true {
            guard mbAddr < count else { throw SliceDataError(field: "slice data beyond the last macroblock") }
            let mb = mbaffIndex(mbAddr)
            let top = mbAddr & 1 == 0
            var skipped = false
            if inter {
                if top {
                    field = inferredFieldDecodingFlag(mbAddr, &context)
                    setPairField(mb, field)
                    resolveMBAFFNeighbours(mbAddr, mb: mb, isField: field, &context)
                    skipped = decodeSkipFlag(mb, &engine, &context)
                    if skipped {
                        // The top macroblock counts as decoded and skipped for the bottom one's ctxIdxInc.
                        mbSlice[mb] = context.sliceIndex
                        cabac.skip[mb] = 1
                        let bottom = mb + widthInMbs
                        resolveMBAFFNeighbours(mbAddr + 1, mb: bottom, isField: field, &context)
                        bottomSkipped = decodeSkipFlag(bottom, &engine, &context)
                        if !bottomSkipped {
                            field = fieldFlag(&engine)
                            setPairField(mb, field)
                        }
                    }
                } else if topSkipped {
                    skipped = bottomSkipped
                } else {
                    resolveMBAFFNeighbours(mbAddr, mb: mb, isField: field, &context)
                    skipped = decodeSkipFlag(mb, &engine, &context)
                }
            }
            if skipped {
                decodeSkippedMBAFF(mbAddr, mb: mb, field: field, &context)
                cabac.record(mb, skip: true, cbp: 0, chromaMode: 0, codedDC: 0, direct: context.isB ? 0x1F : 0)
                cabac.clearMotionDifferences(mb)
                state.previousQPDeltaNonZero = false
            } else {
                if top {
                    field = fieldFlag(&engine)
                    setPairField(mb, field)
                }
                context.currentMb = mb
                interlace.fieldScan = field
                resolveMBAFFNeighbours(mbAddr, mb: mb, isField: field, &context)
                try decodeMacroblockCABAC(mb, &engine, &context, &state)
            }
            if top { topSkipped = skipped }
            if engine.isOverrun { throw SliceDataError(field: "macroblock_layer (slice data cut short)") }
            // end_of_slice_flag follows a pair's bottom macroblock only (§7.3.4: moreDataFlag 1 after a top one).
            if !top && engine.terminate() == 1 { break }
            mbAddr += 1
        }
    }

    /// Resolves the neighbours of macroblock address `mbAddr` (internal index `mb`) of an MBAFF frame into
    /// ``mbaffNeighbours``: the pairs A, B, C, D (§6.4.10), available when decoded in the current slice
    /// (§6.4.8), their coding (mb_field_decoding_flag), then Table 6-4 for each location the macroblock's
    /// syntax and intra prediction read.
    func resolveMBAFFNeighbours(_ mbAddr: Int, mb: Int, isField: Bool, _ context: inout SliceContext) {
        let pairs = MBAFFGeometry(widthInMbs: widthInMbs).neighbourPairs(of: mbAddr)
        let a = pairs.a < 0 ? -1 : mbaffIndex(pairs.a), b = pairs.b < 0 ? -1 : mbaffIndex(pairs.b)
        let c = pairs.c < 0 ? -1 : mbaffIndex(pairs.c), d = pairs.d < 0 ? -1 : mbaffIndex(pairs.d)
        let availableA = a >= 0 && isAvailable(a, &context), availableB = b >= 0 && isAvailable(b, &context)
        let availableC = c >= 0 && isAvailable(c, &context), availableD = d >= 0 && isAvailable(d, &context)
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
        let (topLeft, topLeftY) = resolve(-1, -1, 16), (topRight, topRightY) = resolve(16, -1, 16)
        n.topLeftMb = topLeft
        n.topLeftRow = topLeftY >> 2
        n.topRightMb = topRight
        n.topRightRow = topRightY >> 2
        for row in 1..<4 {
            let (diagonal, yW) = resolve(-1, 4 * row - 1, 16)
            n.leftDiagonalMb[row - 1] = diagonal
            n.leftDiagonalRow[row - 1] = yW >> 2
        }
        /// Available for intra prediction (§8.3.1.2).
        func intra(_ n: Int) -> Bool { n >= 0 && !(context.constrainedIntra && mbKind[n] == Kind.inter) }
        if !availableA {
            (n.left, n.leftLower) = (false, false)
        } else if isField == fields.contains(.a) {
            n.left = intra(n.leftMb[0])
            n.leftLower = n.left
        } else if isField {
            (n.left, n.leftLower) = (intra(a), intra(a + w))
        } else {
            n.left = intra(a) && intra(a + w)
            n.leftLower = n.left
        }
        n.top = intra(n.topMb)
        n.topLeft = intra(topLeft)
        n.topRight = intra(topRight)
        mbaffNeighbours = n
    }

    /// Intra4x4PredMode's (or Intra8x8PredMode's) prediction in an MBAFF frame (§8.3.1.1, §8.3.2.1): as
    /// ``predictedIntra4x4Mode(_:raster:leftMb:topMb:_:)`` with the neighbouring blocks of Table 6-4. For an
    /// 8x8 block the 4x4 block of an Intra_4x4 neighbour is n = 1 of its 8x8 block left (n = 3 for a frame
    /// macroblock's lower 8x8 blocks next to a field pair) and n = 2 above: that is the 4x4 block row of yW,
    /// as for a 4x4 block at the same place.
    /// With constrained_intra_pred_flag an inter neighbour counts as not available (dcPredModePredictedFlag 1).
    @inline(__always)
    func predictedIntraModeMBAFF(_ mb: Int, raster: Int, constrainedIntra: Bool) -> Int {
        let base = mb * 16
        let x = raster & 3, y = raster >> 2
        var modeA = -1, modeB = -1
        if x > 0 {
            modeA = Int(intraModes[base + raster - 1])
        } else {
            let left = mbaffNeighbours.leftMb[y]
            if left >= 0 && !(constrainedIntra && mbKind[left] == Kind.inter) {
                modeA = mbKind[left] == Kind.intraNxN ? Int(intraModes[left * 16 + mbaffNeighbours.leftRow[y] * 4 + 3]) : 2
            }
        }
        if y > 0 {
            modeB = Int(intraModes[base + raster - 4])
        } else {
            let top = mbaffNeighbours.topMb
            if top >= 0 && !(constrainedIntra && mbKind[top] == Kind.inter) {
                modeB = mbKind[top] == Kind.intraNxN ? Int(intraModes[top * 16 + 12 + x]) : 2
            }
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

    /// Intra chroma DC prediction (§8.3.4.1–8.3.4.3, 4:2:0) when only one half of the left column is available for
    /// intra prediction (an MBAFF frame with constrained_intra_pred_flag: ``MBAFFMacroblockNeighbours/leftLower``): each
    /// 4x4 chroma block takes the DC of the samples its rules allow — the upper-left and lower-right blocks top and left,
    /// the upper-right block top first, the lower-left block left first — from the available halves; 128 when none.
    func predictChromaDCHalfLeft(_ samples: MacroblockSamples, upper: Bool, lower: Bool, top: Bool) {
        for component in 0..<2 {
            let origin = component == 0 ? samples.cbOrigin : samples.crOrigin, stride = samples.chromaStride
            @inline(__always) func topSum(_ x0: Int) -> Int { (0..<4).reduce(0) { $0 + Int((origin - stride)[x0 + $1]) } }
            @inline(__always) func leftSum(_ y0: Int) -> Int { (0..<4).reduce(0) { $0 + Int((origin + (y0 + $1) * stride - 1).pointee) } }
            for block in 0..<4 {
                let bx = block & 1, by = block >> 1
                let leftAvailable = by == 0 ? upper : lower
                let value: Int
                if bx == by {
                    // (0, 0) and (4, 4): both, else left, else top.
                    if top && leftAvailable { value = (topSum(4 * bx) + leftSum(4 * by) + 4) >> 3 }
                    else if leftAvailable { value = (leftSum(4 * by) + 2) >> 2 }
                    else if top { value = (topSum(4 * bx) + 2) >> 2 }
                    else { value = 128 }
                } else if bx == 1 {
                    // (4, 0): top, else left.
                    if top { value = (topSum(4) + 2) >> 2 } else if leftAvailable { value = (leftSum(0) + 2) >> 2 } else { value = 128 }
                } else {
                    // (0, 4): left, else top.
                    if leftAvailable { value = (leftSum(4) + 2) >> 2 } else if top { value = (topSum(0) + 2) >> 2 } else { value = 128 }
                }
                for row in 0..<4 { (origin + (4 * by + row) * stride + 4 * bx).update(repeating: UInt8(value), count: 4) }
            }
        }
    }
}
