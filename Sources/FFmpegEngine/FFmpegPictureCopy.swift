#if FFmpeg
import CFFmpeg
import CodecInterface
import MediaCore

/// Copies 8-bit 4:2:0 pictures between ``PixelBuffer`` (any of its four layouts, any strides) and
/// `AVFrame`s in `yuv420p` or `nv12`, row by row over raw pointers. No scaling, no colour conversion:
/// the samples come out exactly as they went in.
enum FFmpegPictureCopy {
    /// Read-only chroma samples: two planes, or one plane of interleaved pairs.
    enum Chroma {
        /// Separate U and V planes.
        case planar(u: UnsafePointer<UInt8>, uStride: Int, v: UnsafePointer<UInt8>, vStride: Int)
        /// One plane of pairs; `uFirst` is `true` for U,V (NV12) and `false` for V,U (NV21).
        case interleaved(UnsafePointer<UInt8>, stride: Int, uFirst: Bool)
    }

    /// Writable chroma samples, the mirror of ``Chroma``.
    enum MutableChroma {
        /// Separate U and V planes.
        case planar(u: UnsafeMutablePointer<UInt8>, uStride: Int, v: UnsafeMutablePointer<UInt8>, vStride: Int)
        /// One plane of pairs; `uFirst` is `true` for U,V (NV12) and `false` for V,U (NV21).
        case interleaved(UnsafeMutablePointer<UInt8>, stride: Int, uFirst: Bool)
    }

    // MARK: - PixelBuffer → AVFrame

    /// Checks that a picture's planes really hold the samples its size and layout promise (its fields
    /// are mutable, so this is checked before any pointer walks them).
    /// - Parameters:
    ///   - picture: the picture.
    ///   - width: the width the encoder expects.
    ///   - height: the height the encoder expects.
    /// - Throws: ``CodecError/inputMismatch(_:)`` naming the plane that is too small.
    static func validate(_ picture: PixelBuffer, width: Int, height: Int) throws(CodecError) {
        guard picture.width == width, picture.height == height else {
            throw .inputMismatch("picture is \(picture.width)x\(picture.height), encoder is \(width)x\(height)")
        }
        guard picture.planes.count == picture.format.planeCount else {
            throw .inputMismatch("\(picture.format) needs \(picture.format.planeCount) planes, got \(picture.planes.count)")
        }
        let chromaRow = picture.format.planeCount == 3 ? picture.chromaWidth : 2 * picture.chromaWidth
        for (index, plane) in picture.planes.enumerated() {
            let rowLength = index == 0 ? width : chromaRow
            let rows = index == 0 ? height : picture.chromaHeight
            let (before, overflow) = plane.bytesPerRow.multipliedReportingOverflow(by: rows - 1)
            guard plane.rowLength >= rowLength, plane.rowCount >= rows, plane.bytesPerRow >= rowLength, !overflow,
                  plane.bytes.count - rowLength >= before else {
                throw .inputMismatch("plane \(index) of the \(picture.format) picture is too small for \(width)x\(height)")
            }
        }
    }

    /// Copies a picture into a writable frame of the encoder's format.
    /// - Parameters:
    ///   - picture: the source, already checked with ``validate(_:width:height:)``.
    ///   - frame: a frame with buffers of the picture's size in `yuv420p` or `nv12`.
    /// - Throws: ``CodecError/engineFailure(_:)`` if the frame has no usable buffers.
    static func copy(_ picture: PixelBuffer, into frame: UnsafeMutablePointer<AVFrame>) throws(CodecError) {
        let isNV12 = frame.pointee.format == AV_PIX_FMT_NV12.rawValue
        // The planes as plain values (no arrays: nothing is allocated per picture).
        func plane(_ index: Int32) throws(CodecError) -> (pointer: UnsafeMutablePointer<UInt8>, stride: Int) {
            let stride = Int(streamkit_frame_linesize(frame, index))
            guard let pointer = streamkit_frame_data(frame, index), stride > 0 else {
                throw .engineFailure("the encoder's frame has no plane \(index)")
            }
            return (pointer, stride)
        }
        let luma = try plane(0)
        let first = try plane(1)
        let destination: MutableChroma
        if isNV12 {
            destination = .interleaved(first.pointer, stride: first.stride, uFirst: true)
        } else {
            let second = try plane(2)
            destination = .planar(u: first.pointer, uStride: first.stride, v: second.pointer, vStride: second.stride)
        }
        withPlanes(of: picture) { source, sourceStride, chroma in
            copyRows(from: source, stride: sourceStride, to: luma.pointer, stride: luma.stride,
                     length: picture.width, rows: picture.height)
            copyChroma(from: chroma, to: destination, width: picture.chromaWidth, height: picture.chromaHeight)
        }
    }

