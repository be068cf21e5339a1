import Bitstream

/// `AudioSpecificConfig()` (ISO/IEC 14496-3 §1.6.2.1, Table 1.15): the decoder configuration of an
/// MPEG-4 audio stream, as an MP4 `esds` box carries it in `DecoderSpecificInfo`, RTP (RFC 3640) in
/// the SDP `config=` parameter, and FLV/RTMP in the AAC sequence header.
///
/// Parsed and written back bit for bit: the object type (with the six-bit escape), the sampling
/// frequency (index, or the escape 15 with an explicit 24-bit frequency), the channel configuration,
/// explicit SBR/PS signalling (object type 5 or 29 first, then the extension frequency and the core
/// type), `GASpecificConfig` for the AAC family, `epConfig` for error-resilient types, and the
/// backward-compatible SBR/PS sync extension (0x2B7 / 0x548). What the module does not interpret (the
/// specific configuration of other object types, `ErrorProtectionSpecificConfig`, trailing data) is
/// kept in ``unparsedBits``.
public struct AudioSpecificConfig: Hashable, Sendable, CustomStringConvertible {
    /// Explicit hierarchical SBR/PS signalling: the configuration starts with object type 5 (SBR) or
    /// 29 (PS), followed by the SBR output frequency and then the core object type.
    public struct ExplicitExtension: Hashable, Sendable {
        /// The object type signalled first: ``AudioObjectType/sbr`` or ``AudioObjectType/ps``.
        public var audioObjectType: AudioObjectType
        /// `extensionSamplingFrequencyIndex` / `extensionSamplingFrequency`: the output rate of SBR.
        public var samplingFrequency: SamplingFrequency
        /// `extensionChannelConfiguration` (4 bits), present when the core is ER BSAC (22).
        public var channelConfiguration: UInt8?

        /// Creates explicit SBR/PS signalling.
        /// - Parameters:
        ///   - audioObjectType: `.sbr` or `.ps`.
        ///   - samplingFrequency: the SBR output rate.
        ///   - channelConfiguration: `extensionChannelConfiguration`, only with an ER BSAC core.
        public init(audioObjectType: AudioObjectType, samplingFrequency: SamplingFrequency, channelConfiguration: UInt8? = nil) {
            self.audioObjectType = audioObjectType
            self.samplingFrequency = samplingFrequency
            self.channelConfiguration = channelConfiguration
        }
    }

    /// Backward-compatible signalling after the core configuration: `syncExtensionType` 0x2B7, then
    /// `extensionAudioObjectType`, `sbrPresentFlag`, the extension frequency and, optionally,
    /// `syncExtensionType` 0x548 with `psPresentFlag`.
    public struct SyncExtension: Hashable, Sendable {
        /// `syncExtensionType` that introduces the extension.
        public static let syncExtensionType: UInt32 = 0x2B7
        /// `syncExtensionType` that introduces `psPresentFlag`.
        public static let psSyncExtensionType: UInt32 = 0x548

        /// `extensionAudioObjectType`: usually ``AudioObjectType/sbr``; ER BSAC (22) has its own form.
        public var audioObjectType: AudioObjectType
        /// `sbrPresentFlag`, present when the extension type is SBR or ER BSAC.
        public var sbrPresent: Bool?
        /// `extensionSamplingFrequency(Index)`, present when `sbrPresentFlag` is set.
        public var samplingFrequency: SamplingFrequency?
        /// `psPresentFlag` after `syncExtensionType` 0x548, or `nil` when that part is absent.
        public var psPresent: Bool?
        /// `extensionChannelConfiguration`, present when the extension type is ER BSAC.
        public var channelConfiguration: UInt8?

        /// Creates a backward-compatible extension.
        /// - Parameters:
        ///   - audioObjectType: `extensionAudioObjectType`.
        ///   - sbrPresent: `sbrPresentFlag`.
        ///   - samplingFrequency: the extension frequency (when SBR is present).
        ///   - psPresent: `psPresentFlag`, or `nil` to leave out the 0x548 part.
        ///   - channelConfiguration: `extensionChannelConfiguration` (ER BSAC only).
        public init(audioObjectType: AudioObjectType = .sbr, sbrPresent: Bool? = true, samplingFrequency: SamplingFrequency? = nil,
                    psPresent: Bool? = nil, channelConfiguration: UInt8? = nil) {
            self.audioObjectType = audioObjectType
            self.sbrPresent = sbrPresent
            self.samplingFrequency = samplingFrequency
            self.psPresent = psPresent
            self.channelConfiguration = channelConfiguration
        }
    }

