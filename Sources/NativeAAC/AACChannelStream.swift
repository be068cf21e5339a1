import Bitstream
import Foundation

/// One `individual_channel_stream()` (ISO/IEC 14496-3 §4.4.2.7, Table 4.44) of AAC-LC, decoded up to
/// its inverse-quantised spectrum: `ics_info`, `section_data` (§4.5.2.3.3), `scale_factor_data`
/// (§4.5.2.3.4, with intensity positions and noise energies), `pulse_data` (§4.6.4), `tns_data` and
/// `spectral_data` (§4.6.3), then inverse quantisation and scaling (§4.6.1, §4.6.2).
///
/// The storage is allocated once and reused frame after frame. Bands are indexed `group * 64 + sfb`;
/// the spectrum holds 1024 lines, window `w` of a short sequence at `w * 128`.
struct AACChannelStream: Sendable {
    /// Bands per group in the band arrays.
    static let bandStride = 64
    /// `global_gain`.
    var globalGain = 0
    /// `ics_info()` (its own, or the pair's common one).
    var info = AACICSInfo()
    /// `sfb_cb[g][sfb]`: the codebook (or band type) of each band.
    var bandTypes = [UInt8](repeating: 0, count: 8 * bandStride)
    /// The scalefactor of each band; for intensity bands `is_position`, for noise bands the noise energy.
    var scalefactors = [Int](repeating: 0, count: 8 * bandStride)
    /// Whether `tns_data()` was present.
    var tnsPresent = false
    /// `tns_data()`.
    var tns = AACTNSData()
    /// The quantised spectral values, pulses added.
    var quantized = [Int32](repeating: 0, count: 1024)
    /// The inverse-quantised, scaled spectrum (noise and intensity bands are filled later).
    var spectrum = [Float](repeating: 0, count: 1024)
    /// Whether the last stream parsed had pulse data.
    var pulsePresent = false

    /// Reads one `individual_channel_stream()` and inverse-quantises it.
    /// - Parameters:
    ///   - reader: positioned at `global_gain`.
    ///   - commonInfo: the pair's `ics_info` when `common_window` is 1, else `nil` (the stream has its own).
    ///   - bands: the stream's band table.
    /// - Throws: ``NativeAACError`` naming the field that is wrong and where.
    mutating func parse(_ reader: inout BitReader, commonInfo: AACICSInfo?, bands: AACScalefactorBandTable) throws(NativeAACError) {
        globalGain = try reader.aacBits(8, "global_gain")
        if let commonInfo {
            info = commonInfo
        } else {
            try info.parse(&reader, bands: bands)
        }
        try parseSectionData(&reader)
        try parseScalefactors(&reader)
        pulsePresent = try reader.aacFlag("pulse_data_present")
        var pulses: [(position: Int, amplitude: Int32)] = []
        if pulsePresent {
            let start = reader.bitPosition
            guard !info.windowSequence.isShort else {
                throw .invalidValue(field: "pulse_data_present", bitOffset: start - 1, reason: "pulse data in an EIGHT_SHORT_SEQUENCE")
            }
            let count = try reader.aacBits(2, "number_pulse") + 1
            let startBand = try reader.aacBits(6, "pulse_start_sfb")
            guard startBand < bands.longBandCount else {
                throw .invalidValue(field: "pulse_start_sfb", bitOffset: start + 2,
                                    reason: "\(startBand) is not below the \(bands.longBandCount) bands")
            }
            var position = bands.long[startBand]
            for _ in 0..<count {
                position += try reader.aacBits(5, "pulse_offset")
                let amplitude = Int32(try reader.aacBits(4, "pulse_amp"))
                guard position < 1024 else {
                    throw .invalidValue(field: "pulse_offset", bitOffset: reader.bitPosition - 9, reason: "pulse position \(position) beyond line 1023")
                }
                pulses.append((position, amplitude))
            }
        }
        tnsPresent = try reader.aacFlag("tns_data_present")
        if tnsPresent { try tns.parse(&reader, isShort: info.windowSequence.isShort) }
        if try reader.aacFlag("gain_control_data_present") {
            throw .unsupportedElement("gain_control_data (AAC SSR only)", bitOffset: reader.bitPosition - 1)
        }
        try parseSpectralData(&reader, bands: bands)
        for pulse in pulses {
            let value = quantized[pulse.position]
            quantized[pulse.position] = value > 0 ? value + pulse.amplitude : value - pulse.amplitude
        }
        dequantize(bands: bands)
    }

