import MediaCore

extension NativeH264Decoder {
    /// Stores a decoded frame in the DPB, first outputting frames by the bumping process (§C.4.5.3)
    /// while the DPB is full.
    func store(_ picture: DecoderPicture) {
        removeUnusedFrames()
        while dpb.count >= dpbSize {
            if !picture.isReference && picture.isNeededForOutput
                && !dpb.contains(where: { $0.isNeededForOutput && $0.pictureOrderCount < picture.pictureOrderCount }) {
                // §C.4.5.2: a non-reference picture that would be output next goes straight out.
                output(picture)
                picture.isNeededForOutput = false
                release(picture)
                return
            }
            guard bump() else { break }
        }
        dpb.append(picture)
    }

    /// Outputs the waiting frame with the smallest picture order count and frees its buffer when it is
    /// no longer a reference. Returns false when no frame waits.
    @discardableResult
    func bump() -> Bool {
        guard let next = dpb.filter(\.isNeededForOutput).min(by: { $0.pictureOrderCount < $1.pictureOrderCount }) else { return false }
        output(next)
        next.isNeededForOutput = false
        removeUnusedFrames()
        return true
    }

    /// Outputs every waiting frame in output order and empties the DPB of non-reference frames.
    func flushAll() {
        while bump() {}
        removeUnusedFrames()
    }

    /// Drops frames that are neither references nor waiting for output.
    func removeUnusedFrames() {
        var index = 0
        while index < dpb.count {
            let picture = dpb[index]
            if !picture.isReference && !picture.isNeededForOutput {
                dpb.remove(at: index)
                release(picture)
            } else {
                index += 1
            }
        }
    }

    /// Keeps a frame buffer for reuse (a few at most).
    func release(_ picture: DecoderPicture) {
        if freePictures.count < 4 && picture.widthInMbs == widthInMbs && picture.heightInMbs == heightInMbs {
            freePictures.append(picture)
        }
    }

    /// Crops a frame (§7.4.2.1.1 frame cropping) into a pixel buffer of the output layout and queues it.
    func output(_ picture: DecoderPicture) {
        guard !picture.isNonExisting, let sps = activeSPS else { return }
        let crop = sps.frameCropping ?? .init()
        let left = sps.cropUnitX * Int(crop.left), top = sps.cropUnitY * Int(crop.top)
        let width = max(min(sps.width, picture.width - left), 2), height = max(min(sps.height, picture.height - top), 2)
        var planes: [PixelBuffer.Plane] = []
        // Each plane copied once into uninitialised storage (no zero fill first).
        @inline(__always) func cropped(_ source: UnsafeMutablePointer<UInt8>, stride: Int, left: Int, top: Int, width: Int, height: Int) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: width * height) { out, count in
                if width == stride && left == 0 {
                    out.baseAddress!.initialize(from: source + top * stride, count: width * height)
                } else {
                    for row in 0..<height { (out.baseAddress! + row * width).initialize(from: source + (top + row) * stride + left, count: width) }
                }
                count = width * height
            }
        }
        let luma = cropped(picture.luma, stride: picture.width, left: left, top: top, width: width, height: height)
        planes.append(PixelBuffer.Plane(bytes: luma, bytesPerRow: width, rowLength: width, rowCount: height))
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        let cb: [UInt8], cr: [UInt8]
        if picture.chromaWidth > 0 {
            let cl = left / 2, ct = top / 2
            cb = cropped(picture.cb, stride: picture.chromaWidth, left: cl, top: ct, width: cw, height: ch)
            cr = cropped(picture.cr, stride: picture.chromaWidth, left: cl, top: ct, width: cw, height: ch)
        } else {
            cb = [UInt8](repeating: 128, count: cw * ch)
            cr = cb
        }
        switch outputFormat {
        case .i420:
            planes += [.init(bytes: cb, bytesPerRow: cw, rowLength: cw, rowCount: ch), .init(bytes: cr, bytesPerRow: cw, rowLength: cw, rowCount: ch)]
        case .yv12:
            planes += [.init(bytes: cr, bytesPerRow: cw, rowLength: cw, rowCount: ch), .init(bytes: cb, bytesPerRow: cw, rowLength: cw, rowCount: ch)]
        case .nv12, .nv21:
            var interleaved = [UInt8](repeating: 0, count: 2 * cw * ch)
            let (first, second) = outputFormat == .nv12 ? (cb, cr) : (cr, cb)
            for i in 0..<(cw * ch) {
                interleaved[2 * i] = first[i]
                interleaved[2 * i + 1] = second[i]
            }
            planes.append(.init(bytes: interleaved, bytesPerRow: 2 * cw, rowLength: 2 * cw, rowCount: ch))
        }
        guard let buffer = try? PixelBuffer(width: width, height: height, format: outputFormat, planes: planes) else { return }
        pendingOutput.append(NativeH264DecodedFrame(picture: buffer, timestamp: picture.timestamp, pictureOrderCount: picture.pictureOrderCount,
                                                    concealedMacroblocks: picture.concealedMacroblocks, problems: picture.problems,
                                                    fieldOrder: fieldOrder(of: picture)))
    }
}