    /// The (core) `audioObjectType`: with explicit SBR/PS signalling, the type after the extension
    /// frequency (usually AAC LC).
    public var audioObjectType: AudioObjectType
    /// `samplingFrequencyIndex` / `samplingFrequency`: the core rate.
    public var samplingFrequency: SamplingFrequency
    /// `channelConfiguration` (four bits).
    public var channelConfiguration: ChannelConfiguration
    /// Explicit SBR/PS signalling, when the configuration starts with object type 5 or 29.
    public var explicitExtension: ExplicitExtension?
    /// `GASpecificConfig`, for the AAC family (``AudioObjectType/usesGASpecificConfig``).
    public var gaSpecificConfig: GASpecificConfig?
    /// `epConfig` (0…3), for error-resilient object types.
    public var errorProtectionConfiguration: UInt8?
    /// Backward-compatible SBR/PS signalling after the core configuration.
    public var syncExtension: SyncExtension?
    /// Bits this module does not interpret, written back as they were.
    public var unparsedBits: RawBits

    /// Creates a configuration.
    /// - Parameters:
    ///   - audioObjectType: the core object type.
    ///   - samplingFrequency: the core sampling frequency.
    ///   - channelConfiguration: the channel configuration.
    ///   - explicitExtension: explicit SBR/PS signalling.
    ///   - gaSpecificConfig: required for the AAC family; `nil` takes the default (three zero bits).
    ///   - errorProtectionConfiguration: `epConfig` for error-resilient types (default 0).
    ///   - syncExtension: backward-compatible SBR/PS signalling.
    ///   - unparsedBits: bits to append as they are.
    public init(audioObjectType: AudioObjectType, samplingFrequency: SamplingFrequency, channelConfiguration: ChannelConfiguration,
                explicitExtension: ExplicitExtension? = nil, gaSpecificConfig: GASpecificConfig? = nil,
                errorProtectionConfiguration: UInt8? = nil, syncExtension: SyncExtension? = nil,
                unparsedBits: RawBits = RawBits()) {
        self.audioObjectType = audioObjectType
        self.samplingFrequency = samplingFrequency
        self.channelConfiguration = channelConfiguration
        self.explicitExtension = explicitExtension
        self.gaSpecificConfig = gaSpecificConfig ?? (audioObjectType.usesGASpecificConfig ? GASpecificConfig() : nil)
        self.errorProtectionConfiguration = errorProtectionConfiguration ?? (audioObjectType.isErrorResilient ? 0 : nil)
        self.syncExtension = syncExtension
        self.unparsedBits = unparsedBits
    }

    // MARK: - Derived values

    /// Whether SBR is signalled (explicitly, or by the sync extension with `sbrPresentFlag` set).
    public var sbrPresent: Bool {
        explicitExtension != nil || syncExtension?.sbrPresent == true
    }

    /// Whether PS is signalled (object type 29 first, or `psPresentFlag` set).
    public var psPresent: Bool {
        explicitExtension?.audioObjectType == .ps || syncExtension?.psPresent == true
    }

    /// The output sampling rate: the SBR extension rate when SBR is signalled, otherwise the core rate.
    public var outputSampleRate: Int {
        explicitExtension?.samplingFrequency.hertz ?? syncExtension?.samplingFrequency?.hertz ?? samplingFrequency.hertz
    }

    /// The number of channels, from the channel configuration or the program config element.
    public var channelCount: Int? {
        channelConfiguration.channelCount ?? gaSpecificConfig?.programConfigElement?.channelCount
    }

    /// The profile name as FFmpeg prints it: `HE-AACv2` with PS, `HE-AAC` with SBR, otherwise the core
    /// type's name (`LC`, `Main`, …).
    public var profileName: String? {
        if psPresent { return AudioObjectType.ps.profileName }
        if sbrPresent { return AudioObjectType.sbr.profileName }
        return audioObjectType.profileName
    }

