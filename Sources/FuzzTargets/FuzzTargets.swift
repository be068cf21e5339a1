import AAC
import Bitstream
import Containers
import H264
import HEVC

/// What one fuzz input goes through: every parser of the bitstream layer, each of which must return or
/// throw a typed error — never trap, hang or read out of bounds.
///
/// The whole input is read as an Annex B stream by both analysers and as ADTS; its NAL units are fed to
/// every parameter-set parser of both codecs (and what parses is written back and parsed again); the
/// input is also read as an avcC, an hvcC and an AudioSpecificConfig, as AVCC with each length size, and as a
/// Y4M, WAV and raw-video file.
public enum FuzzTargets {
    /// Feeds `input` to every parser.
    /// - Parameter input: arbitrary bytes.
    public static func run(_ input: UnsafeBufferPointer<UInt8>) {
        let bytes = Array(input)
        framing(bytes)
        h264(bytes)
        hevc(bytes)
        aac(bytes)
        analysers(bytes)
        fileReaders(bytes)
    }

    /// The Y4M, WAV and raw-video readers, reading every frame until the end or a typed error.
    static func fileReaders(_ bytes: [UInt8]) {
        if var y4m = try? Y4MReader(data: bytes) {
            while (try? y4m.nextFrame()) != nil {}
        }
        if var wav = try? WAVReader(data: bytes) {
            while (try? wav.read(maxFrameCount: 512)) != nil {}
        }
        if var raw = try? RawVideoReader(data: bytes, width: 16, height: 8, format: .nv12) {
            while (try? raw.nextFrame()) != nil {}
        }
    }

    /// Annex B (whole and chunked), AVCC with every length size, emulation prevention, Exp-Golomb.
    static func framing(_ bytes: [UInt8]) {
        let ranges = AnnexB.nalUnitRanges(in: bytes)
        var scanner = AnnexBStreamScanner(maximumNALUnitSize: 4096)
        let split = bytes.count / 3
        var units = scanner.append(bytes[..<split])
        units += scanner.append(bytes[split...])
        if let last = scanner.finish() { units.append(last) }
        precondition(units.count <= ranges.count, "the chunked scanner found units the whole scan did not")
        for size in [1, 2, 4] { _ = try? AVCC.nalUnitRanges(in: bytes, lengthSize: size) }
        _ = try? AVCC.avcc(fromAnnexB: bytes, lengthSize: 2)
        for range in ranges.prefix(16) {
            let rbsp = EmulationPrevention.rbsp(fromEBSP: bytes[range])
            _ = try? EmulationPrevention.checkedRBSP(fromEBSP: bytes[range])
            var reader = BitReader(rbsp)
            while (try? reader.ue("x")) != nil, reader.bitsRemaining > 0 {}
            _ = reader.hasMoreRBSPData()
        }
    }

    /// Every H.264 parser on every NAL unit; what parses must write back to something that parses.
    static func h264(_ bytes: [UInt8]) {
        var detector = H264AccessUnitDetector()
        var parameterSets = H264ParameterSets()
        for range in AnnexB.nalUnitRanges(in: bytes).prefix(64) {
            let unit = bytes[range]
            _ = try? detector.process(unit)
            if let sps = try? H264SequenceParameterSet(nalUnit: unit) {
                precondition((try? H264SequenceParameterSet(nalUnit: sps.nalUnit())) == sps, "SPS does not survive write → parse")
                parameterSets.insert(sps)
            }
            if let pps = try? H264PictureParameterSet(nalUnit: unit, parameterSets: parameterSets) {
                _ = try? H264PictureParameterSet(nalUnit: pps.nalUnit(), parameterSets: parameterSets)
                parameterSets.insert(pps)
            }
            let messages = (try? H264SEIMessage.messages(inNALUnit: unit)) ?? []
            if let sps = parameterSets.sequenceParameterSets.values.first {
                for message in messages where message.payloadType == .picTiming {
                    _ = try? H264PictureStructureSEI.read(fromPictureTimingPayload: message.payload, sequenceParameterSet: sps)
                }
            }
            _ = try? H264SliceHeader(nalUnit: unit, parameterSets: parameterSets)
        }
        _ = H264FieldOrder.of(annexBStream: Array(bytes.prefix(1 << 16)))
        if let record = try? AVCDecoderConfigurationRecord(bytes: bytes) { _ = try? AVCDecoderConfigurationRecord(bytes: record.bytes()) }
    }

