import Bitstream

/// `GASpecificConfig()` (ISO/IEC 14496-3 §4.4.1, Table 4.1): the part of `AudioSpecificConfig` for the
/// general audio (AAC family) object types 1–4, 6, 7, 17 and 19–23.
///
/// For AAC LC from an ADTS stream it is three zero bits: 1024-sample frames, no core coder, no extension.
public struct GASpecificConfig: Hashable, Sendable {
    /// The error-resilience flags of `extensionFlag` for ER AAC LC, LTP, scalable and LD (17, 19, 20, 23).
    public struct ResilienceFlags: Hashable, Sendable {
        /// `aacSectionDataResilienceFlag`.
        public var sectionData: Bool
        /// `aacScalefactorDataResilienceFlag`.
        public var scalefactorData: Bool
        /// `aacSpectralDataResilienceFlag`.
        public var spectralData: Bool

        /// Creates the flags.
        /// - Parameters:
        ///   - sectionData: `aacSectionDataResilienceFlag`.
        ///   - scalefactorData: `aacScalefactorDataResilienceFlag`.
        ///   - spectralData: `aacSpectralDataResilienceFlag`.
        public init(sectionData: Bool, scalefactorData: Bool, spectralData: Bool) {
            self.sectionData = sectionData
            self.scalefactorData = scalefactorData
            self.spectralData = spectralData
        }
    }

    /// What `extensionFlag` = 1 adds.
    public struct Extension: Hashable, Sendable {
        /// `numOfSubFrame` (5 bits), for ER BSAC (22) only.
        public var numberOfSubFrames: UInt8?
        /// `layer_length` (11 bits), for ER BSAC (22) only.
        public var layerLength: UInt16?
        /// The resilience flags, for object types 17, 19, 20 and 23 only.
        public var resilienceFlags: ResilienceFlags?
        /// `extensionFlag3` (reserved for version 3; nothing follows it yet).
        public var extensionFlag3: Bool

        /// Creates the extension part.
        /// - Parameters:
        ///   - numberOfSubFrames: `numOfSubFrame`, ER BSAC only.
        ///   - layerLength: `layer_length`, ER BSAC only.
        ///   - resilienceFlags: ER AAC LC/LTP/scalable/LD only.
        ///   - extensionFlag3: `extensionFlag3`.
        public init(numberOfSubFrames: UInt8? = nil, layerLength: UInt16? = nil,
                    resilienceFlags: ResilienceFlags? = nil, extensionFlag3: Bool = false) {
            self.numberOfSubFrames = numberOfSubFrames
            self.layerLength = layerLength
            self.resilienceFlags = resilienceFlags
            self.extensionFlag3 = extensionFlag3
        }
    }

    /// `frameLengthFlag`: 960-sample frames (480 for LD) instead of 1024 (512 for LD).
    public var frameLengthFlag: Bool
    /// `coreCoderDelay` (14 bits) when `dependsOnCoreCoder` is set, otherwise `nil`.
    public var coreCoderDelay: UInt16?
    /// The program config element; present exactly when `channelConfiguration` is 0.
    public var programConfigElement: ProgramConfigElement?
    /// `layerNr` (3 bits), for AAC scalable (6) and ER AAC scalable (20) only.
    public var layerNumber: UInt8?
    /// The extension, when `extensionFlag` is set.
    public var `extension`: Extension?

    /// Creates a configuration; the defaults give the three zero bits of plain AAC LC.
    /// - Parameters:
    ///   - frameLengthFlag: `frameLengthFlag`.
    ///   - coreCoderDelay: `coreCoderDelay`, or `nil` for `dependsOnCoreCoder` = 0.
    ///   - programConfigElement: required when `channelConfiguration` is 0.
    ///   - layerNumber: `layerNr` for the scalable types.
    ///   - extension: the extension part, or `nil` for `extensionFlag` = 0.
    public init(frameLengthFlag: Bool = false, coreCoderDelay: UInt16? = nil,
                programConfigElement: ProgramConfigElement? = nil, layerNumber: UInt8? = nil,
                extension: Extension? = nil) {
        self.frameLengthFlag = frameLengthFlag
        self.coreCoderDelay = coreCoderDelay
        self.programConfigElement = programConfigElement
        self.layerNumber = layerNumber
        self.extension = `extension`
    }

    /// `dependsOnCoreCoder`.
    public var dependsOnCoreCoder: Bool { coreCoderDelay != nil }

    /// Samples per frame for `audioObjectType`: 1024 or 960, and 512 or 480 for ER AAC LD.
    /// - Parameter audioObjectType: the object type the configuration belongs to.
    /// - Returns: the frame length in samples.
    public func samplesPerFrame(for audioObjectType: AudioObjectType) -> Int {
        if audioObjectType == .erAACLD { return frameLengthFlag ? 480 : 512 }
        return frameLengthFlag ? 960 : 1024
    }

    private static func hasLayerNumber(_ type: AudioObjectType) -> Bool { type == .aacScalable || type == .erAACScalable }
    private static func hasResilienceFlags(_ type: AudioObjectType) -> Bool {
        type == .erAACLC || type == .erAACLTP || type == .erAACScalable || type == .erAACLD
    }