    /// For example `AAC LC (2) 44100 Hz (index 4) 1 (1 channels)`.
    public var description: String {
        var text = "\(audioObjectType) \(samplingFrequency) \(channelConfiguration)"
        if let explicitExtension { text = "\(explicitExtension.audioObjectType.name) \(explicitExtension.samplingFrequency.hertz) Hz + " + text }
        if let syncExtension, syncExtension.sbrPresent == true {
            text += " + SBR \(syncExtension.samplingFrequency?.hertz ?? 0) Hz"
            if syncExtension.psPresent == true { text += " + PS" }
        }
        return text
    }

    // MARK: - Parsing

    /// Parses `AudioSpecificConfig()` (ISO/IEC 14496-3 §1.6.2.1, Table 1.15), including
    /// `GetAudioObjectType()` (Table 1.14) and `GASpecificConfig()` (Table 4.1).
    /// - Parameter bytes: the configuration (for example the payload of an MP4 `DecoderSpecificInfo`).
    /// - Returns: the configuration; ``serialized()`` gives `bytes` back.
    /// - Throws: ``AudioSpecificConfigError`` naming the element that is missing, reserved or invalid.
    public static func parse<Bytes: Sequence>(_ bytes: Bytes) throws(AudioSpecificConfigError) -> AudioSpecificConfig
    where Bytes.Element == UInt8 {
        var reader = BitReader(bytes)
        var audioObjectType = try reader.audioObjectType("audioObjectType")
        let samplingFrequency = try reader.samplingFrequency("samplingFrequencyIndex", "samplingFrequency")
        let channelStart = reader.bitPosition
        let channelValue = UInt8(try reader.configBits(4, "channelConfiguration"))
        guard let channelConfiguration = ChannelConfiguration(rawValue: channelValue) else {
            throw AudioSpecificConfigError(field: "channelConfiguration", bitOffset: channelStart, reason: .reserved(value: Int64(channelValue)))
        }
        var config = AudioSpecificConfig(audioObjectType: audioObjectType, samplingFrequency: samplingFrequency,
                                         channelConfiguration: channelConfiguration)
        if audioObjectType == .sbr || audioObjectType == .ps {
            let signalled = audioObjectType
            let extensionFrequency = try reader.samplingFrequency("extensionSamplingFrequencyIndex", "extensionSamplingFrequency")
            let coreStart = reader.bitPosition
            audioObjectType = try reader.audioObjectType("audioObjectType")
            guard audioObjectType != .sbr, audioObjectType != .ps else {
                throw AudioSpecificConfigError(field: "audioObjectType", bitOffset: coreStart,
                                               reason: .invalid("the core object type after SBR/PS signalling cannot be SBR or PS"))
            }
            var ext = ExplicitExtension(audioObjectType: signalled, samplingFrequency: extensionFrequency)
            if audioObjectType == .erBSAC {
                ext.channelConfiguration = UInt8(try reader.configBits(4, "extensionChannelConfiguration"))
            }
            config.explicitExtension = ext
        }
        config.audioObjectType = audioObjectType
        config.gaSpecificConfig = nil
        config.errorProtectionConfiguration = nil

        var understood = true
        if audioObjectType.usesGASpecificConfig {
            config.gaSpecificConfig = try GASpecificConfig.parse(from: &reader, channelConfiguration: channelConfiguration,
                                                                 audioObjectType: audioObjectType)
        } else {
            // CELP, HVXC, TTSI, structured audio, HILN, SSC, Layer 1–3, DST, ALS, SLS, ELD, USAC, …:
            // their specific configurations are kept as raw bits.
            understood = false
        }
        if understood && audioObjectType.isErrorResilient {
            let epConfig = UInt8(try reader.configBits(2, "epConfig"))
            config.errorProtectionConfiguration = epConfig
            // epConfig 2 and 3 carry ErrorProtectionSpecificConfig(), which is not interpreted here.
            if epConfig >= 2 { understood = false }
        }
        if understood && config.explicitExtension == nil && reader.bitsRemaining >= 16 {
            config.syncExtension = try parseSyncExtension(from: &reader)
        }
        let rest = RawBits(remainderOf: &reader)
        // Zero bits up to the next byte boundary are padding, not data.
        if !(rest.count < 8 && rest.isAllZero) { config.unparsedBits = rest }
        return config
    }

