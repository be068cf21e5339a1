import Foundation
import Bitstream

/// One channel of a frame as the encoder codes it: the spectrum, its thresholds, and the
/// choices that make an `individual_channel_stream()` (ISO/IEC 14496-3 §4.4.2.7, Table 4.50) — the
/// scalefactor of each band (noise allocation: the coarsest quantiser whose error stays under the band's
/// allowed noise), the quantised values, and the codebook of each band (``AACSectionPlanner``).
struct AACChannelCoder: Sendable {
    /// The offsets of the coding bands of this frame: the long-window bands, or for eight short windows
    /// the bands of each window group one after the other, each band spanning its lines in every window of
    /// the group (the order of `spectral_data()`, §4.6.3; ``spectrum`` is interleaved so).
    private(set) var offsets: [Int]
    /// The long-window band offsets.
    let longOffsets: [Int]
    /// The short-window band offsets.
    let shortOffsets: [Int]
    /// The window sequence of this frame.
    private(set) var sequence: AACWindowSequence = .onlyLong
    /// The window shape of this frame (`window_shape`, §4.6.11.3.2): the falling half of its window.
    var windowShape: AACWindowShape = .sine
    /// The window groups of this frame (`[1]` for long windows).
    private(set) var groupLengths = [1]
    /// The bands of one window group.
    private(set) var bandsPerGroup: Int
    /// The long-window bands above the encoder's bandwidth are never coded.
    var cutoffBand: Int
    /// The short-window band above the bandwidth.
    var shortCutoffBand: Int
    /// The MDCT coefficients (16-bit scale).
    var spectrum = [Float](repeating: 0, count: 1024)
    /// `|x|^¾` of each coefficient.
    var magnitudes34 = [Float](repeating: 0, count: 1024)
    /// Each band's energy.
    var energies: [Float]
    /// Each band's masking threshold (allowed noise energy at a noise scale of 1).
    var thresholds: [Float]
    /// The smallest scalefactor that keeps each band's values at or below 8191.
    var smallestScalefactors: [Int]
    /// The chosen scalefactor of each band (meaningful where the band is not all zero).
    var scalefactors: [Int]
    /// Whether each band has a non-zero value.
    var isCoded: [Bool]
    /// The quantised values.
    var quantized = [Int32](repeating: 0, count: 1024)
    /// The codebook of each band (0 … 11).
    var codebooks: [Int]
    /// `global_gain`: the first coded band's scalefactor.
    var globalGain = 100
    /// Each band's tonality, 0 (noise) … 1 (a pure tone), from the psychoacoustic model.
    var tonality: [Float]
    /// Whether a band may be replaced by noise this frame (perceptual noise substitution, §4.6.13): noise-like
    /// bands of long frames from ``noiseStartBand`` up, not in M/S.
    var noiseAllowed: [Bool]
    /// The first band perceptual noise substitution may take (the band count: never).
    var noiseStartBand: Int
    /// Whether each band is coded as noise (`NOISE_HCB`).
    var isNoise: [Bool]
    /// The noise energy of each noise band, `2·log2(energy)` (§4.6.13.3), as coded.
    var noiseEnergies: [Int]
    /// The temporal noise shaping filter of this frame (long windows only), or `nil`.
    var tns: AACTNSFilter?
    private var costs: [Int]

    /// Prepares a channel coder.
    /// - Parameters:
    ///   - table: the band offsets of the sampling rate.
    ///   - cutoffBand: the first long-window band never coded.
    ///   - shortCutoffBand: the first short-window band never coded.
    ///   - noiseStartBand: the first band noise substitution may take.
    init(table: AACScalefactorBandTable, cutoffBand: Int, shortCutoffBand: Int, noiseStartBand: Int) {
        offsets = table.long
        longOffsets = table.long
        shortOffsets = table.short
        bandsPerGroup = table.longBandCount
        self.cutoffBand = cutoffBand
        self.shortCutoffBand = shortCutoffBand
        self.noiseStartBand = noiseStartBand
        let bands = max(table.longBandCount, 8 * table.shortBandCount)
        tonality = [Float](repeating: 1, count: bands)
        noiseAllowed = [Bool](repeating: false, count: bands)
        isNoise = [Bool](repeating: false, count: bands)
        noiseEnergies = [Int](repeating: 0, count: bands)
        energies = [Float](repeating: 0, count: bands)
        thresholds = [Float](repeating: 0, count: bands)
        smallestScalefactors = [Int](repeating: 0, count: bands)
        scalefactors = [Int](repeating: 100, count: bands)
        isCoded = [Bool](repeating: false, count: bands)
        codebooks = [Int](repeating: 0, count: bands)
        costs = [Int](repeating: AACSectionPlanner.impossible, count: bands * AACSectionPlanner.codebookCount)
    }

