import NativeH264Kernels

/// The starting points of one partition's motion search, at most ``capacity``, kept inline (no heap).
struct MotionCandidates {
    static let capacity = 12
    private var storage = InlineArray<12, SIMD2<Int32>>(repeating: .zero)
    private(set) var count = 0

    /// Adds a vector when there is room and it is not in the list yet.
    mutating func append(_ vector: SIMD2<Int32>) {
        guard count < Self.capacity else { return }
        for i in 0..<count where storage[i] == vector { return }
        storage[count] = vector
        count += 1
    }

    subscript(index: Int) -> SIMD2<Int32> { storage[index] }
}

extension SliceCoder {
    /// The largest motion vector components searched, in quarter samples: ±256 horizontally and
    /// [−252, 252] vertically keep every level's vertical range (Table A-1, level 1: [−64, 63.75]).
    static let motionLimit = SIMD2<Int32>(256, 252)

    /// Motion estimation of one partition against the reference picture's prepared planes
    /// (``LumaReferencePlanes``): the best of the predictors (zero, mvp, the skip vector, the
    /// neighbours' and the earlier partitions' vectors) by SAD + λ·mvd bits read in place on the
    /// full-sample plane, a small diamond from it one sample per step until no step improves (at most
    /// ``EncoderTools/searchSteps`` steps), then half- and (``EncoderTools/quarterSample``) quarter-sample
    /// refinement by SATD + λ·mvd bits on the half-sample planes (a four-point diamond at each, at most
    /// ``EncoderTools/refinementSteps`` steps), each quarter position the rounded
    /// average of two of them (§8.4.2.2.1, Table 8-12).
    /// - Returns: the vector of the partition (x, y, width, height inside the macroblock) and its SATD + λ·bits cost.
    func searchMotion(mbX: Int, mbY: Int, partition: (Int, Int, Int, Int) = (0, 0, 16, 16), size: BlockSize = .w16h16, predictor: SIMD2<Int32>,
                      candidates: MotionCandidates) -> (SIMD2<Int32>, Int) {
        guard let planes = referencePlanes else { return (.zero, .max) }
        let lambda = Self.lambda(qp: qp)
        let x0 = mbX * 16 + partition.0, y0 = mbY * 16 + partition.1, stride = source.width
        let w = size.width, h = size.height
        return source.luma.withUnsafeBufferPointer { src in
            let original = src.baseAddress! + y0 * stride + x0
            let block = scratch.searchBlock
            let planeStride = planes.stride
            let limit = Self.motionLimit
            @inline(__always) func clamped(_ mv: SIMD2<Int32>) -> SIMD2<Int32> {
                SIMD2(min(max(mv.x, -limit.x), limit.x), min(max(mv.y, -limit.y), limit.y))
            }
            @inline(__always) func bits(_ mv: SIMD2<Int32>) -> Int {
                Self.signedGolombBits(mv.x - predictor.x) + Self.signedGolombBits(mv.y - predictor.y)
            }
            /// SAD at a whole-sample vector, read in place.
            func fullCost(_ mv: SIMD2<Int32>) -> Int {
                let x = x0 + Int(mv.x >> 2), y = y0 + Int(mv.y >> 2)
                let distortion: Int
                if planes.contains(x: x, y: y, width: w, height: h) {
                    distortion = SAD.fast(size, original, stride: stride, planes.full + y * planeStride + x, stride: planeStride)
                } else {
                    planes.predict(quarterX: x * 4, quarterY: y * 4, size: size, into: block, stride: 16)
                    distortion = SAD.fast(size, original, stride: stride, UnsafePointer(block), stride: 16)
                }
                return distortion + lambda * bits(mv)
            }
            /// SATD at a quarter-sample vector.
            func subCost(_ mv: SIMD2<Int32>) -> Int {
                let qx = x0 * 4 + Int(mv.x), qy = y0 * 4 + Int(mv.y)
                let distortion: Int
                if planes.contains(x: qx >> 2, y: qy >> 2, width: w, height: h) {
                    let (p, q) = planes.sources(quarterX: qx, quarterY: qy)
                    if p == q {
                        distortion = SATD.fast(size, original, stride: stride, p, stride: planeStride)
                    } else {
                        PixelAverage.fast(size, p, stride: planeStride, q, stride: planeStride, into: block, stride: 16)
                        distortion = SATD.fast(size, original, stride: stride, UnsafePointer(block), stride: 16)
                    }
                } else {
                    planes.predict(quarterX: qx, quarterY: qy, size: size, into: block, stride: 16)
                    distortion = SATD.fast(size, original, stride: stride, UnsafePointer(block), stride: 16)
                }
                return distortion + lambda * bits(mv)
            }
            // Integer-sample start: the cheapest predictor, rounded to whole samples.
            // Candidates that round to a vector already tried are skipped: the same vector has the same
            // cost, which cannot beat the best strictly (the result is the one of trying it again).
            var best = SIMD2<Int32>.zero, bestCost = Int.max
            var tried = InlineArray<12, SIMD2<Int32>>(repeating: .zero)
            var triedCount = 0
            candidateLoop: for i in 0..<candidates.count {
                let candidate = candidates[i]
                let whole = clamped(SIMD2((candidate.x + 2) & ~3, (candidate.y + 2) & ~3))
                for j in 0..<triedCount where tried[j] == whole { continue candidateLoop }
                tried[triedCount] = whole
                triedCount += 1
                let c = fullCost(whole)
                if c < bestCost { bestCost = c; best = whole }
            }
            // Small diamond, one sample per step, at most 32 steps; the point it came from is not tried again.
            var previous = SIMD2<Int32>(Int32.max, Int32.max)
            for _ in 0..<tools.searchSteps {
                var moved = false
                let centre = best
                for step in 0..<4 {
                    let offset = step < 2 ? SIMD2<Int32>(step == 0 ? 4 : -4, 0) : SIMD2<Int32>(0, step == 2 ? 4 : -4)
                    let next = clamped(centre &+ offset)
                    if next == centre || next == previous { continue }
                    let c = fullCost(next)
                    if c < bestCost { bestCost = c; best = next; moved = true }
                }
                if !moved { break }
                previous = centre
            }
            // Half then quarter samples by SATD: a four-point diamond at each, moved at most twice
            // (x264's sub-sample refinement at its faster settings); the point it came from is not tried again.
            bestCost = subCost(best)
            for radius: Int32 in [2, 1] where radius == 2 || tools.quarterSample {
                var previous = SIMD2<Int32>(Int32.max, Int32.max)
                for _ in 0..<tools.refinementSteps {
                    let centre = best
                    for step in 0..<4 {
                        let offset = step < 2 ? SIMD2<Int32>(step == 0 ? radius : -radius, 0) : SIMD2<Int32>(0, step == 2 ? radius : -radius)
                        let next = clamped(centre &+ offset)
                        if next == centre || next == previous { continue }
                        let c = subCost(next)
                        if c < bestCost { bestCost = c; best = next }
                    }
                    if best == centre { break }
                    previous = centre
                }
            }
            return (best, bestCost)
        }
    }
}