    /// The tail of Table 1.15: `syncExtensionType` 0x2B7 and what follows it. Leaves the reader where it
    /// was when the sync word is not there.
    private static func parseSyncExtension(from reader: inout BitReader) throws(AudioSpecificConfigError) -> SyncExtension? {
        guard reader.peekBits(11) == UInt64(SyncExtension.syncExtensionType) else { return nil }
        _ = try reader.configBits(11, "syncExtensionType")
        var ext = SyncExtension(audioObjectType: try reader.audioObjectType("extensionAudioObjectType"), sbrPresent: nil)
        if ext.audioObjectType == .sbr {
            let present = try reader.configFlag("sbrPresentFlag")
            ext.sbrPresent = present
            if present {
                ext.samplingFrequency = try reader.samplingFrequency("extensionSamplingFrequencyIndex", "extensionSamplingFrequency")
                if reader.bitsRemaining >= 12, reader.peekBits(11) == UInt64(SyncExtension.psSyncExtensionType) {
                    _ = try reader.configBits(11, "syncExtensionType")
                    ext.psPresent = try reader.configFlag("psPresentFlag")
                }
            }
        }
        if ext.audioObjectType == .erBSAC {
            let present = try reader.configFlag("sbrPresentFlag")
            ext.sbrPresent = present
            if present {
                ext.samplingFrequency = try reader.samplingFrequency("extensionSamplingFrequencyIndex", "extensionSamplingFrequency")
            }
            ext.channelConfiguration = UInt8(try reader.configBits(4, "extensionChannelConfiguration"))
        }
        return ext
    }

    // MARK: - Writing

    /// Writes the configuration: the bytes ``parse(_:)`` read, or the bytes for a configuration built in
    /// code (padded with zero bits to a whole byte).
    /// - Returns: the `AudioSpecificConfig` bytes.
    /// - Throws: ``AudioSpecificConfigError`` when a value does not fit its field or a part required by
    ///   the object type is missing (for example `GASpecificConfig` for AAC LC).
    public func serialized() throws(AudioSpecificConfigError) -> [UInt8] {
        var writer = BitWriter()
        func fail(_ field: String, _ text: String) -> AudioSpecificConfigError {
            AudioSpecificConfigError(field: field, bitOffset: writer.bitCount, reason: .invalid(text))
        }
        if let ext = explicitExtension {
            guard ext.audioObjectType == .sbr || ext.audioObjectType == .ps else {
                throw fail("audioObjectType", "explicit extension signalling uses object type 5 or 29, not \(ext.audioObjectType.rawValue)")
            }
            writer.audioObjectType(ext.audioObjectType)
        } else {
            writer.audioObjectType(audioObjectType)
        }
        try writer.samplingFrequency(samplingFrequency, field: "samplingFrequency", bitOffset: writer.bitCount)
        writer.u(4, UInt32(channelConfiguration.rawValue))
        if let ext = explicitExtension {
            try writer.samplingFrequency(ext.samplingFrequency, field: "extensionSamplingFrequency", bitOffset: writer.bitCount)
            guard audioObjectType != .sbr, audioObjectType != .ps else {
                throw fail("audioObjectType", "the core object type after SBR/PS signalling cannot be SBR or PS")
            }
            writer.audioObjectType(audioObjectType)
            guard (ext.channelConfiguration != nil) == (audioObjectType == .erBSAC) else {
                throw fail("extensionChannelConfiguration", "present exactly when the core object type is ER BSAC (22)")
            }
            if let channels = ext.channelConfiguration {
                guard channels <= 15 else {
                    throw AudioSpecificConfigError(field: "extensionChannelConfiguration", bitOffset: writer.bitCount,
                                                   reason: .outOfRange(value: Int64(channels), allowed: 0...15))
                }
                writer.u(4, UInt32(channels))
            }
        }
        if audioObjectType.usesGASpecificConfig {
            guard let gaSpecificConfig else { throw fail("GASpecificConfig", "required for \(audioObjectType)") }
            try gaSpecificConfig.write(to: &writer, channelConfiguration: channelConfiguration, audioObjectType: audioObjectType)
            if audioObjectType.isErrorResilient {
                let epConfig = errorProtectionConfiguration ?? 0
                guard epConfig <= 3 else {
                    throw AudioSpecificConfigError(field: "epConfig", bitOffset: writer.bitCount, reason: .outOfRange(value: Int64(epConfig), allowed: 0...3))
                }
                writer.u(2, UInt32(epConfig))
            }
        } else if gaSpecificConfig != nil {
            throw fail("GASpecificConfig", "\(audioObjectType) has no GASpecificConfig")
        }
        if let ext = syncExtension {
            guard explicitExtension == nil else {
                throw fail("syncExtensionType", "explicit and backward-compatible SBR signalling cannot both be present")
            }
            writer.u(11, SyncExtension.syncExtensionType)
            writer.audioObjectType(ext.audioObjectType)
            if ext.audioObjectType == .sbr || ext.audioObjectType == .erBSAC {
                guard let present = ext.sbrPresent else { throw fail("sbrPresentFlag", "required for extension type \(ext.audioObjectType.rawValue)") }
                writer.flag(present)
                if present {
                    guard let frequency = ext.samplingFrequency else {
                        throw fail("extensionSamplingFrequencyIndex", "required when sbrPresentFlag is set")
                    }
                    try writer.samplingFrequency(frequency, field: "extensionSamplingFrequency", bitOffset: writer.bitCount)
                    if ext.audioObjectType == .sbr, let ps = ext.psPresent {
                        writer.u(11, SyncExtension.psSyncExtensionType)
                        writer.flag(ps)
                    }
                }
                if ext.audioObjectType == .erBSAC {
                    guard let channels = ext.channelConfiguration, channels <= 15 else {
                        throw fail("extensionChannelConfiguration", "required (0…15) for an ER BSAC extension")
                    }
                    writer.u(4, UInt32(channels))
                }
            }
        }
        unparsedBits.write(to: &writer)
        writer.alignWithZeros()
        return writer.bytes
    }