    /// The number of coding bands of this frame (all groups).
    var bandCount: Int { offsets.count - 1 }

    /// Sets the frame's window sequence and grouping, and with them the coding bands.
    /// - Parameters:
    ///   - sequence: the window sequence.
    ///   - groupLengths: for eight short windows, the windows of each group (summing to 8).
    mutating func configure(sequence: AACWindowSequence, groupLengths: [Int]) {
        self.sequence = sequence
        tns = nil
        if sequence.isShort {
            self.groupLengths = groupLengths
            bandsPerGroup = shortOffsets.count - 1
            var virtual = [0]
            for length in groupLengths {
                for band in 0..<bandsPerGroup {
                    virtual.append(virtual[virtual.count - 1] + length * (shortOffsets[band + 1] - shortOffsets[band]))
                }
            }
            offsets = virtual
        } else {
            self.groupLengths = [1]
            bandsPerGroup = longOffsets.count - 1
            offsets = longOffsets
        }
    }

    /// The band cutoff of this frame's windows.
    var frameCutoff: Int { sequence.isShort ? shortCutoffBand : cutoffBand }

    /// The coding bands below `max_sfb` in every group, in bitstream order.
    func codedBands(maxSFB: Int) -> [Int] {
        (0..<groupLengths.count).flatMap { group in (group * bandsPerGroup)..<(group * bandsPerGroup + maxSFB) }
    }

    /// Computes `|x|^¾`, band energies and each band's smallest scalefactor from ``spectrum``.
    mutating func prepare() {
        for line in 0..<1024 {
            let magnitude = abs(spectrum[line])
            magnitudes34[line] = magnitude == 0 ? 0 : (magnitude * magnitude.squareRoot()).squareRoot()
        }
        for band in 0..<bandCount {
            var energy: Float = 0
            var largest: Float = 0
            for line in offsets[band]..<offsets[band + 1] {
                energy += spectrum[line] * spectrum[line]
                largest = max(largest, magnitudes34[line])
            }
            energies[band] = energy
            smallestScalefactors[band] = AACQuantizer.smallestScalefactor(forLargest: largest)
        }
    }

    /// The largest `energy^¼` of the bands: the threshold lift at which every band is masked.
    var largestEnergyRoot: Float {
        var largest: Float = 0
        for band in 0..<bandCount where band % bandsPerGroup < frameCutoff {
            largest = max(largest, energies[band].squareRoot().squareRoot())
        }
        return largest
    }

