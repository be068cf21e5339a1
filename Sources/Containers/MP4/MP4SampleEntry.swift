import AAC
import H264
import HEVC
import MediaCore
import Opus

/// Writes a track's `stsd` box (ISO/IEC 14496-12 §8.5.2) with its one sample entry: `avc1` + `avcC`
/// (ISO/IEC 14496-15 §5.4), `hvc1`/`hev1` + `hvcC` (§8.4), `mp4a` + `esds` (ISO/IEC 14496-14 §5.6), or
/// `Opus` + `dOps` ("Encapsulation of Opus in ISO Base Media File Format" §4.3),
/// with `pasp`, `colr` (from the SPS VUI) and `btrt` where known.
enum MP4SampleEntry {
    /// Writes the `stsd` box of a track.
    /// - Parameters:
    ///   - track: the track.
    ///   - bitRate: the `btrt` values (buffer size, maximum and average bit rate), or `nil` to leave it out.
    ///   - builder: where the box goes.
    /// - Throws: ``ContainerWriteError/invalidConfiguration(_:)`` when the parameter sets or the
    ///   AudioSpecificConfig cannot make a decoder configuration record.
    static func writeDescriptionBox(for track: MP4TrackDescription, bitRate: MP4BitRate?,
                                    into builder: inout MP4BoxBuilder) throws(ContainerWriteError) {
        switch track.media {
        case let .video(format):
            let entry = try VideoEntry(format: format, inBand: track.carriesParameterSetsInBand)
            builder.fullBox("stsd") { stsd in
                stsd.uint32(1)
                stsd.box(entry.type) { visual in
                    visual.zeros(6)
                    visual.uint16(1)                      // data_reference_index
                    visual.zeros(16)                      // pre_defined, reserved, pre_defined[3]
                    visual.uint16(UInt16(clamping: format.width))
                    visual.uint16(UInt16(clamping: format.height))
                    visual.uint32(0x0048_0000)            // 72 dpi
                    visual.uint32(0x0048_0000)
                    visual.uint32(0)
                    visual.uint16(1)                      // frame_count
                    visual.zeros(32)                      // compressorname
                    visual.uint16(0x0018)                 // depth
                    visual.uint16(0xFFFF)                 // pre_defined = -1
                    visual.box(entry.configurationType, payload: entry.configuration)
                    if let (horizontal, vertical) = entry.pixelAspectRatio {
                        visual.box("pasp") { $0.uint32(horizontal); $0.uint32(vertical) }
                    }
                    if let colour = entry.colour {
                        visual.box("colr") { colr in
                            colr.fourCC("nclx")
                            colr.uint16(colour.primaries)
                            colr.uint16(colour.transfer)
                            colr.uint16(colour.matrix)
                            colr.uint8(colour.fullRange ? 0x80 : 0)
                        }
                    }
                    if let bitRate { writeBitRateBox(bitRate, into: &visual) }
                }
            }
        case let .audio(format) where format.codec == .opus:
            try writeOpusEntry(format, bitRate: bitRate, into: &builder)
        case let .audio(format):
            guard format.codec == .aac else { throw .unsupportedCodec(format.codec, frameIndex: 0) }
            guard !format.audioSpecificConfig.isEmpty else {
                throw .invalidConfiguration("an AAC track needs its AudioSpecificConfig (the esds DecoderSpecificInfo)")
            }
            do { _ = try AudioSpecificConfig.parse(format.audioSpecificConfig) } catch {
                throw .audioSpecificConfig(frameIndex: 0, error)
            }
            builder.fullBox("stsd") { stsd in
                stsd.uint32(1)
                stsd.box("mp4a") { audio in
                    audio.zeros(6)
                    audio.uint16(1)                       // data_reference_index
                    audio.zeros(8)
                    audio.uint16(UInt16(clamping: format.channelCount))
                    audio.uint16(16)                      // samplesize
                    audio.zeros(4)                        // pre_defined, reserved
                    audio.uint32(format.sampleRate <= 0xFFFF ? UInt32(format.sampleRate) << 16 : 0)
                    audio.fullBox("esds") { esds in
                        esds.append(elementaryStreamDescriptor(format.audioSpecificConfig, bitRate: bitRate))
                    }
                    if let bitRate { writeBitRateBox(bitRate, into: &audio) }
                }
            }
        }
    }

