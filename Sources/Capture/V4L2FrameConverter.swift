import MediaCore

/// Turns the bytes of one V4L2 capture buffer into a ``PixelBuffer`` (packed rows, no padding).
///
/// Handles the single-planar 4:2:0 formats as the V4L2 specification lays them out
/// (Linux Media Infrastructure userspace API, Part I, "Image Formats": `V4L2_PIX_FMT_NV12`/`NV21`,
/// "YUV 4:2:0 semi-planar", chroma rows `bytesperline` apart; `V4L2_PIX_FMT_YUV420`/`YVU420`, "planar",
/// chroma rows `bytesperline / 2` apart) and packed 4:2:2 `V4L2_PIX_FMT_YUYV` (Y0 Cb Y1 Cr), which becomes NV12
/// with each chroma sample the rounded mean of the two rows it covers.
enum V4L2FrameConverter {
    /// Converts one buffer.
    /// - Parameters:
    ///   - bytes: the buffer's used bytes (`bytesused`).
    ///   - fourCC: the negotiated pixel format (NV12, NV21, YU12, YV12 or YUYV).
    ///   - width: the negotiated width.
    ///   - height: the negotiated height.
    ///   - bytesPerLine: the negotiated `bytesperline` of the first plane.
    /// - Returns: the picture, or `nil` if the buffer is shorter than the format needs or the format is not one
    ///   of the five.
    static func pixelBuffer(from bytes: UnsafeRawBufferPointer, fourCC: UInt32, width: Int, height: Int,
                            bytesPerLine: Int) -> PixelBuffer? {
        guard width > 0, height > 0, bytesPerLine >= width, let source = bytes.baseAddress else { return nil }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let source8 = source.assumingMemoryBound(to: UInt8.self)
        switch fourCC {
        case nv12, nv21:
            let chromaStart = bytesPerLine * height
            guard bytesPerLine >= 2 * chromaWidth,
                  bytes.count >= chromaStart + bytesPerLine * (chromaHeight - 1) + 2 * chromaWidth else { return nil }
            var picture = PixelBuffer(width: width, height: height, format: fourCC == nv12 ? .nv12 : .nv21)
            copyRows(into: &picture.planes[0], from: source8, stride: bytesPerLine)
            copyRows(into: &picture.planes[1], from: source8 + chromaStart, stride: bytesPerLine)
            return picture
        case yu12, yv12:
            let chromaStride = bytesPerLine / 2
            let firstChroma = bytesPerLine * height
            let secondChroma = firstChroma + chromaStride * chromaHeight
            guard chromaStride >= chromaWidth,
                  bytes.count >= secondChroma + chromaStride * (chromaHeight - 1) + chromaWidth else { return nil }
            var picture = PixelBuffer(width: width, height: height, format: fourCC == yu12 ? .i420 : .yv12)
            copyRows(into: &picture.planes[0], from: source8, stride: bytesPerLine)
            copyRows(into: &picture.planes[1], from: source8 + firstChroma, stride: chromaStride)
            copyRows(into: &picture.planes[2], from: source8 + secondChroma, stride: chromaStride)
            return picture
        case yuyv:
            guard bytesPerLine >= 4 * chromaWidth,
                  bytes.count >= bytesPerLine * (height - 1) + 4 * chromaWidth else { return nil }
            return nv12(fromYUYV: source8, width: width, height: height, bytesPerLine: bytesPerLine)
        default:
            return nil
        }
    }

    /// Converts packed YUYV 4:2:2 to NV12: luma copied, each chroma pair the rounded mean of rows `2y` and `2y + 1`
    /// (the last row alone when the height is odd). The caller has checked the source is long enough.
    private static func nv12(fromYUYV source: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerLine: Int) -> PixelBuffer {
        var picture = PixelBuffer(width: width, height: height, format: .nv12)
        let chromaWidth = picture.chromaWidth, chromaHeight = picture.chromaHeight
        let lumaStride = picture.planes[0].bytesPerRow
        picture.planes[0].bytes.withUnsafeMutableBufferPointer { luma in
            guard let destination = luma.baseAddress else { return }
            for row in 0..<height {
                let line = source + row * bytesPerLine
                let out = destination + row * lumaStride
                for column in 0..<width { out[column] = line[2 * column] }
            }
        }
        let chromaStride = picture.planes[1].bytesPerRow
        picture.planes[1].bytes.withUnsafeMutableBufferPointer { chroma in
            guard let destination = chroma.baseAddress else { return }
            for row in 0..<chromaHeight {
                let upper = source + 2 * row * bytesPerLine
                let lower = 2 * row + 1 < height ? upper + bytesPerLine : upper
                let out = destination + row * chromaStride
                for pair in 0..<chromaWidth {
                    let u = (UInt16(upper[4 * pair + 1]) + UInt16(lower[4 * pair + 1]) + 1) / 2
                    let v = (UInt16(upper[4 * pair + 3]) + UInt16(lower[4 * pair + 3]) + 1) / 2
                    out[2 * pair] = UInt8(truncatingIfNeeded: u)
                    out[2 * pair + 1] = UInt8(truncatingIfNeeded: v)
                }
            }
        }
        return picture
    }

    /// Copies `plane.rowCount` rows of `plane.rowLength` bytes, `stride` apart in the source, into the plane.
    private static func copyRows(into plane: inout PixelBuffer.Plane, from source: UnsafePointer<UInt8>, stride: Int) {
        let rows = plane.rowCount, length = plane.rowLength, destinationStride = plane.bytesPerRow
        plane.bytes.withUnsafeMutableBufferPointer { destination in
            guard let base = destination.baseAddress else { return }
            for row in 0..<rows {
                (base + row * destinationStride).update(from: source + row * stride, count: length)
            }
        }
    }

    /// `V4L2_PIX_FMT_NV12`.
    static let nv12 = fourCC("NV12")
    /// `V4L2_PIX_FMT_NV21`.
    static let nv21 = fourCC("NV21")
    /// `V4L2_PIX_FMT_YUV420` ("YU12", I420).
    static let yu12 = fourCC("YU12")
    /// `V4L2_PIX_FMT_YVU420` ("YV12").
    static let yv12 = fourCC("YV12")
    /// `V4L2_PIX_FMT_YUYV`.
    static let yuyv = fourCC("YUYV")

    /// A FourCC code from four ASCII characters, first character in the low byte (`v4l2_fourcc`).
    /// - Parameter text: four characters, for example "NV12".
    /// - Returns: the code.
    static func fourCC(_ text: String) -> UInt32 {
        text.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// A FourCC code as text, for messages: "NV12"; unprintable bytes become '?'.
    /// - Parameter code: the code.
    /// - Returns: four characters.
    static func fourCCText(_ code: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }
        return String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