    /// Every H.265 parser on every NAL unit; what parses must write back to something that parses.
    static func hevc(_ bytes: [UInt8]) {
        var parameterSets = HEVCParameterSets()
        var detector = HEVCAccessUnitDetector()
        for range in AnnexB.nalUnitRanges(in: bytes).prefix(64) {
            let unit = bytes[range]
            _ = try? detector.startsNewAccessUnit(unit)
            if let vps = try? HEVCVideoParameterSet(nalUnit: unit) { _ = try? HEVCVideoParameterSet(nalUnit: vps.nalUnit()) }
            if let sps = try? HEVCSequenceParameterSet(nalUnit: unit) {
                precondition((try? HEVCSequenceParameterSet(nalUnit: sps.nalUnit())) == sps, "SPS does not survive write → parse")
            }
            if let pps = try? HEVCPictureParameterSet(nalUnit: unit) { _ = try? HEVCPictureParameterSet(nalUnit: pps.nalUnit()) }
            _ = try? parameterSets.insert(nalUnit: unit)
            _ = try? HEVCSliceSegmentHeader(nalUnit: unit, parameterSets: parameterSets)
        }
        if let record = try? HEVCDecoderConfigurationRecord(bytes: bytes) { _ = try? HEVCDecoderConfigurationRecord(bytes: record.bytes()) }
    }

    /// ADTS (whole and chunked) and AudioSpecificConfig.
    static func aac(_ bytes: [UInt8]) {
        let whole = ADTSFrameScanner.scan(bytes)
        var scanner = ADTSFrameScanner()
        var events = scanner.append(bytes[..<(bytes.count / 2)])
        events += scanner.append(bytes[(bytes.count / 2)...])
        events += scanner.finish()
        precondition(ADTSScanResult(events: events).frames.count == whole.frames.count, "chunked ADTS scan differs")
        for frame in whole.frames.prefix(8) { _ = try? ADTSHeader.parse(frame.header.serialized()) }
        if let config = try? AudioSpecificConfig.parse(bytes), let written = try? config.serialized() {
            _ = try? AudioSpecificConfig.parse(written)
        }
    }

    /// The `inspect` analysers over the whole input, whatever format it claims to be; the chunked video
    /// analyser must find the same events whatever the chunk size, and the NAL unit offsets a whole-buffer
    /// scan finds.
    static func analysers(_ bytes: [UInt8]) {
        _ = ElementaryStreamFormat.detect(bytes)
        let whole = VideoStreamAnalyzer.analyze(bytes, format: .h264AnnexB, listNALUnits: true)
        precondition(whole.nalUnits.map(\.byteOffset) == AnnexB.nalUnitRanges(in: bytes).map(\.lowerBound), "NAL unit offsets differ")
        var chunked = VideoStreamAnalyzer(format: .h264AnnexB, reportsNALUnits: true)
        var frames: [FrameSummary] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 1 + start % 5)
            chunked.append(Array(bytes[start..<end])) { if case let .frame(frame) = $0 { frames.append(frame) } }
            start = end
        }
        _ = chunked.finish { if case let .frame(frame) = $0 { frames.append(frame) } }
        precondition(frames == whole.frames, "chunked analysis differs")
        _ = VideoStreamAnalyzer.analyze(bytes, format: .hevcAnnexB, listNALUnits: true)
        _ = ADTSStreamAnalyzer.analyze(bytes)
    }
}
