import AAC
import Bitstream

/// A pure-Swift AAC-LC decoder (ISO/IEC 14496-3 subpart 4, object type 2): raw data blocks in, 1024
/// PCM samples per channel out.
///
/// It decodes `raw_data_block()` (§4.4.2.1, Table 4.3) with single, pair and LFE channel elements,
/// data stream, fill and program config elements; joint stereo (M/S, intensity), perceptual noise
/// substitution, pulse data, TNS, and the filterbank with every window sequence and both window shapes;
/// channel configurations 1–7 or a program config element; every sampling rate of Table 4.82.
/// Coupling channel elements, HE-AAC and every object type other than AAC-LC are refused by name.
///
/// A damaged block (truncated, impossible Huffman data, a value out of range, a CRC mismatch) never
/// stops the stream: its output is concealed (the last frame's overlap fades out, then silence) and
/// its ``AACDecodedFrame/status`` says why. Memory is fixed after creation.
///
/// ```swift
/// var decoder = try NativeAACDecoder(adtsHeader: frame.header)
/// for frame in ADTSFrameScanner.scan(bytes).frames {
///     for decoded in decoder.decode(adtsFrame: frame) { use(decoded.channels) }
/// }
/// ```
public struct NativeAACDecoder: Sendable {
    /// The sampling rate in hertz.
    public let sampleRate: Int
    /// Where each element's channels go.
    public let layout: AACChannelLayout
    /// The number of output channels.
    public var channelCount: Int { layout.channelCount }
    /// The band table of the sampling rate.
    let bands: AACScalefactorBandTable
    /// What the decoder has seen so far.
    public private(set) var statistics = AACDecoderStatistics()

    private var streams: [AACChannelStream]
    private var filterbanks: [AACFilterbank]
    private var noise = AACNoiseGenerator()
    private var msUsed = [Bool](repeating: false, count: 8 * AACChannelStream.bandStride)
    private var filled: [Bool]
    /// The CRC-protected regions of the last block parsed (ISO/IEC 13818-7 §8.3, ISO/IEC 14496-3
    /// §1.A.3.2), in bits from the start of the block: what an ADTS `crc_check` covers besides the header.
    public private(set) var protectedRegions: [ADTSCRC.Region] = []
    private var padded: [UInt8] = []

    /// Creates a decoder for a stream described by an AudioSpecificConfig.
    /// - Parameter config: the stream's configuration.
    /// - Throws: ``NativeAACError/unsupportedObjectType(_:)`` for anything but AAC-LC without SBR/PS;
    ///   ``NativeAACError/unsupportedConfiguration(_:)`` for 960-sample frames, a core coder, or no
    ///   channel layout.
    public init(audioSpecificConfig config: AudioSpecificConfig) throws(NativeAACError) {
        if config.psPresent { throw .unsupportedObjectType(.ps) }
        if config.sbrPresent { throw .unsupportedObjectType(.sbr) }
        guard config.audioObjectType == .aacLC else { throw .unsupportedObjectType(config.audioObjectType) }
        if let ga = config.gaSpecificConfig {
            guard !ga.frameLengthFlag else { throw .unsupportedConfiguration("frameLengthFlag 1 (960-sample frames)") }
            guard !ga.dependsOnCoreCoder else { throw .unsupportedConfiguration("dependsOnCoreCoder 1") }
        }
        let layout: AACChannelLayout
        if let fixed = AACChannelLayout(configuration: config.channelConfiguration) {
            layout = fixed
        } else if let pce = config.gaSpecificConfig?.programConfigElement {
            layout = AACChannelLayout(programConfigElement: pce)
        } else {
            throw .unsupportedConfiguration("channel_configuration \(config.channelConfiguration.rawValue) without a program config element")
        }
        guard layout.channelCount > 0 else { throw .unsupportedConfiguration("the program config element has no channels") }
        let index: SamplingFrequencyIndex
        switch config.samplingFrequency {
        case let .index(value): index = value
        case let .explicit(hertz): index = Self.nearestIndex(hertz: Int(hertz))
        }
        self.init(samplingFrequencyIndex: index, sampleRate: config.samplingFrequency.hertz, layout: layout)
    }

