import MediaCore

/// Whether later frames may reference an encoded frame, read from its NAL unit headers.
enum FrameDependency {
    /// `true` unless every slice says no other picture references it: H.264 `nal_ref_idc` 0 on
    /// slices (ITU-T H.264 §7.4.1), H.265 sub-layer non-reference VCL types TRAIL_N … RSV_VCL_N14 (the
    /// even types below 16, ITU-T H.265 §7.4.2.2; StreamKit's encoders write one temporal sub-layer).
    /// - Parameter frame: the frame, in AVCC form.
    /// - Returns: whether later frames may reference it.
    static func isReferenced(_ frame: EncodedFrame) -> Bool {
        if frame.isKeyFrame { return true }
        var sawSlice = false
        for range in frame.nalUnitRanges {
            let header = frame.data[range.lowerBound]
            switch frame.codec {
            case .hevc:
                let type = (header >> 1) & 0x3F
                guard type < 32 else { continue }
                sawSlice = true
                if type >= 16 || type % 2 == 1 { return true }
            default:
                let type = header & 0x1F
                guard (1...5).contains(type) else { continue }
                sawSlice = true
                if header & 0x60 != 0 { return true }
            }
        }
        return !sawSlice
    }
}