    /// The `Opus` sample entry and its `dOps` box (Opus in ISOBMFF §4.3.1–4.3.2): an AudioSampleEntry whose
    /// channelcount is the output channel count, samplesize 16 and samplerate 48000 (§4.3.1: "SHALL be
    /// 48000"), and the identification header's values in `dOps`' big-endian form. The decoder configuration
    /// comes from the format's `OpusHead` (libopus's extradata); without one, a mono/stereo header with the
    /// format's ``AudioFormatDescription/encoderDelay`` as pre-skip is written.
    private static func writeOpusEntry(_ format: AudioFormatDescription, bitRate: MP4BitRate?,
                                       into builder: inout MP4BoxBuilder) throws(ContainerWriteError) {
        let header = try opusHeader(of: format)
        builder.fullBox("stsd") { stsd in
            stsd.uint32(1)
            stsd.box("Opus") { audio in
                audio.zeros(6)
                audio.uint16(1)                           // data_reference_index
                audio.zeros(8)
                audio.uint16(UInt16(clamping: header.channelCount))
                audio.uint16(16)                          // samplesize
                audio.zeros(4)                            // pre_defined, reserved
                audio.uint32(48000 << 16)
                audio.box("dOps", payload: header.dOpsPayload())
                if let bitRate { writeBitRateBox(bitRate, into: &audio) }
            }
        }
    }

    /// The identification header of an Opus format: its `OpusHead`, or one made from the channel count and
    /// encoder delay when the format has none.
    /// - Throws: ``ContainerWriteError/invalidConfiguration(_:)`` for a malformed `OpusHead`, or more than two
    ///   channels without one.
    static func opusHeader(of format: AudioFormatDescription) throws(ContainerWriteError) -> OpusIdentificationHeader {
        if format.audioSpecificConfig.isEmpty {
            guard (1...2).contains(format.channelCount) else {
                throw .invalidConfiguration("an Opus track of \(format.channelCount) channels needs its OpusHead (channel mapping)")
            }
            return OpusIdentificationHeader(channelCount: format.channelCount, preSkip: format.encoderDelay,
                                            inputSampleRate: format.sampleRate)
        }
        do { return try OpusIdentificationHeader(opusHead: format.audioSpecificConfig) } catch {
            throw .invalidConfiguration("OpusHead: \(error)")
        }
    }

    /// `BitRateBox` (§8.5.2.2).
    private static func writeBitRateBox(_ bitRate: MP4BitRate, into builder: inout MP4BoxBuilder) {
        builder.box("btrt") { btrt in
            btrt.uint32(bitRate.bufferSize)
            btrt.uint32(bitRate.maximum)
            btrt.uint32(bitRate.average)
        }
    }