    /// Creates a decoder for an ADTS stream from one of its headers.
    /// - Parameters:
    ///   - header: an ADTS header of the stream.
    ///   - programConfigElement: the stream's PCE, needed when `channel_configuration` is 0.
    /// - Throws: ``NativeAACError`` as ``init(audioSpecificConfig:)``.
    public init(adtsHeader header: ADTSHeader, programConfigElement: ProgramConfigElement? = nil) throws(NativeAACError) {
        guard header.audioObjectType == .aacLC else { throw .unsupportedObjectType(header.audioObjectType) }
        do {
            try self.init(audioSpecificConfig: try AudioSpecificConfig(adtsHeader: header, programConfigElement: programConfigElement))
        } catch let error as NativeAACError {
            throw error
        } catch {
            throw .unsupportedConfiguration("\(error)")
        }
    }

    /// Creates a decoder from a sampling frequency index and a channel layout.
    /// - Parameters:
    ///   - samplingFrequencyIndex: selects the band tables.
    ///   - sampleRate: the rate reported for the output.
    ///   - layout: the channel elements and output order.
    public init(samplingFrequencyIndex: SamplingFrequencyIndex, sampleRate: Int, layout: AACChannelLayout) {
        self.sampleRate = sampleRate
        self.layout = layout
        bands = AACScalefactorBandTable.forIndex(samplingFrequencyIndex)
        let channels = layout.elements.reduce(0) { $0 + ($1 == .pair ? 2 : 1) }
        streams = Array(repeating: AACChannelStream(), count: channels)
        filterbanks = Array(repeating: AACFilterbank(), count: channels)
        filled = Array(repeating: false, count: channels)
    }

    /// The table index of an explicitly coded rate (ISO/IEC 14496-3 §4.5.1.1, Table 4.82 ranges).
    static func nearestIndex(hertz: Int) -> SamplingFrequencyIndex {
        let limits = [92017, 75132, 55426, 46009, 37566, 27713, 23004, 18783, 13856, 11502, 9391]
        let index = limits.firstIndex { hertz >= $0 } ?? 11
        return SamplingFrequencyIndex(rawValue: UInt8(index)) ?? .hz8000
    }

    /// Decodes one raw data block (an access unit of an MP4/LATM/RTP stream, or the payload of a
    /// one-block ADTS frame without CRC).
    /// - Parameter block: the raw data block.
    /// - Returns: 1024 samples per channel, decoded or concealed.
    public mutating func decode<Bytes: Collection>(rawDataBlock block: Bytes) -> AACDecodedFrame where Bytes.Element == UInt8 {
        load(block)
        var reader = BitReader(padded)
        let limit = block.count * 8
        do {
            try parse(&reader, limit: limit)
        } catch {
            return conceal(error)
        }
        return synthesize()
    }