    /// `section_data()` (§4.5.2.3.3): runs of bands sharing one codebook.
    private mutating func parseSectionData(_ reader: inout BitReader) throws(NativeAACError) {
        let isShort = info.windowSequence.isShort
        let lengthBits = isShort ? 3 : 5
        let escape = (1 << lengthBits) - 1
        for group in 0..<info.groupLengths.count {
            var band = 0
            while band < info.maxSFB {
                let start = reader.bitPosition
                let codebook = UInt8(try reader.aacBits(4, "sect_cb"))
                guard codebook != AACBandType.reserved else {
                    throw .invalidValue(field: "sect_cb", bitOffset: start, reason: "codebook 12 is reserved")
                }
                var length = 0
                while true {
                    let increment = try reader.aacBits(lengthBits, "sect_len_incr")
                    length += increment
                    if increment != escape { break }
                }
                guard band + length <= info.maxSFB else {
                    throw .invalidValue(field: "sect_len_incr", bitOffset: start + 4,
                                        reason: "section of \(length) bands from band \(band) passes max_sfb \(info.maxSFB)")
                }
                for index in band..<(band + length) { bandTypes[group * Self.bandStride + index] = codebook }
                band += length
                // A zero-length section codes nothing; bound how many a block can hold.
                if length == 0, reader.bitsRemaining < 64 {
                    throw .truncated(element: "section_data", bitOffset: reader.bitPosition)
                }
            }
        }
    }

    /// `scale_factor_data()` (§4.5.2.3.4): differential scalefactors, intensity positions and noise
    /// energies, each on its own running value.
    private mutating func parseScalefactors(_ reader: inout BitReader) throws(NativeAACError) {
        var scalefactor = globalGain
        var intensityPosition = 0
        var noiseEnergy = globalGain - 90
        var firstNoise = true
        for group in 0..<info.groupLengths.count {
            for band in 0..<info.maxSFB {
                let index = group * Self.bandStride + band
                let start = reader.bitPosition
                switch bandTypes[index] {
                case AACBandType.zero:
                    scalefactors[index] = 0
                case AACBandType.intensityOutOfPhase, AACBandType.intensityInPhase:
                    intensityPosition += try reader.aacHuffman(AACHuffmanTables.scalefactor, "hcod_sf (is_position)") - 60
                    scalefactors[index] = min(max(intensityPosition, -155), 100)
                case AACBandType.noise:
                    if firstNoise {
                        firstNoise = false
                        noiseEnergy += try reader.aacBits(9, "dpcm_noise_nrg") - 256
                    } else {
                        noiseEnergy += try reader.aacHuffman(AACHuffmanTables.scalefactor, "hcod_sf (noise energy)") - 60
                    }
                    scalefactors[index] = min(max(noiseEnergy, -100), 155)
                default:
                    scalefactor += try reader.aacHuffman(AACHuffmanTables.scalefactor, "hcod_sf") - 60
                    guard (0...255).contains(scalefactor) else {
                        throw .invalidValue(field: "hcod_sf", bitOffset: start, reason: "scalefactor \(scalefactor) outside 0...255")
                    }
                    scalefactors[index] = scalefactor
                }
            }
        }
    }

    /// `spectral_data()` (§4.6.3): Huffman-coded tuples of quantised values, sign bits and escapes, read
    /// band by band and, inside a group, window by window.
    private mutating func parseSpectralData(_ reader: inout BitReader, bands: AACScalefactorBandTable) throws(NativeAACError) {
        let isShort = info.windowSequence.isShort
        let offsets = isShort ? bands.short : bands.long
        for index in 0..<1024 { quantized[index] = 0 }
        var window = 0
        for (group, groupLength) in info.groupLengths.enumerated() {
            for band in 0..<info.maxSFB {
                let codebook = Int(bandTypes[group * Self.bandStride + band])
                guard codebook >= 1, codebook <= Int(AACBandType.escape) else { continue }
                let spec = AACSpectralCodebook.all[codebook - 1]
                let table = AACHuffmanTables.spectral[codebook - 1]
                for member in 0..<groupLength {
                    let base = (window + member) * 128
                    var line = offsets[band]
                    let end = offsets[band + 1]
                    while line < end {
                        let index = try reader.aacHuffman(table, "hcod (spectral)")
                        let packed = spec.unpacked[index]
                        if spec.dimension == 4 {
                            for slot in 0..<4 {
                                var value = Int32(Int8(truncatingIfNeeded: packed >> UInt32(24 - 8 * slot)))
                                if !spec.isSigned, value != 0, try reader.aacFlag("sign_bits") { value = -value }
                                quantized[base + line + slot] = value
                            }
                        } else {
                            var first = Int(Int8(truncatingIfNeeded: packed >> 8))
                            var second = Int(Int8(truncatingIfNeeded: packed))
                            if !spec.isSigned {
                                if first != 0, try reader.aacFlag("sign_bits") { first = -first }
                                if second != 0, try reader.aacFlag("sign_bits") { second = -second }
                            }
                            if spec.hasEscape {
                                if abs(first) == 16 { first = first.signum() * (try Self.escape(&reader)) }
                                if abs(second) == 16 { second = second.signum() * (try Self.escape(&reader)) }
                            }
                            quantized[base + line] = Int32(first)
                            quantized[base + line + 1] = Int32(second)
                        }
                        line += spec.dimension
                    }
                }
            }
            window += groupLength
        }
    }