    /// Calls `body` with pointers to a picture's luma and chroma samples.
    private static func withPlanes(of picture: PixelBuffer,
                                   _ body: (UnsafePointer<UInt8>, Int, Chroma) -> Void) {
        let planes = picture.planes
        planes[0].bytes.withUnsafeBufferPointer { luma in
            planes[1].bytes.withUnsafeBufferPointer { first in
                guard let lumaBase = luma.baseAddress, let firstBase = first.baseAddress else { return }
                switch picture.format {
                case .nv12, .nv21:
                    body(lumaBase, planes[0].bytesPerRow,
                         .interleaved(firstBase, stride: planes[1].bytesPerRow, uFirst: picture.format == .nv12))
                case .i420, .yv12:
                    planes[2].bytes.withUnsafeBufferPointer { second in
                        guard let secondBase = second.baseAddress else { return }
                        let swap = picture.format == .yv12
                        body(lumaBase, planes[0].bytesPerRow,
                             .planar(u: swap ? secondBase : firstBase,
                                     uStride: swap ? planes[2].bytesPerRow : planes[1].bytesPerRow,
                                     v: swap ? firstBase : secondBase,
                                     vStride: swap ? planes[1].bytesPerRow : planes[2].bytesPerRow))
                    }
                }
            }
        }
    }

    // MARK: - AVFrame → PixelBuffer

    /// Copies a decoded 8-bit 4:2:0 frame (`yuv420p`, `yuvj420p`, `nv12` or `nv21`) into a new picture.
    /// - Parameters:
    ///   - frame: the decoded frame (already cropped by libavcodec).
    ///   - format: the layout to produce.
    /// - Returns: the picture, packed (stride = row length).
    /// - Throws: ``CodecError/engineFailure(_:)`` for a frame in another pixel format or without planes.
    static func picture(from frame: UnsafePointer<AVFrame>, format: PixelFormat) throws(CodecError) -> PixelBuffer {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        guard width > 0, height > 0 else { throw .engineFailure("decoded frame has size \(width)x\(height)") }
        let pixelFormat = frame.pointee.format
        let source: Chroma
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        func plane(_ index: Int32, minimumStride: Int) throws(CodecError) -> (UnsafePointer<UInt8>, Int) {
            let stride = Int(streamkit_frame_linesize(frame, index))
            guard let pointer = streamkit_frame_data(frame, index), stride >= minimumStride else {
                throw .engineFailure("decoded frame has no usable plane \(index)")
            }
            return (UnsafePointer(pointer), stride)
        }
        let (luma, lumaStride) = try plane(0, minimumStride: width)
        switch pixelFormat {
        case AV_PIX_FMT_YUV420P.rawValue, AV_PIX_FMT_YUVJ420P.rawValue:
            let (u, uStride) = try plane(1, minimumStride: chromaWidth)
            let (v, vStride) = try plane(2, minimumStride: chromaWidth)
            source = .planar(u: u, uStride: uStride, v: v, vStride: vStride)
        case AV_PIX_FMT_NV12.rawValue, AV_PIX_FMT_NV21.rawValue:
            let (uv, stride) = try plane(1, minimumStride: 2 * chromaWidth)
            source = .interleaved(uv, stride: stride, uFirst: pixelFormat == AV_PIX_FMT_NV12.rawValue)
        default:
            throw .engineFailure("decoded pixel format \(pixelFormatName(pixelFormat)) is not 8-bit 4:2:0")
        }
        let range: ColorRange = frame.pointee.color_range == AVCOL_RANGE_JPEG || pixelFormat == AV_PIX_FMT_YUVJ420P.rawValue
            ? .full : .video
        let lumaPlane = makePlane(rowLength: width, rows: height) { destination in
            copyRows(from: luma, stride: lumaStride, to: destination, stride: width, length: width, rows: height)
        }
        var planes = [lumaPlane]
        switch format {
        case .i420, .yv12:
            var u = [UInt8](), v = [UInt8]()
            let count = chromaWidth * chromaHeight
            u = [UInt8](unsafeUninitializedCapacity: count) { uBuffer, uCount in
                v = [UInt8](unsafeUninitializedCapacity: count) { vBuffer, vCount in
                    if let uBase = uBuffer.baseAddress, let vBase = vBuffer.baseAddress {
                        copyChroma(from: source, to: .planar(u: uBase, uStride: chromaWidth, v: vBase, vStride: chromaWidth),
                                   width: chromaWidth, height: chromaHeight)
                    }
                    vCount = count
                }
                uCount = count
            }
            let uPlane = PixelBuffer.Plane(bytes: u, bytesPerRow: chromaWidth, rowLength: chromaWidth, rowCount: chromaHeight)
            let vPlane = PixelBuffer.Plane(bytes: v, bytesPerRow: chromaWidth, rowLength: chromaWidth, rowCount: chromaHeight)
            planes += format == .i420 ? [uPlane, vPlane] : [vPlane, uPlane]
        case .nv12, .nv21:
            planes.append(makePlane(rowLength: 2 * chromaWidth, rows: chromaHeight) { destination in
                copyChroma(from: source, to: .interleaved(destination, stride: 2 * chromaWidth, uFirst: format == .nv12),
                           width: chromaWidth, height: chromaHeight)
            })
        }
        do {
            return try PixelBuffer(width: width, height: height, format: format, range: range, planes: planes)
        } catch {
            throw .engineFailure("cannot build the decoded picture: \(error)")
        }
    }

