import MediaCore

extension FormatDescription {
    /// The format an `avcC` record describes (ISO/IEC 14496-15 §5.3.3.1): its SPSs then PPSs as the
    /// parameter sets, its NAL unit length size, and the display size, profile and level of its first SPS
    /// (H.264 §7.3.2.1.1, cropping applied) — what an MP4 `avc1`/`avc3` sample entry and an FLV AVC sequence
    /// header both carry.
    ///
    /// ```swift
    /// let format = try FormatDescription(avcConfiguration: try AVCDecoderConfigurationRecord(bytes: avcC))
    /// ```
    /// - Parameters:
    ///   - record: the parsed record.
    ///   - width: the width when the record holds no SPS (an `avc3` track that carries them in band); 0 by default.
    ///   - height: the height when the record holds no SPS.
    /// - Throws: ``H264Error`` when the first SPS does not parse.
    public init(avcConfiguration record: AVCDecoderConfigurationRecord, width: Int = 0, height: Int = 0) throws(H264Error) {
        self.init(codec: .h264, width: width, height: height,
                  profileLevel: ProfileLevel(codec: .h264, profileNamed: "unknown", level: nil),
                  parameterSets: record.sequenceParameterSets + record.pictureParameterSets, nalUnitLengthSize: record.nalUnitLength)
        guard let first = record.sequenceParameterSets.first else { return }
        let sps = try H264SequenceParameterSet(nalUnit: first)
        self.width = sps.width
        self.height = sps.height
        profileLevel = ProfileLevel(codec: .h264, profileNamed: sps.profileName, level: sps.levelName)
    }
}