    /// Parses `GASpecificConfig(samplingFrequencyIndex, channelConfiguration, audioObjectType)`
    /// (ISO/IEC 14496-3 §4.4.1, Table 4.1).
    /// - Parameters:
    ///   - reader: positioned at `frameLengthFlag`, with position 0 at the start of the
    ///     `AudioSpecificConfig` (the origin of the program config element's byte alignment).
    ///   - channelConfiguration: the configuration's `channelConfiguration` (0 means a PCE follows).
    ///   - audioObjectType: the configuration's (core) object type.
    /// - Returns: the parsed configuration.
    /// - Throws: ``AudioSpecificConfigError`` naming the element.
    public static func parse(from reader: inout BitReader, channelConfiguration: ChannelConfiguration,
                             audioObjectType: AudioObjectType) throws(AudioSpecificConfigError) -> GASpecificConfig {
        var config = GASpecificConfig()
        config.frameLengthFlag = try reader.configFlag("frameLengthFlag")
        if try reader.configFlag("dependsOnCoreCoder") {
            config.coreCoderDelay = UInt16(try reader.configBits(14, "coreCoderDelay"))
        }
        let extensionFlag = try reader.configFlag("extensionFlag")
        if channelConfiguration == .definedInStream {
            config.programConfigElement = try ProgramConfigElement.parse(from: &reader)
        }
        if hasLayerNumber(audioObjectType) {
            config.layerNumber = UInt8(try reader.configBits(3, "layerNr"))
        }
        if extensionFlag {
            var ext = Extension()
            if audioObjectType == .erBSAC {
                ext.numberOfSubFrames = UInt8(try reader.configBits(5, "numOfSubFrame"))
                ext.layerLength = UInt16(try reader.configBits(11, "layer_length"))
            }
            if hasResilienceFlags(audioObjectType) {
                ext.resilienceFlags = ResilienceFlags(sectionData: try reader.configFlag("aacSectionDataResilienceFlag"),
                                                      scalefactorData: try reader.configFlag("aacScalefactorDataResilienceFlag"),
                                                      spectralData: try reader.configFlag("aacSpectralDataResilienceFlag"))
            }
            ext.extensionFlag3 = try reader.configFlag("extensionFlag3")
            config.extension = ext
        }
        return config
    }

    /// Writes `GASpecificConfig()`.
    /// - Parameters:
    ///   - writer: the destination, with bit 0 at the start of the `AudioSpecificConfig`.
    ///   - channelConfiguration: the configuration's `channelConfiguration`.
    ///   - audioObjectType: the configuration's (core) object type.
    /// - Throws: ``AudioSpecificConfigError`` when a value does not fit or an optional part is present
    ///   (or missing) against what the object type and channel configuration require.
    public func write(to writer: inout BitWriter, channelConfiguration: ChannelConfiguration,
                      audioObjectType: AudioObjectType) throws(AudioSpecificConfigError) {
        let start = writer.bitCount
        func fail(_ field: String, _ text: String) -> AudioSpecificConfigError {
            AudioSpecificConfigError(field: field, bitOffset: start, reason: .invalid(text))
        }
        if let coreCoderDelay, coreCoderDelay >= 1 << 14 {
            throw AudioSpecificConfigError(field: "coreCoderDelay", bitOffset: start,
                                           reason: .outOfRange(value: Int64(coreCoderDelay), allowed: 0...Int64((1 << 14) - 1)))
        }
        guard (programConfigElement != nil) == (channelConfiguration == .definedInStream) else {
            throw fail("program_config_element", "present exactly when channelConfiguration is 0")
        }
        guard (layerNumber != nil) == Self.hasLayerNumber(audioObjectType) else {
            throw fail("layerNr", "present exactly for object types 6 and 20")
        }
        if let layerNumber, layerNumber > 7 {
            throw AudioSpecificConfigError(field: "layerNr", bitOffset: start, reason: .outOfRange(value: Int64(layerNumber), allowed: 0...7))
        }
        if let ext = `extension` {
            let isBSAC = audioObjectType == .erBSAC
            guard (ext.numberOfSubFrames != nil) == isBSAC, (ext.layerLength != nil) == isBSAC else {
                throw fail("numOfSubFrame", "numOfSubFrame and layer_length are present exactly for ER BSAC (22)")
            }
            guard (ext.resilienceFlags != nil) == Self.hasResilienceFlags(audioObjectType) else {
                throw fail("aacSectionDataResilienceFlag", "resilience flags are present exactly for object types 17, 19, 20 and 23")
            }
            if let count = ext.numberOfSubFrames, count > 31 {
                throw AudioSpecificConfigError(field: "numOfSubFrame", bitOffset: start, reason: .outOfRange(value: Int64(count), allowed: 0...31))
            }
            if let length = ext.layerLength, length > 2047 {
                throw AudioSpecificConfigError(field: "layer_length", bitOffset: start, reason: .outOfRange(value: Int64(length), allowed: 0...2047))
            }
        }
        writer.flag(frameLengthFlag)
        writer.flag(coreCoderDelay != nil)
        if let coreCoderDelay { writer.u(14, UInt32(coreCoderDelay)) }
        writer.flag(`extension` != nil)
        if let programConfigElement { try programConfigElement.write(to: &writer) }
        if let layerNumber { writer.u(3, UInt32(layerNumber)) }
        if let ext = `extension` {
            if let count = ext.numberOfSubFrames, let length = ext.layerLength {
                writer.u(5, UInt32(count))
                writer.u(11, UInt32(length))
            }
            if let flags = ext.resilienceFlags {
                writer.flag(flags.sectionData)
                writer.flag(flags.scalefactorData)
                writer.flag(flags.spectralData)
            }
            writer.flag(ext.extensionFlag3)
        }
    }
}