    /// FFmpeg's name for a pixel format number.
    /// - Parameter format: an `AVPixelFormat` raw value.
    /// - Returns: for example `yuv420p10le`.
    static func pixelFormatName(_ format: Int32) -> String {
        guard let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: format)) else { return "pixel format \(format)" }
        return String(cString: name)
    }

    private static func makePlane(rowLength: Int, rows: Int,
                                  _ fill: (UnsafeMutablePointer<UInt8>) -> Void) -> PixelBuffer.Plane {
        let count = rowLength * rows
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress { fill(base) }
            initialized = count
        }
        return PixelBuffer.Plane(bytes: bytes, bytesPerRow: rowLength, rowLength: rowLength, rowCount: rows)
    }

    // MARK: - Kernels

    /// Copies `rows` rows of `length` bytes between two strided planes.
    @inline(__always)
    static func copyRows(from source: UnsafePointer<UInt8>, stride sourceStride: Int,
                         to destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int,
                         length: Int, rows: Int) {
        for row in 0..<rows {
            (destination + row * destinationStride).update(from: source + row * sourceStride, count: length)
        }
    }

    /// Copies `width` × `height` chroma pairs between any two chroma layouts.
    static func copyChroma(from source: Chroma, to destination: MutableChroma, width: Int, height: Int) {
        switch (source, destination) {
        case let (.planar(u, uStride, v, vStride), .planar(du, duStride, dv, dvStride)):
            copyRows(from: u, stride: uStride, to: du, stride: duStride, length: width, rows: height)
            copyRows(from: v, stride: vStride, to: dv, stride: dvStride, length: width, rows: height)
        case let (.planar(u, uStride, v, vStride), .interleaved(d, dStride, uFirst)):
            let uOffset = uFirst ? 0 : 1
            for row in 0..<height {
                let uRow = u + row * uStride, vRow = v + row * vStride, dRow = d + row * dStride
                for x in 0..<width {
                    dRow[2 &* x &+ uOffset] = uRow[x]
                    dRow[2 &* x &+ 1 &- uOffset] = vRow[x]
                }
            }
        case let (.interleaved(s, sStride, uFirst), .planar(du, duStride, dv, dvStride)):
            let uOffset = uFirst ? 0 : 1
            for row in 0..<height {
                let sRow = s + row * sStride, uRow = du + row * duStride, vRow = dv + row * dvStride
                for x in 0..<width {
                    uRow[x] = sRow[2 &* x &+ uOffset]
                    vRow[x] = sRow[2 &* x &+ 1 &- uOffset]
                }
            }
        case let (.interleaved(s, sStride, sourceUFirst), .interleaved(d, dStride, destinationUFirst)):
            if sourceUFirst == destinationUFirst {
                copyRows(from: s, stride: sStride, to: d, stride: dStride, length: 2 * width, rows: height)
            } else {
                for row in 0..<height {
                    let sRow = s + row * sStride, dRow = d + row * dStride
                    for x in 0..<width {
                        dRow[2 &* x] = sRow[2 &* x &+ 1]
                        dRow[2 &* x &+ 1] = sRow[2 &* x]
                    }
                }
            }
        }
    }
}
#endif
