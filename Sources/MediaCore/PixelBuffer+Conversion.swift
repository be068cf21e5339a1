// Layout conversions between the four 4:2:0 layouts (I420, YV12, NV12, NV21) and raw packed frames.
//
// Every conversion only moves samples, so it is lossless and exact. The inner loops run over raw
// pointers with wrapping arithmetic so that LLVM can vectorise them (see SWIFT-ON-LINUX.md,
// "Fast Swift kernels"); the geometry is checked once per plane, before the loops.

extension PixelBuffer {
    /// The same picture in another layout: samples are moved, never changed.
    ///
    /// Luma rows are copied; chroma is copied, swapped (I420 ⇄ YV12, NV12 ⇄ NV21), interleaved
    /// (planar → bi-planar) or de-interleaved (bi-planar → planar). Converting to the buffer's own
    /// layout returns a copy with the requested row alignment.
    ///
    /// A plane whose geometry was altered after creation so that it holds fewer rows or bytes than the
    /// picture needs is read as far as it goes; the missing samples stay black (no trap).
    /// - Parameters:
    ///   - format: the layout to produce.
    ///   - rowAlignment: each row's stride in the result is rounded up to a multiple of this
    ///     (1 = packed rows; values below 1 count as 1).
    /// - Returns: a new buffer of the same size and range in `format`.
    public func converted(to format: PixelFormat, rowAlignment: Int = 1) -> PixelBuffer {
        var output = PixelBuffer(width: width, height: height, format: format, range: range,
                                 rowAlignment: Swift.max(1, rowAlignment))
        guard let luma = planes.first, !output.planes.isEmpty else { return output }
        PixelLayoutKernels.copyRows(from: luma, into: &output.planes[0], length: width, rows: height)
        guard let chroma = chromaSource() else { return output }
        let cw = chromaWidth, ch = chromaHeight
        switch (chroma, format) {
        case let (.planar(u, v), .i420), let (.planar(v, u), .yv12):
            guard output.planes.count == 3 else { return output }
            PixelLayoutKernels.copyRows(from: u, into: &output.planes[1], length: cw, rows: ch)
            PixelLayoutKernels.copyRows(from: v, into: &output.planes[2], length: cw, rows: ch)
        case let (.planar(u, v), .nv12), let (.planar(v, u), .nv21):
            guard output.planes.count == 2 else { return output }
            PixelLayoutKernels.interleave(first: u, second: v, into: &output.planes[1], width: cw, rows: ch)
        case let (.interleaved(plane, uFirst), .i420), let (.interleaved(plane, uFirst), .yv12):
            guard output.planes.count == 3 else { return output }
            // The plane that receives the first sample of each pair: U for NV12→I420 and NV21→YV12.
            let firstIndex = (uFirst == (format == .i420)) ? 1 : 2
            let secondIndex = 3 - firstIndex
            var first = output.planes[firstIndex], second = output.planes[secondIndex]
            output.planes[firstIndex].bytes = []  // release the array so the kernel writes without a copy
            output.planes[secondIndex].bytes = []
            PixelLayoutKernels.deinterleave(plane, first: &first, second: &second, width: cw, rows: ch)
            output.planes[firstIndex] = first
            output.planes[secondIndex] = second
        case let (.interleaved(plane, uFirst), .nv12), let (.interleaved(plane, uFirst), .nv21):
            guard output.planes.count == 2 else { return output }
            if uFirst == (format == .nv12) {
                PixelLayoutKernels.copyRows(from: plane, into: &output.planes[1], length: 2 * cw, rows: ch)
            } else {
                PixelLayoutKernels.swapPairs(plane, into: &output.planes[1], width: cw, rows: ch)
            }
        }
        return output
    }

    /// Creates a picture from one raw frame: the planes without row padding, concatenated in the
    /// layout's order (what `ffmpeg -f rawvideo -pix_fmt yuv420p|nv12|nv21` writes; YV12 is Y, V, U).
    /// - Parameters:
    ///   - bytes: exactly ``packedByteCount`` bytes: `width * height` luma bytes, then the chroma.
    ///   - width: the width in luma samples (≥ 1).
    ///   - height: the height in luma samples (≥ 1).
    ///   - format: the layout of `bytes`.
    ///   - range: video or full range.
    /// - Throws: ``PixelBufferError/invalidSize(width:height:)`` for a size that is not positive or whose
    ///   frame would not fit in memory, ``PixelBufferError/wrongByteCount(expected:actual:)`` when
    ///   `bytes` is not exactly one frame.
    public init(packed bytes: [UInt8], width: Int, height: Int, format: PixelFormat,
                range: ColorRange = .video) throws(PixelBufferError) {
        guard let layout = PackedFrameLayout(width: width, height: height, format: format) else {
            throw .invalidSize(width: width, height: height)
        }
        guard bytes.count == layout.frameByteCount else {
            throw .wrongByteCount(expected: layout.frameByteCount, actual: bytes.count)
        }
        var planes: [Plane] = []
        planes.reserveCapacity(layout.planes.count)
        var offset = 0
        for shape in layout.planes {
            let count = shape.rowLength * shape.rowCount
            planes.append(Plane(bytes: Array(bytes[offset..<(offset + count)]), bytesPerRow: shape.rowLength,
                                rowLength: shape.rowLength, rowCount: shape.rowCount))
            offset += count
        }
        try self.init(width: width, height: height, format: format, range: range, planes: planes)
    }

    /// Where the chroma samples of this buffer are.
    private enum ChromaSource {
        /// Two planes, U then V.
        case planar(u: Plane, v: Plane)
        /// One plane of pairs; `uFirst` is `true` for U,V pairs (NV12) and `false` for V,U (NV21).
        case interleaved(Plane, uFirst: Bool)
    }

    private func chromaSource() -> ChromaSource? {
        switch format {
        case .i420:
            guard planes.count >= 3 else { return nil }
            return .planar(u: planes[1], v: planes[2])
        case .yv12:
            guard planes.count >= 3 else { return nil }
            return .planar(u: planes[2], v: planes[1])
        case .nv12:
            guard planes.count >= 2 else { return nil }
            return .interleaved(planes[1], uFirst: true)
        case .nv21:
            guard planes.count >= 2 else { return nil }
            return .interleaved(planes[1], uFirst: false)
        }
    }
}