    /// Chooses every band's scalefactor for an allowed noise and quantises. The allowed noise of a band
    /// is `threshold × noiseScale`, lifted to `(threshold^¼ + lift)⁴` when `lift` is positive: the
    /// lift of 3GPP TS 26.403 §5.6.1.2, which raises quiet bands' thresholds relatively more than loud
    /// ones', so the noise levels out across the spectrum as bits run short.
    /// - Parameters:
    ///   - noiseScale: the factor on every threshold.
    ///   - lift: added to every threshold's fourth root (0: none).
    mutating func allocate(noiseScale: Float, lift: Float = 0) {
        var quantized: [Int32] = []
        swap(&quantized, &self.quantized)
        defer { swap(&quantized, &self.quantized) }
        var isCoded: [Bool] = []
        swap(&isCoded, &self.isCoded)
        defer { swap(&isCoded, &self.isCoded) }
        var scalefactors: [Int] = []
        swap(&scalefactors, &self.scalefactors)
        defer { swap(&scalefactors, &self.scalefactors) }
        var isNoise: [Bool] = []
        swap(&isNoise, &self.isNoise)
        defer { swap(&isNoise, &self.isNoise) }
        let (offsets, thresholds, energies, smallest, cutoffBand) = (offsets, thresholds, energies, smallestScalefactors, frameCutoff)
        let bandsPerGroup = bandsPerGroup
        let (noiseAllowed, tonality) = (noiseAllowed, tonality)
        var globalGain = 100
        defer { self.globalGain = globalGain }
        AACInverseQuantizer.powerFourThirds.withUnsafeBufferPointer { powerBuffer in
            spectrum.withUnsafeBufferPointer { spectrumBuffer in
                magnitudes34.withUnsafeBufferPointer { magnitudesBuffer in
                    quantized.withUnsafeMutableBufferPointer { quantizedBuffer in
                        guard let power = powerBuffer.baseAddress, let x = spectrumBuffer.baseAddress,
                              let x34 = magnitudesBuffer.baseAddress, let q = quantizedBuffer.baseAddress else { return }
                        var previous = -1
                        for band in 0..<(offsets.count - 1) {
                            let start = offsets[band], count = offsets[band + 1] - start
                            var allowed = thresholds[band] * noiseScale
                            if lift > 0 {
                                let root = thresholds[band].squareRoot().squareRoot() + lift
                                allowed = root * root * root * root
                            }
                            isCoded[band] = false
                            isNoise[band] = false
                            for line in start..<(start + count) { q[line] = 0 }
                            guard band % bandsPerGroup < cutoffBand, energies[band] > allowed, energies[band] > 0 else { continue }
                            if noiseAllowed[band], tonality[band] < Self.noiseTonality {
                                isNoise[band] = true
                                continue
                            }
                            // The coarsest scalefactor whose error stays within the allowed noise.
                            var low = smallest[band], high = 255
                            while low < high {
                                let middle = (low + high + 1) / 2
                                let error = AACQuantizer.quantize(x + start, x34 + start, count: count, scalefactor: middle,
                                                                  into: nil, power: power).error
                                if error <= allowed { low = middle } else { high = middle - 1 }
                            }
                            var sf = low
                            // Neighbouring coded bands' scalefactors differ by at most 60 (Table 4.A.1).
                            if previous >= 0 { sf = min(max(sf, previous - 60), previous + 60) }
                            let largest = AACQuantizer.quantize(x + start, x34 + start, count: count, scalefactor: sf,
                                                                into: q + start, power: power).largest
                            guard largest > 0 else { continue }
                            isCoded[band] = true
                            scalefactors[band] = sf
                            previous = sf
                        }
                        globalGain = isCoded.firstIndex(of: true).map { scalefactors[$0] } ?? 100
                    }
                }
            }
        }
    }

    /// The tonality below which a band may become noise.
    static let noiseTonality: Float = 0.5

    /// The last coded band + 1: the `max_sfb` this channel needs.
    var neededBands: Int {
        var needed = 0
        for band in 0..<bandCount where isCoded[band] || isNoise[band] { needed = max(needed, band % bandsPerGroup + 1) }
        return needed
    }