    /// The `ES_Descriptor` of ISO/IEC 14496-1 §7.2.6.5 for AAC: a DecoderConfigDescriptor (object type
    /// 0x40, audio stream) holding the AudioSpecificConfig, and the predefined SLConfigDescriptor 2 (MP4).
    static func elementaryStreamDescriptor(_ audioSpecificConfig: [UInt8], bitRate: MP4BitRate?) -> [UInt8] {
        var decoderConfig: [UInt8] = [0x40, 0x15]
        let buffer = bitRate?.bufferSize ?? 0
        decoderConfig += [UInt8(truncatingIfNeeded: buffer >> 16), UInt8(truncatingIfNeeded: buffer >> 8), UInt8(truncatingIfNeeded: buffer)]
        for value in [bitRate?.maximum ?? 0, bitRate?.average ?? 0] {
            decoderConfig += [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
                              UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
        }
        decoderConfig += descriptor(tag: 0x05, audioSpecificConfig)
        var body: [UInt8] = [0, 0, 0]                     // ES_ID 0, no flags
        body += descriptor(tag: 0x04, decoderConfig)
        body += descriptor(tag: 0x06, [0x02])
        return descriptor(tag: 0x03, body)
    }

    /// A descriptor: its tag, the size in the expandable form of §8.3.3 (7 bits a byte), the payload.
    private static func descriptor(tag: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var size: [UInt8] = [UInt8(payload.count & 0x7F)]
        var rest = payload.count >> 7
        while rest > 0 {
            size.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return [tag] + size + payload
    }
}

/// The three numbers of a `btrt` box, in bytes and bits per second.
struct MP4BitRate {
    var bufferSize: UInt32
    var maximum: UInt32
    var average: UInt32
}

/// What a video sample entry holds, read from the track's parameter sets.
private struct VideoEntry {
    struct Colour {
        var primaries: UInt16
        var transfer: UInt16
        var matrix: UInt16
        var fullRange: Bool
    }

    var type: StaticString
    var configurationType: StaticString
    var configuration: [UInt8]
    var pixelAspectRatio: (UInt32, UInt32)?
    var colour: Colour?

    init(format: FormatDescription, inBand: Bool) throws(ContainerWriteError) {
        let sets = format.parameterSets
        switch format.codec {
        case .h264:
            let sps = sets.filter { ($0.first ?? 0) & 0x1F == 7 }
            let pps = sets.filter { ($0.first ?? 0) & 0x1F == 8 }
            do {
                configuration = try AVCDecoderConfigurationRecord(sequenceParameterSets: sps, pictureParameterSets: pps,
                                                                  nalUnitLength: format.nalUnitLengthSize).bytes()
            } catch {
                throw .invalidConfiguration("avcC: \(error)")
            }
            type = "avc1"
            configurationType = "avcC"
            if let first = sps.first, let parsed = try? H264SequenceParameterSet(nalUnit: first), let vui = parsed.vuiParameters {
                if let ratio = vui.aspectRatio?.sampleAspectRatio, ratio != (1, 1) {
                    pixelAspectRatio = (UInt32(ratio.width), UInt32(ratio.height))
                }
                if let signal = vui.videoSignalType, let description = signal.colourDescription {
                    colour = Colour(primaries: UInt16(description.colourPrimaries), transfer: UInt16(description.transferCharacteristics),
                                    matrix: UInt16(description.matrixCoefficients), fullRange: signal.videoFullRangeFlag)
                }
            }
        case .hevc:
            let kind = { (unit: [UInt8]) -> UInt8 in ((unit.first ?? 0) >> 1) & 0x3F }
            let sps = sets.filter { kind($0) == 33 }
            do {
                configuration = try HEVCDecoderConfigurationRecord(
                    videoParameterSets: sets.filter { kind($0) == 32 }, sequenceParameterSets: sps,
                    pictureParameterSets: sets.filter { kind($0) == 34 }, arrayCompleteness: !inBand,
                    lengthSizeMinusOne: format.nalUnitLengthSize - 1).bytes()
            } catch {
                throw .invalidConfiguration("hvcC: \(error)")
            }
            type = inBand ? "hev1" : "hvc1"
            configurationType = "hvcC"
            if let first = sps.first, let parsed = try? HEVCSequenceParameterSet(nalUnit: first), let vui = parsed.vui {
                if let ratio = vui.aspectRatio, let pair = Self.hevcAspectRatio(ratio), pair != (1, 1) {
                    pixelAspectRatio = pair
                }
                if let signal = vui.videoSignalType, let description = signal.colourDescription {
                    colour = Colour(primaries: UInt16(clamping: description.colourPrimaries),
                                    transfer: UInt16(clamping: description.transferCharacteristics),
                                    matrix: UInt16(clamping: description.matrixCoefficients), fullRange: signal.videoFullRangeFlag)
                }
            }
        default:
            throw .unsupportedCodec(format.codec, frameIndex: 0)
        }
    }

    /// Table E.1 of ITU-T H.265 (the same as H.264's Table E-1).
    private static func hevcAspectRatio(_ ratio: HEVCVUIParameters.AspectRatio) -> (UInt32, UInt32)? {
        let converted = H264VUIParameters.AspectRatio(idc: UInt8(clamping: ratio.idc), sarWidth: UInt16(clamping: ratio.sarWidth),
                                                      sarHeight: UInt16(clamping: ratio.sarHeight))
        return converted.sampleAspectRatio.map { (UInt32($0.width), UInt32($0.height)) }
    }
}