    /// Decodes every raw data block of an ADTS frame, checking its CRC when it has one.
    /// - Parameter frame: a whole ADTS frame.
    /// - Returns: one frame of PCM per raw data block (`number_of_raw_data_blocks_in_frame + 1`).
    public mutating func decode(adtsFrame frame: ADTSFrame) -> [AACDecodedFrame] {
        let header = frame.header
        let blockCount = header.numberOfRawDataBlocksInFrame + 1
        if blockCount == 1 {
            let payload = frame.payload
            load(payload)
            var reader = BitReader(padded)
            do {
                try parse(&reader, limit: payload.count * 8)
                if header.crcCheck != nil { try frame.verifyCRC(protectedRegions: protectedRegions) }
            } catch let error as ADTSError {
                if case let .crcMismatch(stored, computed) = error.reason { return [conceal(.crcMismatch(stored: stored, computed: computed))] }
                return [conceal(.invalidValue(field: error.field, bitOffset: error.byteOffset * 8, reason: "\(error.reason)"))]
            } catch let error as NativeAACError {
                return [conceal(error)]
            } catch {
                return [conceal(.unsupportedConfiguration("\(error)"))]
            }
            return [synthesize()]
        }
        if header.protectionAbsent {
            // Blocks follow one another; each ends byte-aligned after its END element.
            let payload = frame.payload
            load(payload)
            var reader = BitReader(padded)
            var frames: [AACDecodedFrame] = []
            var failed: NativeAACError?
            for _ in 0..<blockCount {
                if let failed {
                    frames.append(conceal(failed))
                    continue
                }
                do {
                    try parse(&reader, limit: payload.count * 8)
                    frames.append(synthesize())
                } catch {
                    failed = error
                    frames.append(conceal(error))
                }
            }
            return frames
        }
        guard let blocks = frame.rawDataBlocks else {
            return Array(repeating: conceal(.invalidValue(field: "raw_data_block_position", bitOffset: 56, reason: "blocks cannot be located")),
                         count: 1)
        }
        let stored = frame.rawDataBlockCRCs
        var frames: [AACDecodedFrame] = []
        for (index, block) in blocks.enumerated() {
            load(block)
            var reader = BitReader(padded)
            do throws(NativeAACError) {
                try parse(&reader, limit: block.count * 8)
                var crc = ADTSCRC()
                for region in protectedRegions {
                    let size = region.protectedBitCount ?? region.bitCount
                    let fed = max(0, min(region.bitCount, size))
                    crc.update(bitsOf: block, bitOffset: region.bitOffset, bitCount: fed)
                    crc.update(zeroBitCount: size - fed)
                }
                if index < stored.count, stored[index] != crc.value {
                    throw .crcMismatch(stored: stored[index], computed: crc.value)
                }
                frames.append(synthesize())
            } catch {
                frames.append(conceal(error))
            }
        }
        return frames
    }

    /// Forgets the overlap and noise state (a new stream, or a seek).
    public mutating func reset() {
        for index in filterbanks.indices { filterbanks[index].reset() }
        noise = AACNoiseGenerator()
    }

    // MARK: - Parsing

    /// Copies a block into the reusable buffer, with zero bytes after it so that look-ahead reads never
    /// run past the end.
    private mutating func load<Bytes: Collection>(_ block: Bytes) where Bytes.Element == UInt8 {
        padded.removeAll(keepingCapacity: true)
        padded.append(contentsOf: block)
        padded.append(contentsOf: repeatElement(0, count: 16))
    }