    /// Chooses the codebooks of bands 0 ..< `maxSFB` and counts the channel's bits.
    /// - Parameter maxSFB: the bands the stream codes (a channel pair shares it).
    /// - Returns: the bits of `individual_channel_stream()` without `ics_info()`.
    mutating func planSections(maxSFB: Int) -> Int {
        let books = AACSectionPlanner.codebookCount
        let impossible = AACSectionPlanner.impossible
        var sideBits = 8 + 3
        let coded = codedBands(maxSFB: maxSFB)
        quantized.withUnsafeBufferPointer { quantizedBuffer in
            guard let q = quantizedBuffer.baseAddress else { return }
            for band in coded {
                let start = offsets[band], count = offsets[band + 1] - start
                for c in 0..<books { costs[band * books + c] = impossible }
                if isNoise[band] {
                    costs[band * books + 13] = 0
                    continue
                }
                if !isCoded[band] {
                    costs[band * books] = 0
                    // Zeros in codebook 1 or 2 can join neighbouring sections (one more scalefactor bit).
                    costs[band * books + 1] = AACSpectralCoder.bits(q + start, count: count, codebook: 1) + 1
                    costs[band * books + 2] = AACSpectralCoder.bits(q + start, count: count, codebook: 2) + 1
                    continue
                }
                var largest: Int32 = 0
                for line in start..<(start + count) { largest = max(largest, abs(q[line])) }
                let first = AACSpectralCoder.smallestCodebook(forLargest: Int(largest))
                for c in first...min(first + 3, 11) {
                    costs[band * books + c] = AACSpectralCoder.bits(q + start, count: count, codebook: c)
                }
            }
        }
        var sectionBits = 0
        for band in 0..<codebooks.count { codebooks[band] = 0 }
        let lengthBits = sequence.isShort ? 3 : 5
        let bandsPerGroup = bandsPerGroup
        costs.withUnsafeBufferPointer { costBuffer in
            codebooks.withUnsafeMutableBufferPointer { codebookBuffer in
                guard let cost = costBuffer.baseAddress, let chosen = codebookBuffer.baseAddress else { return }
                for group in 0..<groupLengths.count {
                    let first = group * bandsPerGroup
                    sectionBits += AACSectionPlanner.plan(costs: cost + first * books, bands: maxSFB, lengthBits: lengthBits,
                                                          codebooks: chosen + first)
                }
            }
        }
        var last = globalGain
        let lengths = AACHuffmanCodebook.scalefactor.lengths
        for band in coded where isCoded[band] {
            sideBits += Int(lengths[scalefactors[band] - last + 60])
            last = scalefactors[band]
        }
        // Noise energies: the first as a 9-bit offset from global_gain − 90, then differences (±60).
        var noise = globalGain - 90
        var first = true
        for band in coded where isNoise[band] {
            let wanted = Int((2 * log2(Double(max(energies[band], 1)))).rounded())
            let value = first ? min(max(wanted, noise - 256, -100), noise + 255, 155) : min(max(wanted, noise - 60, -100), noise + 60, 155)
            sideBits += first ? 9 : Int(lengths[value - noise + 60])
            noiseEnergies[band] = value
            noise = value
            first = false
        }
        return sideBits + sectionBits
    }

    /// Writes `ics_info()` (§4.4.2.1, Table 4.6) of this frame's windows.
    /// - Parameters:
    ///   - maxSFB: `max_sfb`.
    ///   - writer: receives the bits.
    func writeInfo(maxSFB: Int, to writer: inout BitWriter) {
        writer.u(1, 0)  // ics_reserved_bit
        writer.u(2, UInt32(sequence.rawValue))
        writer.u(1, UInt32(windowShape.rawValue))
        if sequence.isShort {
            writer.u(4, UInt32(maxSFB))
            // scale_factor_grouping: bit 6 − i set when window i + 1 joins window i's group.
            var grouping: UInt32 = 0
            var window = 0
            for length in groupLengths {
                for member in 0..<length where member > 0 { grouping |= 1 << UInt32(6 - (window + member - 1)) }
                window += length
            }
            writer.u(7, grouping)
        } else {
            writer.u(6, UInt32(maxSFB))
            writer.u(1, 0)  // predictor_data_present
        }
    }

    /// The bits of ``writeInfo(maxSFB:to:)``: 11 for long windows, 15 for short ones.
    var infoBits: Int { sequence.isShort ? 15 : 11 }

    /// The bits of `tns_data()` after `tns_data_present` (0 without a filter).
    var tnsBits: Int { sequence.isShort ? 0 : (tns?.bits ?? 0) }

