/// Chroma sample interpolation of motion compensation (§8.4.2.2.2): eighth-sample bilinear weights
/// of the four surrounding samples, ((8−xF)(8−yF)A + xF(8−yF)B + (8−xF)yF·C + xF·yF·D + 32) >> 6
/// (8-266), with coordinates clamped into the picture (8-262 … 8-265).
public enum ChromaInterpolation {
    /// The plain version: each sample as the clause writes it.
    /// - Parameters:
    ///   - plane: the reference picture's Cb or Cr plane.
    ///   - eighthX: the block's left edge in eighth chroma samples (xIntC·8 + xFracC; any value).
    ///   - eighthY: the block's top edge in eighth chroma samples.
    ///   - width: block width in chroma samples (2, 4 or 8).
    ///   - height: block height in chroma samples (2, 4 or 8).
    ///   - destination: where the predicted block goes.
    ///   - destinationStride: samples from one row of `destination` to the next.
    public static func reference(_ plane: PlaneView, eighthX: Int, eighthY: Int, width: Int, height: Int,
                                 into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) {
        let xF = eighthX & 7, yF = eighthY & 7
        let x0 = eighthX >> 3, y0 = eighthY >> 3
        for y in 0..<height {
            for x in 0..<width {
                let a = Int(plane.clampedSample(x: x0 + x, y: y0 + y))
                let b = Int(plane.clampedSample(x: x0 + x + 1, y: y0 + y))
                let c = Int(plane.clampedSample(x: x0 + x, y: y0 + y + 1))
                let d = Int(plane.clampedSample(x: x0 + x + 1, y: y0 + y + 1))
                let value = ((8 - xF) * (8 - yF) * a + xF * (8 - yF) * b + (8 - xF) * yF * c + xF * yF * d + 32) >> 6
                destination[y * destinationStride + x] = UInt8(value)
            }
        }
    }

    /// The fast version: the four weights computed once, the rows read through pointers (in place when
    /// the (w+1)x(h+1) window is inside the picture, from a clamped stack copy otherwise). No heap
    /// allocation.
    /// - Parameters:
    ///   - plane: the reference picture's Cb or Cr plane.
    ///   - eighthX: the block's left edge in eighth chroma samples.
    ///   - eighthY: the block's top edge in eighth chroma samples.
    ///   - width: block width in chroma samples (2, 4 or 8).
    ///   - height: block height in chroma samples (2, 4 or 8).
    ///   - destination: where the predicted block goes.
    ///   - destinationStride: samples from one row of `destination` to the next.
    public static func fast(_ plane: PlaneView, eighthX: Int, eighthY: Int, width: Int, height: Int,
                            into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) {
        precondition(width <= 8 && height <= 8, "ChromaInterpolation: block larger than 8x8")
        let xF = UInt16(eighthX & 7), yF = UInt16(eighthY & 7)
        let x0 = eighthX >> 3, y0 = eighthY >> 3
        let wa = (8 - xF) * (8 - yF), wb = xF * (8 - yF), wc = (8 - xF) * yF, wd = xF * yF
        // One copy of the row loop per block width (8, 4, 2 across 4:2:0 partitions), so that each is unrolled and
        // vectorised with its width a constant.
        @inline(__always) func rows(_ src: UnsafePointer<UInt8>, _ s: Int, _ width: Int) {
            for y in 0..<height {
                let r0 = src + y &* s, r1 = r0 + s, o = destination + y &* destinationStride
                for x in 0..<width {
                    let v = wa &* UInt16(r0[x]) &+ wb &* UInt16(r0[x &+ 1]) &+ wc &* UInt16(r1[x]) &+ wd &* UInt16(r1[x &+ 1])
                    o[x] = UInt8(truncatingIfNeeded: (v &+ 32) >> 6)
                }
            }
        }
        // Width 8 (a 16-wide luma partition) in SIMD lanes: the scalar loop stays scalar where the compiler cannot
        // prove the destination apart from the source.
        @inline(__always) func rows8(_ src: UnsafePointer<UInt8>, _ s: Int) {
            let a = SIMD8<UInt16>(repeating: wa), b = SIMD8<UInt16>(repeating: wb)
            let c = SIMD8<UInt16>(repeating: wc), d = SIMD8<UInt16>(repeating: wd)
            @inline(__always) func load(_ p: UnsafePointer<UInt8>) -> SIMD8<UInt16> {
                SIMD8<UInt16>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self))
            }
            var top = load(src), topRight = load(src + 1)
            for y in 0..<height {
                let next = src + (y &+ 1) &* s
                let bottom = load(next), bottomRight = load(next + 1)
                let v = a &* top &+ b &* topRight &+ c &* bottom &+ d &* bottomRight &+ SIMD8<UInt16>(repeating: 32)
                UnsafeMutableRawPointer(destination + y &* destinationStride)
                    .storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: v &>> 6), as: SIMD8<UInt8>.self)
                top = bottom; topRight = bottomRight
            }
        }
        func run(_ src: UnsafePointer<UInt8>, _ s: Int) {
            switch width {
            case 8: rows8(src, s)
            case 4: rows(src, s, 4)
            case 2: rows(src, s, 2)
            default: rows(src, s, width)
            }
        }
        if x0 >= 0, y0 >= 0, x0 + width + 1 <= plane.width, y0 + height + 1 <= plane.height {
            run(plane.base + y0 * plane.stride + x0, plane.stride)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 9 * 9) { window in
            let origin = window.baseAddress!
            for y in 0...height {
                for x in 0...width { origin[y * 9 + x] = plane.clampedSample(x: x0 + x, y: y0 + y) }
            }
            run(UnsafePointer(origin), 9)
        }
    }
}
