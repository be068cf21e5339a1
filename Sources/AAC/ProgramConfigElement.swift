import Bitstream

/// `program_config_element()` (ISO/IEC 14496-3 §4.4.1.1 Table 4.2, §4.5.1.2; ISO/IEC 13818-7 §8.4):
/// the loudspeaker layout of a stream whose `channelConfiguration` is 0, carried in
/// `GASpecificConfig` or at the start of a raw data block.
public struct ProgramConfigElement: Hashable, Sendable {
    /// A front, side or back channel element: a single channel element or a channel pair element.
    public struct ChannelElement: Hashable, Sendable {
        /// `*_element_is_cpe`: a channel pair (two channels) rather than a single channel.
        public var isChannelPair: Bool
        /// `*_element_tag_select`: the `element_instance_tag` of the element, 0…15.
        public var tag: UInt8

        /// Creates a channel element.
        /// - Parameters:
        ///   - isChannelPair: `true` for a channel pair element.
        ///   - tag: its instance tag, 0…15.
        public init(isChannelPair: Bool, tag: UInt8) {
            self.isChannelPair = isChannelPair
            self.tag = tag
        }
    }

    /// A coupling channel element.
    public struct CouplingElement: Hashable, Sendable {
        /// `cc_element_is_ind_sw`: an independently switched coupling channel.
        public var isIndependentlySwitched: Bool
        /// `valid_cc_element_tag_select`, 0…15.
        public var tag: UInt8

        /// Creates a coupling element.
        /// - Parameters:
        ///   - isIndependentlySwitched: `cc_element_is_ind_sw`.
        ///   - tag: its instance tag, 0…15.
        public init(isIndependentlySwitched: Bool, tag: UInt8) {
            self.isIndependentlySwitched = isIndependentlySwitched
            self.tag = tag
        }
    }

    /// `matrix_mixdown_idx` and `pseudo_surround_enable`.
    public struct MatrixMixdown: Hashable, Sendable {
        /// `matrix_mixdown_idx`, 0…3.
        public var index: UInt8
        /// `pseudo_surround_enable`.
        public var pseudoSurroundEnabled: Bool

        /// Creates a matrix mixdown description.
        /// - Parameters:
        ///   - index: `matrix_mixdown_idx`, 0…3.
        ///   - pseudoSurroundEnabled: `pseudo_surround_enable`.
        public init(index: UInt8, pseudoSurroundEnabled: Bool) {
            self.index = index
            self.pseudoSurroundEnabled = pseudoSurroundEnabled
        }
    }

    /// `element_instance_tag`, 0…15.
    public var elementInstanceTag: UInt8
    /// `object_type`: the two-bit profile (object type − 1).
    public var objectType: UInt8
    /// `sampling_frequency_index`.
    public var samplingFrequencyIndex: SamplingFrequencyIndex
    /// The front channel elements, at most 15.
    public var frontElements: [ChannelElement]
    /// The side channel elements, at most 15.
    public var sideElements: [ChannelElement]
    /// The back channel elements, at most 15.
    public var backElements: [ChannelElement]
    /// `lfe_element_tag_select` of each LFE element, at most 3.
    public var lfeElementTags: [UInt8]
    /// `assoc_data_element_tag_select` of each associated data element, at most 7.
    public var associatedDataElementTags: [UInt8]
    /// The coupling channel elements, at most 15.
    public var couplingElements: [CouplingElement]
    /// `mono_mixdown_element_number`, when `mono_mixdown_present`.
    public var monoMixdownElementNumber: UInt8?
    /// `stereo_mixdown_element_number`, when `stereo_mixdown_present`.
    public var stereoMixdownElementNumber: UInt8?
    /// The matrix mixdown, when `matrix_mixdown_idx_present`.
    public var matrixMixdown: MatrixMixdown?
    /// `comment_field_data`, at most 255 bytes (later editions carry height information here).
    public var comment: [UInt8]

