import NativeH264Kernels

/// The three planes of a picture padded to whole macroblocks (4:2:0, 8-bit), owned by the encoder.
struct EncoderPicture {
    /// Luma width and height in samples (multiples of 16).
    let width: Int, height: Int
    var luma: [UInt8]
    var cb: [UInt8]
    var cr: [UInt8]
    /// The luma prepared for motion search once the picture is final and becomes a reference
    /// (``preparedAsReference(motionVectors:recycling:)``), nil before.
    private(set) var referencePlanes: LumaReferencePlanes?
    /// mvL0 of each 4x4 luma block (raster over the picture, zero for intra) once the picture is a
    /// reference: the co-located predictors of the next picture's motion search. Empty before.
    private(set) var motionVectors: [SIMD2<Int32>] = []

    init(widthInMacroblocks: Int, heightInMacroblocks: Int) {
        width = widthInMacroblocks * 16
        height = heightInMacroblocks * 16
        luma = [UInt8](repeating: 0, count: width * height)
        cb = [UInt8](repeating: 0, count: width * height / 4)
        cr = cb
    }

    /// The luma padded and with its half-sample planes (§8.4.2.2.1), built from the luma as it is now.
    /// - Parameters:
    ///   - recycled: the storage of planes no longer read by anyone, built over (see
    ///     ``LumaReferencePlanes/init(_:recycling:threads:)``).
    ///   - threads: the most threads the planes are computed on.
    func makeReferencePlanes(recycling recycled: ReferencePlaneStorage? = nil, threads: Int = 1) -> LumaReferencePlanes {
        luma.withUnsafeBufferPointer {
            LumaReferencePlanes(PlaneView(base: $0.baseAddress!, width: width, height: height, stride: width), recycling: recycled,
                                threads: threads)
        }
    }

    /// The same picture with ``referencePlanes`` built and its motion kept: call it once the
    /// reconstruction is final (deblocked), before P pictures predict from it.
    /// - Parameters:
    ///   - motionVectors: the picture's mvL0 per 4x4 luma block.
    ///   - recycled: the storage of retired planes that nothing reads any more, to build in.
    ///   - threads: the most threads the planes are computed on.
    func preparedAsReference(motionVectors: [SIMD2<Int32>], recycling recycled: ReferencePlaneStorage? = nil,
                             threads: Int = 1) -> EncoderPicture {
        var picture = self
        picture.referencePlanes = makeReferencePlanes(recycling: recycled, threads: threads)
        picture.motionVectors = motionVectors
        return picture
    }

    var chromaWidth: Int { width / 2 }
    var chromaHeight: Int { height / 2 }

    /// Copies `plane` (visible `visibleWidth` x `visibleHeight`) into `destination`, repeating the
    /// last column and row into the padding.
    static func fill(_ destination: inout [UInt8], width: Int, height: Int, from bytes: [UInt8], bytesPerRow: Int,
                     visibleWidth: Int, visibleHeight: Int) {
        bytes.withUnsafeBufferPointer { source in
            destination.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let sy = min(y, visibleHeight - 1)
                    let row = out.baseAddress! + y * width
                    (row).update(from: source.baseAddress! + sy * bytesPerRow, count: visibleWidth)
                    if visibleWidth < width { (row + visibleWidth).update(repeating: row[visibleWidth - 1], count: width - visibleWidth) }
                }
            }
        }
    }
}