    /// Reads one `raw_data_block()` into the channel streams (inverse-quantised, joint stereo and noise
    /// applied), recording the CRC-protected regions.
    private mutating func parse(_ reader: inout BitReader, limit: Int) throws(NativeAACError) {
        let origin = reader.bitPosition
        for index in filled.indices { filled[index] = false }
        protectedRegions.removeAll(keepingCapacity: true)
        var used = [0, 0, 0]
        let firstChannels = layout.firstChannels
        var elementCount = 0
        while true {
            let elementStart = reader.bitPosition
            let id = try reader.aacBits(3, "id_syn_ele")
            elementCount += 1
            guard elementCount <= 256 else {
                throw .invalidValue(field: "id_syn_ele", bitOffset: elementStart, reason: "more than 256 elements in one raw data block")
            }
            let bodyStart = reader.bitPosition - origin
            switch id {
            case 0, 3:
                let kind: AACChannelLayout.ElementKind = id == 0 ? .single : .lowFrequency
                _ = try reader.aacBits(4, "element_instance_tag")
                let channel = try slot(kind, used: &used, firstChannels: firstChannels, at: elementStart)
                try streams[channel].parse(&reader, commonInfo: nil, bands: bands)
                try check(reader, limit: limit, element: id == 0 ? "single_channel_element" : "lfe_channel_element")
                noise.fill(&streams[channel], bands: bands)
                filled[channel] = true
                protectedRegions.append(ADTSCRC.Region(bitOffset: bodyStart, bitCount: reader.bitPosition - origin - bodyStart, protectedBitCount: 192))
            case 1:
                _ = try reader.aacBits(4, "element_instance_tag")
                let channel = try slot(.pair, used: &used, firstChannels: firstChannels, at: elementStart)
                try parsePair(&reader, first: channel, limit: limit, origin: origin, bodyStart: bodyStart)
                filled[channel] = true
                filled[channel + 1] = true
            case 2:
                throw .unsupportedElement("coupling_channel_element", bitOffset: elementStart - origin)
            case 4:
                _ = try reader.aacBits(4, "element_instance_tag")
                let align = try reader.aacFlag("data_byte_align_flag")
                var count = try reader.aacBits(8, "count")
                if count == 255 { count += try reader.aacBits(8, "esc_count") }
                if align { reader.alignToByte() }
                try skip(&reader, bytes: count, limit: limit, element: "data_stream_element")
                protectedRegions.append(ADTSCRC.Region(bitOffset: bodyStart, bitCount: reader.bitPosition - origin - bodyStart))
            case 5:
                do {
                    _ = try ProgramConfigElement.parse(from: &reader, alignmentOrigin: origin)
                } catch {
                    throw .invalidValue(field: error.field, bitOffset: error.bitOffset, reason: "program_config_element: \(error)")
                }
                try check(reader, limit: limit, element: "program_config_element")
                protectedRegions.append(ADTSCRC.Region(bitOffset: bodyStart, bitCount: reader.bitPosition - origin - bodyStart))
            case 6:
                var count = try reader.aacBits(4, "count")
                if count == 15 { count += try reader.aacBits(8, "esc_count") - 1 }
                try skip(&reader, bytes: count, limit: limit, element: "fill_element")
            default:
                // END: byte_alignment() follows, relative to the start of the block.
                let offset = (reader.bitPosition - origin) & 7
                if offset != 0 { reader.skipBits(8 - offset) }
                try check(reader, limit: limit, element: "raw_data_block")
                return
            }
        }
    }

    /// `channel_pair_element()` (§4.4.2.1, Table 4.5): a common `ics_info` and M/S mask when
    /// `common_window` is set, then both channels; noise, M/S and intensity stereo are applied.
    private mutating func parsePair(_ reader: inout BitReader, first channel: Int, limit: Int, origin: Int,
                                    bodyStart: Int) throws(NativeAACError) {
        let common = try reader.aacFlag("common_window")
        var commonInfo: AACICSInfo?
        var msMaskPresent = 0
        for index in msUsed.indices { msUsed[index] = false }
        if common {
            var info = AACICSInfo()
            try info.parse(&reader, bands: bands)
            commonInfo = info
            let start = reader.bitPosition
            msMaskPresent = try reader.aacBits(2, "ms_mask_present")
            switch msMaskPresent {
            case 1:
                for group in 0..<info.groupLengths.count {
                    for band in 0..<info.maxSFB {
                        msUsed[group * AACChannelStream.bandStride + band] = try reader.aacFlag("ms_used")
                    }
                }
            case 2:
                for index in msUsed.indices { msUsed[index] = true }
            case 3:
                throw .invalidValue(field: "ms_mask_present", bitOffset: start - origin, reason: "value 3 is reserved")
            default:
                break
            }
        }
        try streams[channel].parse(&reader, commonInfo: commonInfo, bands: bands)
        try check(reader, limit: limit, element: "channel_pair_element")
        let firstEnd = reader.bitPosition - origin
        try streams[channel + 1].parse(&reader, commonInfo: commonInfo, bands: bands)
        try check(reader, limit: limit, element: "channel_pair_element")
        protectedRegions.append(ADTSCRC.Region(bitOffset: bodyStart, bitCount: firstEnd - bodyStart, protectedBitCount: 192))
        protectedRegions.append(ADTSCRC.Region(bitOffset: firstEnd, bitCount: reader.bitPosition - origin - firstEnd, protectedBitCount: 128))
        noise.fill(&streams[channel], bands: bands)
        if common {
            noise.fill(&streams[channel + 1], bands: bands)
            if msMaskPresent != 0 {
                let info = streams[channel].info
                for group in 0..<info.groupLengths.count {
                    for band in 0..<info.maxSFB {
                        let index = group * AACChannelStream.bandStride + band
                        if msUsed[index], streams[channel].bandTypes[index] < AACBandType.noise,
                           streams[channel + 1].bandTypes[index] < AACBandType.noise { statistics.midSideBands += 1 }
                    }
                }
                let (msUsed, bands) = (msUsed, bands)
                streams.withUnsafeMutableBufferPointer { pair in
                    AACStereoProcessing.applyMidSide(&pair[channel], &pair[channel + 1], msUsed: msUsed, bands: bands)
                }
            }
            AACStereoProcessing.applyIntensity(streams[channel], &streams[channel + 1], msMaskPresent: msMaskPresent,
                                               msUsed: msUsed, bands: bands)
        } else {
            noise.fill(&streams[channel + 1], bands: bands)
        }
    }