    /// Chooses and runs a temporal noise shaping filter over this window's spectrum (§4.6.9) from
    /// `startBand` to `endBand` when prediction gains enough; the thresholds and energies of the
    /// filtered bands follow the filtered spectrum, so each band keeps its signal-to-mask ratio. Only
    /// ONLY_LONG windows: LONG_START and LONG_STOP border an attack that short windows already carry, and
    /// there a filter on a tone's onset is so resonant that decoders' float rounding differs by 2^-13.5.
    /// - Parameters:
    ///   - startBand: the first band filtered.
    ///   - endBand: one past the last band filtered.
    mutating func shapeNoise(startBand: Int, endBand: Int) {
        shapeNoise(with: AACTNSFilter.design(spectrum: spectrum, offsets: longOffsets, startBand: startBand, endBand: endBand),
                   endBand: endBand)
    }

    /// Runs a given temporal noise shaping filter (one designed for a channel pair) as
    /// ``shapeNoise(startBand:endBand:)`` does.
    /// - Parameters:
    ///   - filter: the filter, or `nil` for none.
    ///   - endBand: one past the last band filtered.
    mutating func shapeNoise(with filter: AACTNSFilter?, endBand: Int) {
        tns = nil
        guard !sequence.isShort, let filter else { return }
        let startBand = filter.startBand
        tns = filter
        filter.apply(to: &spectrum, offsets: longOffsets, endBand: endBand)
        for band in startBand..<endBand {
            var energy: Float = 0
            for line in longOffsets[band]..<longOffsets[band + 1] { energy += spectrum[line] * spectrum[line] }
            if energies[band] > 0 { thresholds[band] *= energy / energies[band] }
            energies[band] = energy
        }
    }

    /// Writes `individual_channel_stream()` after ``planSections(maxSFB:)``.
    /// - Parameters:
    ///   - maxSFB: `max_sfb`.
    ///   - commonWindow: whether a channel pair's `ics_info()` came before (it is not repeated).
    ///   - writer: receives the bits.
    func write(maxSFB: Int, commonWindow: Bool, to writer: inout BitWriter) {
        writer.u(8, UInt32(globalGain))
        if !commonWindow { writeInfo(maxSFB: maxSFB, to: &writer) }
        // section_data()
        let lengthBits = sequence.isShort ? 3 : 5
        let escape = (1 << lengthBits) - 1
        for group in 0..<groupLengths.count {
            let first = group * bandsPerGroup
            var band = first
            while band < first + maxSFB {
                let book = codebooks[band]
                var end = band
                while end < first + maxSFB, codebooks[end] == book { end += 1 }
                writer.u(4, UInt32(book))
                var length = end - band
                while length >= escape { writer.u(lengthBits, UInt32(escape)); length -= escape }
                writer.u(lengthBits, UInt32(length))
                band = end
            }
        }
        let coded = codedBands(maxSFB: maxSFB)
        // scale_factor_data()
        let table = AACHuffmanCodebook.scalefactor
        var last = globalGain
        var noise = globalGain - 90
        var firstNoise = true
        for band in coded where codebooks[band] != 0 {
            if codebooks[band] == 13 {
                if firstNoise {
                    writer.u(9, UInt32(noiseEnergies[band] - noise + 256))  // dpcm_noise_nrg
                    firstNoise = false
                } else {
                    let index = noiseEnergies[band] - noise + 60
                    writer.writeBits(UInt64(table.codewords[index]), count: Int(table.lengths[index]))
                }
                noise = noiseEnergies[band]
                continue
            }
            let sf = isCoded[band] ? scalefactors[band] : last
            let index = sf - last + 60
            writer.writeBits(UInt64(table.codewords[index]), count: Int(table.lengths[index]))
            last = sf
        }
        writer.u(1, 0)  // pulse_data_present
        if let tns, !sequence.isShort {
            writer.u(1, 1)  // tns_data_present
            tns.write(bandCount: longOffsets.count - 1, to: &writer)
        } else {
            writer.u(1, 0)  // tns_data_present
        }
        writer.u(1, 0)  // gain_control_data_present
        // spectral_data()
        quantized.withUnsafeBufferPointer { quantizedBuffer in
            guard let q = quantizedBuffer.baseAddress else { return }
            for band in coded where codebooks[band] != 0 && codebooks[band] != 13 {
                let start = offsets[band]
                AACSpectralCoder.write(q + start, count: offsets[band + 1] - start, codebook: codebooks[band], to: &writer)
            }
        }
    }
}
