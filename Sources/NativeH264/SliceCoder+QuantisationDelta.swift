import Bitstream

extension SliceCoder {
    /// Sets the QPY (and QPC) the next macroblock is coded at: the slice QP plus the macroblock's
    /// adaptive offset from rate control, clamped to 0…51.
    /// - Parameter macroblock: the macroblock's raster index in the picture.
    mutating func selectQuantisation(macroblock: Int) {
        let offset = quantisationOffsets.isEmpty ? 0 : Int(quantisationOffsets[macroblock])
        qp = min(max(sliceQP + offset, 0), 51)
        chromaQP = ChromaQuantisation.chromaQP(lumaQP: qp)
    }

    /// mb_qp_delta se(v) (§7.3.5, §7.4.5): the step from QPY,PRED to this macroblock's QPY, taken the
    /// short way round the wrap of (7-37), QPY = ((QPY,PRED + mb_qp_delta + 52) % 52), so it stays in
    /// −26…+25; QPY,PRED becomes this macroblock's QPY.
    /// - Parameter writer: the slice data.
    mutating func writeQuantisationDelta<Sink: SyntaxBitSink>(to writer: inout Sink) {
        var delta = qp - predictedQP
        if delta > 25 { delta -= 52 } else if delta < -26 { delta += 52 }
        writer.se(Int32(delta))
        predictedQP = qp
    }
}
