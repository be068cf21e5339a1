// streamkit-benchmark kernels: the native H.264 encoder's pixel kernels, reference against fast, on the
// same random planes in one run (thread CPU time, best of N rounds). Prints each pair and the ratio.
import NativeH264Kernels

/// A random 8-bit plane, deterministic (SplitMix64 steps), `stride` wider than `width`.
private func randomPlane(width: Int, height: Int, stride: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    var bytes = [UInt8](repeating: 0, count: stride * height)
    for i in bytes.indices {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        // A smooth-ish picture: a gradient plus noise, so filters take their usual branches.
        bytes[i] = UInt8(truncatingIfNeeded: (i % stride) / 3 + (i / stride) / 2 + Int((z ^ (z >> 31)) % 24))
    }
    return bytes
}

/// Times `reference` and `fast` (each running `operations` kernel calls) and prints the ratio.
private func compare(_ name: String, operations: Int, rounds: Int, reference: () -> Void, fast: () -> Void) {
    let slow = best(rounds, clock: threadCPUTime, reference)
    let quick = best(rounds, clock: threadCPUTime, fast)
    let pad = String(repeating: " ", count: max(0, 26 - name.count))
    let nsSlow = slow / Double(operations) * 1e9, nsFast = quick / Double(operations) * 1e9
    print("\(name)\(pad) reference \(String(format: "%9.1f", nsSlow)) ns   fast \(String(format: "%8.1f", nsFast)) ns   fast is \(String(format: "%6.1f", slow / quick))x")
}