    // MARK: - ADTS

    /// The configuration an MP4 muxer writes for an ADTS stream (what FFmpeg's `aac_adtstoasc` does):
    /// the object type `profile_ObjectType` + 1, the header's sampling frequency index and channel
    /// configuration, and a `GASpecificConfig` of 1024-sample frames without core coder or extension.
    /// - Parameters:
    ///   - header: an ADTS header of the stream.
    ///   - programConfigElement: the PCE from the first raw data block, required when the header's
    ///     `channel_configuration` is 0 (ignored otherwise).
    /// - Throws: ``AudioSpecificConfigError`` when the channel configuration is 0 and no PCE is given.
    public init(adtsHeader header: ADTSHeader, programConfigElement: ProgramConfigElement? = nil) throws(AudioSpecificConfigError) {
        var ga = GASpecificConfig()
        if header.channelConfiguration == .definedInStream {
            guard let programConfigElement else {
                throw AudioSpecificConfigError(field: "program_config_element", bitOffset: 13,
                                               reason: .invalid("channel_configuration 0 needs the program config element from the raw data"))
            }
            ga.programConfigElement = programConfigElement
        }
        self.init(audioObjectType: header.audioObjectType, samplingFrequency: .index(header.samplingFrequencyIndex),
                  channelConfiguration: header.channelConfiguration, gaSpecificConfig: ga)
    }

    /// The ADTS header for a frame of this stream (what FFmpeg's ADTS muxer derives from an MP4 track):
    /// MPEG-4, no CRC, one raw data block, variable bit rate.
    ///
    /// ADTS has room for the core configuration only: SBR/PS is left implicit, as in every ADTS HE-AAC
    /// stream, and a program config element has to go into the first raw data block.
    /// - Parameter payloadLength: the length of the raw AAC frame.
    /// - Returns: the header.
    /// - Throws: ``ADTSError`` when the core object type is not AAC Main/LC/SSR/LTP, the sampling
    ///   frequency is not a table rate, the channel configuration is above 7, or the frame is too long.
    public func adtsHeader(payloadLength: Int) throws(ADTSError) -> ADTSHeader {
        guard case let .index(index) = samplingFrequency else {
            throw ADTSError(byteOffset: 2, field: "sampling_frequency_index",
                            reason: .reservedSamplingFrequencyIndex(found: SamplingFrequencyIndex.escapeValue))
        }
        guard payloadLength >= 0, payloadLength <= ADTSHeader.maximumFrameLength - ADTSHeader.minimumLength else {
            throw ADTSError(byteOffset: 3, field: "aac_frame_length",
                            reason: .outOfRange(value: payloadLength, allowed: 0...(ADTSHeader.maximumFrameLength - ADTSHeader.minimumLength)))
        }
        return try ADTSHeader(audioObjectType: audioObjectType, samplingFrequencyIndex: index,
                              channelConfiguration: channelConfiguration, frameLength: payloadLength + ADTSHeader.minimumLength)
    }
}
