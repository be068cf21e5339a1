import MediaCore

extension FormatDescription {
    /// The format an `hvcC` record describes (ISO/IEC 14496-15 §8.3.3.1): its VPSs, SPSs and PPSs as the
    /// parameter sets (in that order, other arrays left out), its NAL unit length size, and the display size,
    /// profile and level of its first SPS (H.265 §7.3.2.2, conformance window applied) — what an MP4
    /// `hvc1`/`hev1` sample entry and an Enhanced RTMP `hvc1` sequence start both carry.
    ///
    /// ```swift
    /// let format = try FormatDescription(hevcConfiguration: try HEVCDecoderConfigurationRecord(bytes: hvcC))
    /// ```
    /// - Parameters:
    ///   - record: the parsed record.
    ///   - width: the width when the record holds no SPS (an `hev1` track that carries them in band); 0 by default.
    ///   - height: the height when the record holds no SPS.
    /// - Throws: ``HEVCError`` when the first SPS does not parse.
    public init(hevcConfiguration record: HEVCDecoderConfigurationRecord, width: Int = 0, height: Int = 0) throws(HEVCError) {
        let sequenceParameterSets = record.nalUnits(ofType: .sps)
        self.init(codec: .hevc, width: width, height: height,
                  profileLevel: ProfileLevel(codec: .hevc, profileNamed: "unknown", level: nil),
                  parameterSets: record.nalUnits(ofType: .vps) + sequenceParameterSets + record.nalUnits(ofType: .pps),
                  nalUnitLengthSize: record.nalUnitLengthSize)
        guard let first = sequenceParameterSets.first else { return }
        let sps = try HEVCSequenceParameterSet(nalUnit: first)
        self.width = sps.width
        self.height = sps.height
        profileLevel = ProfileLevel(codec: .hevc, profileNamed: sps.profileName ?? "unknown", level: sps.levelName)
    }
}
