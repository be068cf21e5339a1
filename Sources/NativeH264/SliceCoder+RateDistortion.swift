import Bitstream
import NativeH264Kernels

/// The candidates of a P macroblock's final decision (``SliceCoder/encodePredictedMacroblock(mbX:mbY:to:)``).
enum PredictedMacroblockChoice {
    /// P_Skip: the skip vector's prediction, no residual.
    case skip
    /// The searched partitions with coded_block_pattern 0 (the residual dropped).
    case interWithoutResidual
    /// An intra macroblock (I_16x16 or I_NxN).
    case intra
}

extension SliceCoder {
    /// λ of the rate-distortion cost J = SSD + λ · bits, in 1/256: 0.85 · 2^((QP − 12) / 3), the
    /// square of the SATD λ (``lambda(qp:)``) scaled as x264 scales its SSD λ, at least 1/256. By QP 0…51.
    static let distortionLambdas: [Int] = (0...51).map { max(1, Int((0.85 * 256 * pow2((Double($0) - 12) / 3)).rounded())) }

    /// J = SSD · 256 + λ · bits (both in 1/256).
    @inline(__always)
    static func rateDistortionCost(distortion: Int, bits: Int, lambda: Int) -> Int {
        distortion << 8 + lambda * bits
    }

    /// The sum of squared differences of a `width`x`height` block.
    @inline(__always)
    static func squaredError(_ a: UnsafePointer<UInt8>, stride aStride: Int, _ b: UnsafePointer<UInt8>, stride bStride: Int,
                             width: Int, height: Int) -> Int {
        var sum = 0
        for y in 0..<height {
            let p = a + y * aStride, q = b + y * bStride
            for x in 0..<width {
                let d = Int(p[x]) - Int(q[x])
                sum &+= d * d
            }
        }
        return sum
    }

    /// SSD of the macroblock's reconstructed luma and chroma samples against the source.
    func reconstructionError(mbX: Int, mbY: Int) -> Int {
        let stride = source.width, chromaStride = source.chromaWidth
        let luma = (mbY * 16) * stride + mbX * 16, chroma = (mbY * 8) * chromaStride + mbX * 8
        var sum = 0
        source.luma.withUnsafeBufferPointer { s in
            reconstruction.luma.withUnsafeBufferPointer { r in
                sum += Self.squaredError(s.baseAddress! + luma, stride: stride, r.baseAddress! + luma, stride: stride, width: 16, height: 16)
            }
        }
        source.cb.withUnsafeBufferPointer { s in
            reconstruction.cb.withUnsafeBufferPointer { r in
                sum += Self.squaredError(s.baseAddress! + chroma, stride: chromaStride, r.baseAddress! + chroma, stride: chromaStride, width: 8, height: 8)
            }
        }
        source.cr.withUnsafeBufferPointer { s in
            reconstruction.cr.withUnsafeBufferPointer { r in
                sum += Self.squaredError(s.baseAddress! + chroma, stride: chromaStride, r.baseAddress! + chroma, stride: chromaStride, width: 8, height: 8)
            }
        }
        return sum
    }

    /// SSD of an inter macroblock's prediction alone (what P_Skip or coded_block_pattern 0 reconstructs)
    /// against the source.
    func predictionError(_ macroblock: InterMacroblock, mbX: Int, mbY: Int) -> Int {
        let stride = source.width, chromaStride = source.chromaWidth
        let luma = (mbY * 16) * stride + mbX * 16, chroma = (mbY * 8) * chromaStride + mbX * 8
        var sum = 0
        source.luma.withUnsafeBufferPointer { s in
            sum += Self.squaredError(s.baseAddress! + luma, stride: stride, macroblock.luma, stride: 16, width: 16, height: 16)
        }
        source.cb.withUnsafeBufferPointer { s in
            sum += Self.squaredError(s.baseAddress! + chroma, stride: chromaStride, macroblock.chroma, stride: 8, width: 8, height: 8)
        }
        source.cr.withUnsafeBufferPointer { s in
            sum += Self.squaredError(s.baseAddress! + chroma, stride: chromaStride, macroblock.chroma + 64, stride: 8, width: 8, height: 8)
        }
        return sum
    }

    /// mb_skip_run, then macroblock_layer( ) of a P_L0 macroblock up to coded_block_pattern (§7.3.4,
    /// §7.3.5): mb_type (Table 7-13), sub_mb_type P_L0_8x8 for P_8x8 (Table 7-17), each partition's
    /// mvd_l0 (ref_idx_l0 absent: one active reference), coded_block_pattern me(v) (Table 9-4).
    func writeInterHeader<Sink: SyntaxBitSink>(shape: PartitionShape, vectors: PartitionVectors, predictors: PartitionVectors, pattern: Int,
                                              to writer: inout Sink) {
        writer.ue(UInt32(skipRun))
        writer.ue(UInt32(shape.rawValue))
        if shape == .quarters { for _ in 0..<4 { writer.ue(0) } }
        for partition in 0..<vectors.count {
            writer.se(vectors[partition].x - predictors[partition].x)
            writer.se(vectors[partition].y - predictors[partition].y)
        }
        writer.ue(UInt32(Self.interCodeNumByCodedBlockPattern[pattern]))
    }

