/// The sample-moving loops behind ``PixelBuffer/converted(to:rowAlignment:)``.
///
/// Each kernel clamps its row count and row length to what both planes really hold, so a plane
/// whose public fields were altered after creation cannot make it read or write out of bounds.
enum PixelLayoutKernels {
    /// The number of whole rows of `length` bytes a plane's storage holds, capped at `rows`.
    @inline(__always)
    static func usableRows(_ plane: PixelBuffer.Plane, length: Int, rows: Int) -> Int {
        guard length > 0, plane.bytesPerRow >= length else { return 0 }
        let count = plane.bytes.count
        guard count >= length else { return 0 }
        return Swift.min(rows, Swift.max(0, plane.rowCount), (count - length) / plane.bytesPerRow + 1)
    }

    /// Copies `rows` rows of `length` bytes.
    static func copyRows(from source: PixelBuffer.Plane, into destination: inout PixelBuffer.Plane, length: Int, rows: Int) {
        let length = Swift.min(length, source.rowLength, destination.rowLength)
        let rows = Swift.min(usableRows(source, length: length, rows: rows),
                             usableRows(destination, length: length, rows: rows))
        guard rows > 0 else { return }
        let sourceStride = source.bytesPerRow, destinationStride = destination.bytesPerRow
        source.bytes.withUnsafeBufferPointer { input in
            destination.bytes.withUnsafeMutableBufferPointer { output in
                guard let from = input.baseAddress, let to = output.baseAddress else { return }
                if sourceStride == length && destinationStride == length {
                    to.update(from: from, count: length &* rows)
                    return
                }
                for row in 0..<rows {
                    (to + row &* destinationStride).update(from: from + row &* sourceStride, count: length)
                }
            }
        }
    }

    /// Builds a plane of pairs from two planes: `out[2x] = first[x]`, `out[2x+1] = second[x]`.
    static func interleave(first: PixelBuffer.Plane, second: PixelBuffer.Plane, into destination: inout PixelBuffer.Plane,
                           width: Int, rows: Int) {
        let width = Swift.min(width, first.rowLength, second.rowLength, destination.rowLength / 2)
        let rows = Swift.min(usableRows(first, length: width, rows: rows), usableRows(second, length: width, rows: rows),
                             usableRows(destination, length: 2 &* width, rows: rows))
        guard rows > 0 else { return }
        let firstStride = first.bytesPerRow, secondStride = second.bytesPerRow, outStride = destination.bytesPerRow
        first.bytes.withUnsafeBufferPointer { a in
            second.bytes.withUnsafeBufferPointer { b in
                destination.bytes.withUnsafeMutableBufferPointer { out in
                    guard let pa = a.baseAddress, let pb = b.baseAddress, let po = out.baseAddress else { return }
                    for row in 0..<rows {
                        let ra = pa + row &* firstStride, rb = pb + row &* secondStride, ro = po + row &* outStride
                        var x = 0
                        while x < width {
                            ro[x &* 2] = ra[x]
                            ro[x &* 2 &+ 1] = rb[x]
                            x &+= 1
                        }
                    }
                }
            }
        }
    }

    /// Splits a plane of pairs into two planes: `first[x] = in[2x]`, `second[x] = in[2x+1]`.
    static func deinterleave(_ source: PixelBuffer.Plane, first: inout PixelBuffer.Plane, second: inout PixelBuffer.Plane,
                             width: Int, rows: Int) {
        let width = Swift.min(width, source.rowLength / 2, first.rowLength, second.rowLength)
        let rows = Swift.min(usableRows(source, length: 2 &* width, rows: rows), usableRows(first, length: width, rows: rows),
                             usableRows(second, length: width, rows: rows))
        guard rows > 0 else { return }
        let inStride = source.bytesPerRow, firstStride = first.bytesPerRow, secondStride = second.bytesPerRow
        source.bytes.withUnsafeBufferPointer { input in
            first.bytes.withUnsafeMutableBufferPointer { a in
                second.bytes.withUnsafeMutableBufferPointer { b in
                    guard let pi = input.baseAddress, let pa = a.baseAddress, let pb = b.baseAddress else { return }
                    for row in 0..<rows {
                        let ri = pi + row &* inStride, ra = pa + row &* firstStride, rb = pb + row &* secondStride
                        var x = 0
                        while x < width {
                            ra[x] = ri[x &* 2]
                            rb[x] = ri[x &* 2 &+ 1]
                            x &+= 1
                        }
                    }
                }
            }
        }
    }

    /// Copies a plane of pairs, swapping the two samples of each pair (NV12 ⇄ NV21).
    static func swapPairs(_ source: PixelBuffer.Plane, into destination: inout PixelBuffer.Plane, width: Int, rows: Int) {
        let width = Swift.min(width, source.rowLength / 2, destination.rowLength / 2)
        let rows = Swift.min(usableRows(source, length: 2 &* width, rows: rows),
                             usableRows(destination, length: 2 &* width, rows: rows))
        guard rows > 0 else { return }
        let inStride = source.bytesPerRow, outStride = destination.bytesPerRow
        source.bytes.withUnsafeBufferPointer { input in
            destination.bytes.withUnsafeMutableBufferPointer { output in
                guard let pi = input.baseAddress, let po = output.baseAddress else { return }
                for row in 0..<rows {
                    let ri = pi + row &* inStride, ro = po + row &* outStride
                    var x = 0
                    while x < width {
                        ro[x &* 2] = ri[x &* 2 &+ 1]
                        ro[x &* 2 &+ 1] = ri[x &* 2]
                        x &+= 1
                    }
                }
            }
        }
    }
}