    /// `hcod_esc_y` / `hcod_esc_z` (§4.6.3.3): N ones, a zero, then an (N + 4)-bit word; the value is
    /// 2^(N+4) + word, at most 8191.
    private static func escape(_ reader: inout BitReader) throws(NativeAACError) -> Int {
        let start = reader.bitPosition
        var prefix = 0
        while try reader.aacFlag("escape_prefix") {
            prefix += 1
            guard prefix <= 8 else {
                throw .invalidValue(field: "escape_prefix", bitOffset: start, reason: "more than 8 prefix bits (value above 8191)")
            }
        }
        return (1 << (prefix + 4)) + (try reader.aacBits(prefix + 4, "escape_word"))
    }

    /// Inverse quantisation `sign(q)·|q|^(4/3)` and scaling by `2^(¼(sf − 100))` (§4.6.1.3, §4.6.2.3)
    /// of every band coded with a spectral codebook; other bands are left at zero.
    private mutating func dequantize(bands: AACScalefactorBandTable) {
        let isShort = info.windowSequence.isShort
        let offsets = isShort ? bands.short : bands.long
        let (groupLengths, maxSFB, bandTypes, scalefactors) = (info.groupLengths, info.maxSFB, bandTypes, scalefactors)
        quantized.withUnsafeBufferPointer { quantized in
            spectrum.withUnsafeMutableBufferPointer { spectrum in
                AACInverseQuantizer.powerFourThirds.withUnsafeBufferPointer { power in
                    for index in 0..<1024 { spectrum[index] = 0 }
                    let largest = power.count - 1
                    var window = 0
                    for (group, groupLength) in groupLengths.enumerated() {
                        for band in 0..<maxSFB {
                            let index = group * Self.bandStride + band
                            let type = bandTypes[index]
                            guard type >= 1, type <= AACBandType.escape else { continue }
                            let gain = AACInverseQuantizer.gain(scalefactor: scalefactors[index])
                            for member in 0..<groupLength {
                                let base = (window + member) * 128
                                for line in (base + offsets[band])..<(base + offsets[band + 1]) {
                                    let value = quantized[line]
                                    let magnitude = power[min(Int(value.magnitude), largest)] * gain
                                    spectrum[line] = value < 0 ? -magnitude : magnitude
                                }
                            }
                        }
                        window += groupLength
                    }
                }
            }
        }
    }
}

extension AACChannelStream {
    /// Adds what this channel stream used to the statistics.
    /// - Parameter statistics: the running counts.
    func count(into statistics: inout AACDecoderStatistics) {
        switch info.windowSequence {
        case .eightShort: statistics.shortWindowStreams += 1
        case .longStart, .longStop: statistics.transitionWindowStreams += 1
        case .onlyLong: break
        }
        if info.windowShape == .kaiserBesselDerived { statistics.kbdStreams += 1 }
        if tnsPresent { statistics.tnsStreams += 1 }
        if pulsePresent { statistics.pulseStreams += 1 }
        for group in 0..<info.groupLengths.count {
            for band in 0..<info.maxSFB {
                switch bandTypes[group * Self.bandStride + band] {
                case AACBandType.noise: statistics.noiseBands += 1
                case AACBandType.intensityInPhase, AACBandType.intensityOutOfPhase: statistics.intensityBands += 1
                case AACBandType.escape: statistics.escapeBands += 1
                default: break
                }
            }
        }
    }
}