    /// The first channel of the next element of a kind, in layout order.
    private func slot(_ kind: AACChannelLayout.ElementKind, used: inout [Int], firstChannels: [Int],
                      at bit: Int) throws(NativeAACError) -> Int {
        let counter = kind == .single ? 0 : (kind == .pair ? 1 : 2)
        var seen = 0
        for (index, element) in layout.elements.enumerated() where element == kind {
            if seen == used[counter] {
                used[counter] += 1
                return firstChannels[index]
            }
            seen += 1
        }
        throw .invalidValue(field: "id_syn_ele", bitOffset: bit,
                            reason: "more \(kind) elements than the channel configuration has")
    }

    private func check(_ reader: BitReader, limit: Int, element: String) throws(NativeAACError) {
        guard reader.bitPosition <= limit else { throw .truncated(element: element, bitOffset: limit) }
    }

    private func skip(_ reader: inout BitReader, bytes: Int, limit: Int, element: String) throws(NativeAACError) {
        guard reader.bitPosition + bytes * 8 <= limit else { throw .truncated(element: element, bitOffset: reader.bitPosition) }
        reader.skipBits(bytes * 8)
    }

    // MARK: - Synthesis

    /// TNS and the filterbank of every channel, after a block parsed; channels whose element was absent
    /// from the block are silent.
    private mutating func synthesize() -> AACDecodedFrame {
        var decoded = [[Float]](repeating: [Float](repeating: 0, count: 1024), count: streams.count)
        for channel in streams.indices {
            if filled[channel] { streams[channel].count(into: &statistics) }
            if !filled[channel] {
                for index in 0..<1024 { streams[channel].spectrum[index] = 0 }
            } else if streams[channel].tnsPresent {
                let stream = streams[channel]
                stream.tns.apply(to: &streams[channel].spectrum, info: stream.info, bands: bands)
            }
            let info = streams[channel].info
            decoded[channel].withUnsafeMutableBufferPointer { output in
                guard let base = output.baseAddress else { return }
                filterbanks[channel].synthesize(streams[channel].spectrum, sequence: info.windowSequence, shape: info.windowShape, into: base)
            }
        }
        statistics.decodedFrames += 1
        return AACDecodedFrame(channels: layout.outputOrder.map { decoded[$0] }, status: .decoded)
    }

    /// The output of a damaged block: every channel's overlap fades out through a silent long frame.
    private mutating func conceal(_ error: NativeAACError) -> AACDecodedFrame {
        var decoded = [[Float]](repeating: [Float](repeating: 0, count: 1024), count: streams.count)
        let silence = [Float](repeating: 0, count: 1024)
        for channel in streams.indices {
            let shape = filterbanks[channel].previousShape
            decoded[channel].withUnsafeMutableBufferPointer { output in
                guard let base = output.baseAddress else { return }
                filterbanks[channel].synthesize(silence, sequence: .onlyLong, shape: shape, into: base)
            }
        }
        statistics.concealedFrames += 1
        return AACDecodedFrame(channels: layout.outputOrder.map { decoded[$0] }, status: .concealed(error))
    }
}