    /// mb_qp_delta and residual( ) of an inter macroblock (§7.3.5, §7.3.5.3), nothing of it when
    /// coded_block_pattern is 0 (the TotalCoeff of its blocks still set to 0).
    mutating func writeInterResidual<Sink: SyntaxBitSink>(_ macroblock: InterMacroblock, mbX: Int, mbY: Int, to writer: inout Sink) {
        if macroblock.codedBlockPattern != 0 { writeQuantisationDelta(to: &writer) }
        writeLuma4x4Residual(mbX: mbX, mbY: mbY, levels: UnsafePointer(macroblock.levels), codedBlockPatternLuma: macroblock.codedBlockPatternLuma,
                             to: &writer)
        writeChromaResidual(mbX: mbX, mbY: mbY, levels: macroblock.chromaLevels, dc: macroblock.chromaDC,
                            pattern: macroblock.codedBlockPatternChroma, to: &writer)
    }

    /// The rate-distortion cost of coding the macroblock intra (the intra coder run with its syntax
    /// elements recorded in ``MacroblockScratch/intraRecorder``, its reconstruction measured); what the
    /// trial left (state and samples) is kept in ``MacroblockScratch/intraSnapshot`` and
    /// ``MacroblockScratch/intraSamples`` for ``adoptIntraTrial(mbX:mbY:address:to:)``, and the coder's
    /// state is put back (``MacroblockScratch/snapshot``, saved by the caller for `address`). The
    /// reconstruction keeps the intra samples.
    mutating func intraTrialCost(mbX: Int, mbY: Int, address: Int, lambda: Int) -> Int {
        scratch.intraRecorder.reset()
        encodeMacroblock(mbX: mbX, mbY: mbY, to: &scratch.intraRecorder)
        let cost = Self.rateDistortionCost(distortion: reconstructionError(mbX: mbX, mbY: mbY), bits: scratch.intraRecorder.bitCount,
                                           lambda: lambda)
        save(macroblock: address, into: &scratch.intraSnapshot)
        copySamples(mbX: mbX, mbY: mbY, into: scratch.intraSamples)
        restore(macroblock: address, from: scratch.snapshot)
        return cost
    }

    /// Makes the intra trial of ``intraTrialCost(mbX:mbY:address:lambda:)`` the macroblock's coding without
    /// coding it again: its state and samples put back, its recorded syntax elements written to `writer`.
    mutating func adoptIntraTrial(mbX: Int, mbY: Int, address: Int, to writer: inout BitWriter) {
        restore(macroblock: address, from: scratch.intraSnapshot)
        copySamples(mbX: mbX, mbY: mbY, from: UnsafePointer(scratch.intraSamples))
        scratch.intraRecorder.replay(into: &writer)
    }

    /// Copies the macroblock's reconstructed samples to `samples` (luma 16x16, stride 16; Cb, Cr 8x8, stride 8).
    func copySamples(mbX: Int, mbY: Int, into samples: UnsafeMutablePointer<UInt8>) {
        let stride = reconstruction.width, chromaStride = reconstruction.chromaWidth
        let luma = (mbY * 16) * stride + mbX * 16, chroma = (mbY * 8) * chromaStride + mbX * 8
        reconstruction.luma.withUnsafeBufferPointer { r in
            for y in 0..<16 { (samples + 16 * y).update(from: r.baseAddress! + luma + y * stride, count: 16) }
        }
        reconstruction.cb.withUnsafeBufferPointer { r in
            for y in 0..<8 { (samples + 256 + 8 * y).update(from: r.baseAddress! + chroma + y * chromaStride, count: 8) }
        }
        reconstruction.cr.withUnsafeBufferPointer { r in
            for y in 0..<8 { (samples + 320 + 8 * y).update(from: r.baseAddress! + chroma + y * chromaStride, count: 8) }
        }
    }

    /// Puts samples copied by ``copySamples(mbX:mbY:into:)`` back into the reconstruction.
    mutating func copySamples(mbX: Int, mbY: Int, from samples: UnsafePointer<UInt8>) {
        let stride = reconstruction.width, chromaStride = reconstruction.chromaWidth
        let luma = (mbY * 16) * stride + mbX * 16, chroma = (mbY * 8) * chromaStride + mbX * 8
        reconstruction.luma.withUnsafeMutableBufferPointer { r in
            for y in 0..<16 { (r.baseAddress! + luma + y * stride).update(from: samples + 16 * y, count: 16) }
        }
        reconstruction.cb.withUnsafeMutableBufferPointer { r in
            for y in 0..<8 { (r.baseAddress! + chroma + y * chromaStride).update(from: samples + 256 + 8 * y, count: 8) }
        }
        reconstruction.cr.withUnsafeMutableBufferPointer { r in
            for y in 0..<8 { (r.baseAddress! + chroma + y * chromaStride).update(from: samples + 320 + 8 * y, count: 8) }
        }
    }
}