    /// Creates a program config element.
    /// - Parameters:
    ///   - elementInstanceTag: `element_instance_tag`, 0…15.
    ///   - objectType: `object_type`, 0…3 (object type − 1).
    ///   - samplingFrequencyIndex: `sampling_frequency_index`.
    ///   - frontElements: front channel elements.
    ///   - sideElements: side channel elements.
    ///   - backElements: back channel elements.
    ///   - lfeElementTags: LFE element tags.
    ///   - associatedDataElementTags: associated data element tags.
    ///   - couplingElements: coupling channel elements.
    ///   - monoMixdownElementNumber: mono mixdown element, if present.
    ///   - stereoMixdownElementNumber: stereo mixdown element, if present.
    ///   - matrixMixdown: matrix mixdown, if present.
    ///   - comment: comment bytes.
    public init(elementInstanceTag: UInt8 = 0, objectType: UInt8 = 1, samplingFrequencyIndex: SamplingFrequencyIndex,
                frontElements: [ChannelElement] = [], sideElements: [ChannelElement] = [],
                backElements: [ChannelElement] = [], lfeElementTags: [UInt8] = [],
                associatedDataElementTags: [UInt8] = [], couplingElements: [CouplingElement] = [],
                monoMixdownElementNumber: UInt8? = nil, stereoMixdownElementNumber: UInt8? = nil,
                matrixMixdown: MatrixMixdown? = nil, comment: [UInt8] = []) {
        self.elementInstanceTag = elementInstanceTag
        self.objectType = objectType
        self.samplingFrequencyIndex = samplingFrequencyIndex
        self.frontElements = frontElements
        self.sideElements = sideElements
        self.backElements = backElements
        self.lfeElementTags = lfeElementTags
        self.associatedDataElementTags = associatedDataElementTags
        self.couplingElements = couplingElements
        self.monoMixdownElementNumber = monoMixdownElementNumber
        self.stereoMixdownElementNumber = stereoMixdownElementNumber
        self.matrixMixdown = matrixMixdown
        self.comment = comment
    }

    /// The number of output channels: one per single channel element, two per channel pair, one per
    /// LFE (coupling channels are not output channels).
    public var channelCount: Int {
        (frontElements + sideElements + backElements).reduce(0) { $0 + ($1.isChannelPair ? 2 : 1) } + lfeElementTags.count
    }

    /// Parses `program_config_element()` (ISO/IEC 14496-3 Table 4.2; ISO/IEC 13818-7 §8.4, Table 25).
    /// - Parameters:
    ///   - reader: positioned at `element_instance_tag`; left after the last comment byte.
    ///   - alignmentOrigin: the bit position `byte_alignment()` counts from: the start of the
    ///     `AudioSpecificConfig` or of the raw data block (0 when the reader starts there).
    /// - Returns: the element.
    /// - Throws: ``AudioSpecificConfigError`` naming the element that is missing or reserved.
    public static func parse(from reader: inout BitReader, alignmentOrigin: Int = 0) throws(AudioSpecificConfigError) -> ProgramConfigElement {
        let tag = UInt8(try reader.configBits(4, "element_instance_tag"))
        let objectType = UInt8(try reader.configBits(2, "object_type"))
        let indexStart = reader.bitPosition
        let indexValue = UInt8(try reader.configBits(4, "sampling_frequency_index"))
        guard let index = SamplingFrequencyIndex(rawValue: indexValue) else {
            throw AudioSpecificConfigError(field: "sampling_frequency_index", bitOffset: indexStart, reason: .reserved(value: Int64(indexValue)))
        }
        let frontCount = Int(try reader.configBits(4, "num_front_channel_elements"))
        let sideCount = Int(try reader.configBits(4, "num_side_channel_elements"))
        let backCount = Int(try reader.configBits(4, "num_back_channel_elements"))
        let lfeCount = Int(try reader.configBits(2, "num_lfe_channel_elements"))
        let assocCount = Int(try reader.configBits(3, "num_assoc_data_elements"))
        let couplingCount = Int(try reader.configBits(4, "num_valid_cc_elements"))
        var element = ProgramConfigElement(elementInstanceTag: tag, objectType: objectType, samplingFrequencyIndex: index)
        if try reader.configFlag("mono_mixdown_present") {
            element.monoMixdownElementNumber = UInt8(try reader.configBits(4, "mono_mixdown_element_number"))
        }
        if try reader.configFlag("stereo_mixdown_present") {
            element.stereoMixdownElementNumber = UInt8(try reader.configBits(4, "stereo_mixdown_element_number"))
        }
        if try reader.configFlag("matrix_mixdown_idx_present") {
            let mixdown = UInt8(try reader.configBits(2, "matrix_mixdown_idx"))
            element.matrixMixdown = MatrixMixdown(index: mixdown, pseudoSurroundEnabled: try reader.configFlag("pseudo_surround_enable"))
        }
        func channelElements(_ count: Int, _ cpeField: StaticString, _ tagField: StaticString) throws(AudioSpecificConfigError) -> [ChannelElement] {
            var elements: [ChannelElement] = []
            for _ in 0..<count {
                let pair = try reader.configFlag(cpeField)
                elements.append(ChannelElement(isChannelPair: pair, tag: UInt8(try reader.configBits(4, tagField))))
            }
            return elements
        }
        element.frontElements = try channelElements(frontCount, "front_element_is_cpe", "front_element_tag_select")
        element.sideElements = try channelElements(sideCount, "side_element_is_cpe", "side_element_tag_select")
        element.backElements = try channelElements(backCount, "back_element_is_cpe", "back_element_tag_select")
        for _ in 0..<lfeCount { element.lfeElementTags.append(UInt8(try reader.configBits(4, "lfe_element_tag_select"))) }
        for _ in 0..<assocCount { element.associatedDataElementTags.append(UInt8(try reader.configBits(4, "assoc_data_element_tag_select"))) }
        for _ in 0..<couplingCount {
            let switched = try reader.configFlag("cc_element_is_ind_sw")
            element.couplingElements.append(CouplingElement(isIndependentlySwitched: switched,
                                                            tag: UInt8(try reader.configBits(4, "valid_cc_element_tag_select"))))
        }
        while (reader.bitPosition - alignmentOrigin) & 7 != 0 {
            _ = try reader.configBits(1, "byte_alignment")
        }
        let commentCount = Int(try reader.configBits(8, "comment_field_bytes"))
        element.comment.reserveCapacity(commentCount)
        for _ in 0..<commentCount { element.comment.append(UInt8(try reader.configBits(8, "comment_field_data"))) }
        return element
    }