/// Runs every kernel pair.
/// - Parameters:
///   - operations: kernel calls per timed round.
///   - rounds: best of how many rounds.
func benchmarkKernels(operations: Int, rounds: Int) {
    let width = 320, height = 240, stride = 336
    var current = randomPlane(width: width, height: height, stride: stride, seed: 1)
    let previous = randomPlane(width: width, height: height, stride: stride, seed: 2)
    var output = [UInt8](repeating: 0, count: 256)
    var positions = [(Int, Int)]()
    var state: UInt64 = 7
    for _ in 0..<1024 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        positions.append((Int(state >> 33) % (width - 40) + 20, Int(state >> 13) % (height - 40) + 20))
    }
    print("native H.264 kernels, \(operations) calls per round, best of \(rounds) (thread CPU time)")
    current.withUnsafeMutableBufferPointer { cur in
        previous.withUnsafeBufferPointer { prev in
            output.withUnsafeMutableBufferPointer { out in
                let a = UnsafePointer(cur.baseAddress!), b = prev.baseAddress!, o = out.baseAddress!
                let view = PlaneView(base: b, width: width, height: height, stride: stride)
                for size in BlockSize.allCases {
                    compare("SAD \(size)", operations: operations, rounds: rounds, reference: {
                        for i in 0..<operations { let (x, y) = positions[i & 1023]; sink &+= SAD.reference(size, a + y * stride + x, stride: stride, b + (y + 1) * stride + x - 1, stride: stride) }
                    }, fast: {
                        for i in 0..<operations { let (x, y) = positions[i & 1023]; sink &+= SAD.fast(size, a + y * stride + x, stride: stride, b + (y + 1) * stride + x - 1, stride: stride) }
                    })
                }
                for size in [BlockSize.w16h16, .w8h8, .w4h4] {
                    compare("SATD \(size)", operations: operations, rounds: rounds, reference: {
                        for i in 0..<operations { let (x, y) = positions[i & 1023]; sink &+= SATD.reference(size, a + y * stride + x, stride: stride, b + y * stride + x, stride: stride) }
                    }, fast: {
                        for i in 0..<operations { let (x, y) = positions[i & 1023]; sink &+= SATD.fast(size, a + y * stride + x, stride: stride, b + y * stride + x, stride: stride) }
                    })
                }
                for (label, fx, fy) in [("full", 0, 0), ("half b", 2, 0), ("quarter e", 1, 1), ("centre j", 2, 2), ("quarter f", 2, 1)] {
                    compare("luma MC 16x16 \(label)", operations: operations / 4, rounds: rounds, reference: {
                        for i in 0..<(operations / 4) { let (x, y) = positions[i & 1023]; LumaInterpolation.reference(view, quarterX: x * 4 + fx, quarterY: y * 4 + fy, size: .w16h16, into: o, stride: 16); sink &+= Int(o[5]) }
                    }, fast: {
                        for i in 0..<(operations / 4) { let (x, y) = positions[i & 1023]; LumaInterpolation.fast(view, quarterX: x * 4 + fx, quarterY: y * 4 + fy, size: .w16h16, into: o, stride: 16); sink &+= Int(o[5]) }
                    })
                }
                compare("luma MC 16x16 at the edge", operations: operations / 4, rounds: rounds, reference: {
                    for i in 0..<(operations / 4) { LumaInterpolation.reference(view, quarterX: -9 - (i & 15), quarterY: 5, size: .w16h16, into: o, stride: 16); sink &+= Int(o[5]) }
                }, fast: {
                    for i in 0..<(operations / 4) { LumaInterpolation.fast(view, quarterX: -9 - (i & 15), quarterY: 5, size: .w16h16, into: o, stride: 16); sink &+= Int(o[5]) }
                })
                compare("chroma MC 8x8", operations: operations, rounds: rounds, reference: {
                    for i in 0..<operations { let (x, y) = positions[i & 1023]; ChromaInterpolation.reference(view, eighthX: x * 8 + 3, eighthY: y * 8 + 5, width: 8, height: 8, into: o, stride: 8); sink &+= Int(o[5]) }
                }, fast: {
                    for i in 0..<operations { let (x, y) = positions[i & 1023]; ChromaInterpolation.fast(view, eighthX: x * 8 + 3, eighthY: y * 8 + 5, width: 8, height: 8, into: o, stride: 8); sink &+= Int(o[5]) }
                })
                // Each call starts from the same input (copied into place for the in-place fast versions).
                let residual = (0..<16).map { Int32($0 * 37 % 255) - 128 }
                let coefficients = (0..<16).map { Int32($0 * 311 % 2000) - 1000 }
                var block = coefficients
                compare("forward 4x4 transform", operations: operations, rounds: rounds, reference: {
                    for _ in 0..<operations { let f = Transform4x4.forwardReference(residual); sink &+= Int(f[3]) }
                }, fast: {
                    residual.withUnsafeBufferPointer { r in block.withUnsafeMutableBufferPointer { p in
                        for _ in 0..<operations { p.baseAddress!.update(from: r.baseAddress!, count: 16); Transform4x4.forward(p.baseAddress!); sink &+= Int(p[3]) }
                    } }
                })
                compare("inverse 4x4 transform", operations: operations, rounds: rounds, reference: {
                    for _ in 0..<operations { let r = Transform4x4.inverseReference(coefficients); sink &+= Int(r[3]) }
                }, fast: {
                    coefficients.withUnsafeBufferPointer { c in block.withUnsafeMutableBufferPointer { p in
                        for _ in 0..<operations { p.baseAddress!.update(from: c.baseAddress!, count: 16); Transform4x4.inverse(p.baseAddress!); sink &+= Int(p[3]) }
                    } }
                })
                let levels = (0..<16).map { Int32($0 % 7) - 3 }
                compare("quantise 4x4 (QP 26)", operations: operations, rounds: rounds, reference: {
                    for _ in 0..<operations { let q = Quantisation.quantiseReference(coefficients, qP: 26, kind: .intra, skippingDC: false); sink &+= Int(q[1]) }
                }, fast: {
                    coefficients.withUnsafeBufferPointer { c in block.withUnsafeMutableBufferPointer { p in
                        for _ in 0..<operations { p.baseAddress!.update(from: c.baseAddress!, count: 16); sink &+= Quantisation.quantise(p.baseAddress!, qP: 26, kind: .intra, skippingDC: false) }
                    } }
                })
                compare("dequantise 4x4 (QP 26)", operations: operations, rounds: rounds, reference: {
                    for _ in 0..<operations { let d = Quantisation.dequantiseReference(levels, qP: 26, keepingDC: false); sink &+= Int(d[1]) }
                }, fast: {
                    levels.withUnsafeBufferPointer { c in block.withUnsafeMutableBufferPointer { p in
                        for _ in 0..<operations { p.baseAddress!.update(from: c.baseAddress!, count: 16); Quantisation.dequantise(p.baseAddress!, qP: 26, keepingDC: false); sink &+= Int(p[1]) }
                    } }
                })
                compare("luma DC inverse (QP 30)", operations: operations, rounds: rounds, reference: {
                    for _ in 0..<operations { let d = DCTransforms.inverseLumaDCReference(levels, qP: 30); sink &+= Int(d[1]) }
                }, fast: {
                    levels.withUnsafeBufferPointer { c in block.withUnsafeMutableBufferPointer { p in
                        for _ in 0..<operations { p.baseAddress!.update(from: c.baseAddress!, count: 16); DCTransforms.inverseLumaDC(p.baseAddress!, qP: 30); sink &+= Int(p[1]) }
                    } }
                })
                let reconView = PlaneView(base: a, width: width, height: height, stride: stride)
                for mode in Intra16x16Mode.allCases {
                    compare("intra 16x16 \(mode)", operations: operations / 4, rounds: rounds, reference: {
                        for i in 0..<(operations / 4) { let (x, y) = positions[i & 1023]; Intra16x16Prediction.reference(mode, plane: reconView, x: x, y: y, neighbours: .all, into: o, stride: 16); sink &+= Int(o[17]) }
                    }, fast: {
                        for i in 0..<(operations / 4) { let (x, y) = positions[i & 1023]; Intra16x16Prediction.fast(mode, plane: reconView, x: x, y: y, neighbours: .all, into: o, stride: 16); sink &+= Int(o[17]) }
                    })
                }
                for mode in [IntraChromaMode.dc, .plane] {
                    compare("intra chroma \(mode)", operations: operations, rounds: rounds, reference: {
                        for i in 0..<operations { let (x, y) = positions[i & 1023]; IntraChromaPrediction.reference(mode, plane: reconView, x: x, y: y, neighbours: .all, into: o, stride: 8); sink &+= Int(o[9]) }
                    }, fast: {
                        for i in 0..<operations { let (x, y) = positions[i & 1023]; IntraChromaPrediction.fast(mode, plane: reconView, x: x, y: y, neighbours: .all, into: o, stride: 8); sink &+= Int(o[9]) }
                    })
                }
                for mode in [Intra4x4Mode.dc, .diagonalDownLeft, .horizontalDown] {
                    compare("intra 4x4 \(mode)", operations: operations, rounds: rounds, reference: {
                        for i in 0..<operations { let (x, y) = positions[i & 1023]; Intra4x4Prediction.reference(mode, plane: reconView, x: x, y: y, neighbours: .all, into: o, stride: 4); sink &+= Int(o[5]) }
                    }, fast: {
                        for i in 0..<operations { let (x, y) = positions[i & 1023]; Intra4x4Prediction.fast(mode, plane: reconView, x: x, y: y, neighbours: .all, into: o, stride: 4); sink &+= Int(o[5]) }
                    })
                }
                let plane = MutablePlaneView(base: cur.baseAddress!, width: width, height: height, stride: stride)
                let thresholds = DeblockingThresholds(qPp: 36, qPq: 38)
                for (strength, isChroma) in [(2, false), (4, false), (2, true), (4, true)] {
                    for direction in [EdgeDirection.vertical, .horizontal] {
                        compare("deblock bS \(strength) \(isChroma ? "chroma" : "luma") \(direction == .vertical ? "vert" : "horiz")", operations: operations / 4, rounds: rounds, reference: {
                            for i in 0..<(operations / 4) { let (x, y) = positions[i & 1023]; DeblockingFilter.filterReference(plane, x: x, y: y, direction: direction, length: 16, strength: strength, thresholds: thresholds, isChroma: isChroma) }
                        }, fast: {
                            for i in 0..<(operations / 4) { let (x, y) = positions[i & 1023]; DeblockingFilter.filter(plane, x: x, y: y, direction: direction, length: 16, strength: strength, thresholds: thresholds, isChroma: isChroma) }
                        })
                    }
                }
            }
        }
    }
}
