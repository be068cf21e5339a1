extension EncodedFrame {
    /// Whether later frames may reference this one, read from its NAL unit headers: `true` unless every
    /// slice says no other picture references it — H.264 `nal_ref_idc` 0 on slices (ITU-T H.264 §7.4.1),
    /// H.265 sub-layer non-reference VCL types TRAIL_N … RSV_VCL_N14 (the even types below 16, ITU-T H.265
    /// §7.4.2.2; StreamKit's encoders write one temporal sub-layer). A key frame is always referenced; a
    /// frame without a slice counts as referenced (nothing proves otherwise).
    ///
    /// What may be dropped from a late live stream without breaking what follows: a frame for which this
    /// is `false`.
    public var isReferenced: Bool {
        if isKeyFrame { return true }
        var sawSlice = false
        for range in nalUnitRanges where !range.isEmpty {
            let header = data[range.lowerBound]
            switch codec {
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