    /// Writes `program_config_element()`.
    /// - Parameters:
    ///   - writer: the destination.
    ///   - alignmentOrigin: the bit position `byte_alignment()` counts from.
    /// - Throws: ``AudioSpecificConfigError`` when a count or a tag does not fit its field.
    public func write(to writer: inout BitWriter, alignmentOrigin: Int = 0) throws(AudioSpecificConfigError) {
        let start = writer.bitCount
        func check(_ value: Int, _ limit: Int, _ field: String) throws(AudioSpecificConfigError) {
            guard value >= 0, value <= limit else {
                throw AudioSpecificConfigError(field: field, bitOffset: start, reason: .outOfRange(value: Int64(value), allowed: 0...Int64(limit)))
            }
        }
        try check(Int(elementInstanceTag), 15, "element_instance_tag")
        try check(Int(objectType), 3, "object_type")
        try check(frontElements.count, 15, "num_front_channel_elements")
        try check(sideElements.count, 15, "num_side_channel_elements")
        try check(backElements.count, 15, "num_back_channel_elements")
        try check(lfeElementTags.count, 3, "num_lfe_channel_elements")
        try check(associatedDataElementTags.count, 7, "num_assoc_data_elements")
        try check(couplingElements.count, 15, "num_valid_cc_elements")
        try check(Int(monoMixdownElementNumber ?? 0), 15, "mono_mixdown_element_number")
        try check(Int(stereoMixdownElementNumber ?? 0), 15, "stereo_mixdown_element_number")
        try check(Int(matrixMixdown?.index ?? 0), 3, "matrix_mixdown_idx")
        for element in frontElements + sideElements + backElements { try check(Int(element.tag), 15, "element_tag_select") }
        for tag in lfeElementTags { try check(Int(tag), 15, "lfe_element_tag_select") }
        for tag in associatedDataElementTags { try check(Int(tag), 15, "assoc_data_element_tag_select") }
        for element in couplingElements { try check(Int(element.tag), 15, "valid_cc_element_tag_select") }
        try check(comment.count, 255, "comment_field_bytes")

        writer.u(4, UInt32(elementInstanceTag))
        writer.u(2, UInt32(objectType))
        writer.u(4, UInt32(samplingFrequencyIndex.rawValue))
        writer.u(4, UInt32(frontElements.count))
        writer.u(4, UInt32(sideElements.count))
        writer.u(4, UInt32(backElements.count))
        writer.u(2, UInt32(lfeElementTags.count))
        writer.u(3, UInt32(associatedDataElementTags.count))
        writer.u(4, UInt32(couplingElements.count))
        writer.flag(monoMixdownElementNumber != nil)
        if let monoMixdownElementNumber { writer.u(4, UInt32(monoMixdownElementNumber)) }
        writer.flag(stereoMixdownElementNumber != nil)
        if let stereoMixdownElementNumber { writer.u(4, UInt32(stereoMixdownElementNumber)) }
        writer.flag(matrixMixdown != nil)
        if let matrixMixdown {
            writer.u(2, UInt32(matrixMixdown.index))
            writer.flag(matrixMixdown.pseudoSurroundEnabled)
        }
        for element in frontElements + sideElements + backElements {
            writer.flag(element.isChannelPair)
            writer.u(4, UInt32(element.tag))
        }
        for tag in lfeElementTags { writer.u(4, UInt32(tag)) }
        for tag in associatedDataElementTags { writer.u(4, UInt32(tag)) }
        for element in couplingElements {
            writer.flag(element.isIndependentlySwitched)
            writer.u(4, UInt32(element.tag))
        }
        while (writer.bitCount - alignmentOrigin) & 7 != 0 { writer.u(1, 0) }
        writer.u(8, UInt32(comment.count))
        for byte in comment { writer.u(8, UInt32(byte)) }
    }
}
