import NativeH264Kernels

extension SliceCoder {
    /// The largest motion vector components searched, in quarter samples: ±256 horizontally and
    /// [−252, 252] vertically keep every level's vertical range (Table A-1, level 1: [−64, 63.75]).
    static let motionLimit = SIMD2<Int32>(256, 252)

    /// Motion estimation of a 16x16 macroblock against the reference picture: the best of the
    /// predictors (zero, mvp, the skip vector, the neighbours' vectors) at integer precision, a small
    /// diamond search from it by SAD + λ·mvd bits until no step improves, then half- and quarter-sample
    /// refinement by SATD + λ·mvd bits through the 6-tap interpolation (§8.4.2.2.1).
    /// - Returns: the vector of the partition (x, y, width, height inside the macroblock) and its SATD + λ·bits cost.
    func searchMotion(mbX: Int, mbY: Int, partition: (Int, Int, Int, Int) = (0, 0, 16, 16), size: BlockSize = .w16h16, predictor: SIMD2<Int32>,
                      candidates: [SIMD2<Int32>]) -> (SIMD2<Int32>, Int) {
        guard let reference else { return (.zero, .max) }
        let lambda = Self.lambda(qp: qp)
        let x0 = mbX * 16 + partition.0, y0 = mbY * 16 + partition.1, stride = source.width
        return reference.luma.withUnsafeBufferPointer { ref in
            source.luma.withUnsafeBufferPointer { src in
                let plane = PlaneView(base: ref.baseAddress!, width: reference.width, height: reference.height, stride: stride)
                let original = src.baseAddress! + y0 * stride + x0
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { scratch in
                    let block = scratch.baseAddress!
                    func clamped(_ mv: SIMD2<Int32>) -> SIMD2<Int32> {
                        SIMD2(min(max(mv.x, -Self.motionLimit.x), Self.motionLimit.x), min(max(mv.y, -Self.motionLimit.y), Self.motionLimit.y))
                    }
                    func bits(_ mv: SIMD2<Int32>) -> Int {
                        Self.signedGolombBits(mv.x - predictor.x) + Self.signedGolombBits(mv.y - predictor.y)
                    }
                    func cost(_ mv: SIMD2<Int32>, satd: Bool) -> Int {
                        LumaInterpolation.fast(plane, quarterX: x0 * 4 + Int(mv.x), quarterY: y0 * 4 + Int(mv.y), size: size,
                                               into: block, stride: 16)
                        let distortion = satd ? SATD.fast(size, original, stride: stride, UnsafePointer(block), stride: 16)
                                              : SAD.fast(size, original, stride: stride, UnsafePointer(block), stride: 16)
                        return distortion + lambda * bits(mv)
                    }
                    // Integer-sample start: the cheapest predictor, rounded to whole samples.
                    var best = SIMD2<Int32>.zero, bestCost = Int.max
                    for candidate in candidates {
                        let whole = clamped(SIMD2((candidate.x + 2) & ~3, (candidate.y + 2) & ~3))
                        let c = cost(whole, satd: false)
                        if c < bestCost { bestCost = c; best = whole }
                    }
                    // Small diamond, one sample per step, at most 32 steps.
                    let diamond: [SIMD2<Int32>] = [SIMD2(4, 0), SIMD2(-4, 0), SIMD2(0, 4), SIMD2(0, -4)]
                    for _ in 0..<32 {
                        var moved = false
                        let centre = best
                        for step in diamond {
                            let next = clamped(centre &+ step)
                            if next == centre { continue }
                            let c = cost(next, satd: false)
                            if c < bestCost { bestCost = c; best = next; moved = true }
                        }
                        if !moved { break }
                    }
                    // Half then quarter samples by SATD.
                    bestCost = cost(best, satd: true)
                    for radius: Int32 in [2, 1] {
                        let centre = best
                        for dy: Int32 in -1...1 {
                            for dx: Int32 in -1...1 where dx != 0 || dy != 0 {
                                let next = clamped(centre &+ SIMD2(dx * radius, dy * radius))
                                if next == centre { continue }
                                let c = cost(next, satd: true)
                                if c < bestCost { bestCost = c; best = next }
                            }
                        }
                    }
                    return (best, bestCost)
                }
            }
        }
    }
}
