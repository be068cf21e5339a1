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
/// Y4M, WAV and raw-video file, and as an MP4 (FuzzTargets+MP4.swift). The byte view, the bit reader (random u(n) for n in 1...64, ue, se, driven
/// by the input) and the chunked scanner (cut where the input says) are checked against their invariants.
public enum FuzzTargets {
    /// Feeds `input` to every parser, or to those of the chosen families.
    /// - Parameters:
    ///   - input: arbitrary bytes.
    ///   - families: the groups of parsers to run; every group by default.
    public static func run(_ input: UnsafeBufferPointer<UInt8>, families: Set<FuzzFamily> = Set(FuzzFamily.allCases)) {
        let bytes = Array(input)
        if families.contains(.bitstream) {
            framing(bytes)
            views(bytes)
            bitIO(bytes)
        }
        if families.contains(.h264) { h264(bytes) }
        if families.contains(.hevc) { hevc(bytes) }
        if families.contains(.aac) { aac(bytes) }
        if families.contains(.aacDecoder) { aacDecoder(bytes) }
        if families.contains(.analysers) { analysers(bytes) }
        if families.contains(.files) { fileReaders(bytes) }
        if families.contains(.rtp) { rtp(bytes) }
        if families.contains(.rtpSession) { rtpSession(bytes) }
        if families.contains(.sdp) { sdpAndRTCP(bytes) }
        if families.contains(.rtsp) {
            rtsp(bytes)
            rtspURL(bytes)
            srtURL(bytes)
        }
        if families.contains(.hls) { hls(bytes) }
        if families.contains(.mp4) { mp4(bytes) }
        if families.contains(.flv) { flv(bytes); flvMedia(bytes) }
        if families.contains(.ts) { transportStream(bytes) }
        if families.contains(.rtmp) { rtmp(bytes) }
        if families.contains(.h264decoder) { h264Decoder(bytes) }
        if families.contains(.srtp) { srtp(bytes) }
        if families.contains(.dtls) { dtls(bytes) }
        if families.contains(.http) {
            http(bytes)
            httpURL(bytes)
        }
        if families.contains(.stun) { stun(bytes) }
        if families.contains(.webrtcSDP) { webrtcOffer(bytes) }
        if families.contains(.rtcpFeedback) { rtcpFeedback(bytes) }
        if families.contains(.whep) { whep(bytes) }
        if families.contains(.iceAgent) { iceAgent(bytes) }
        if families.contains(.whipAnswer) { whipAnswer(bytes) }
        if families.contains(.whip) { whip(bytes) }
        if families.contains(.webrtcReceive) { webrtcReceive(bytes) }
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

    /// Byte views: whole-buffer and chunked Annex B scans and AVCC framing as views must equal the range forms.
    static func views(_ bytes: [UInt8]) {
        let view = ByteView(bytes)
        let ranges = AnnexB.nalUnitRanges(in: bytes)
        let units = AnnexB.nalUnits(in: view)
        precondition(units.count == ranges.count, "view scan and range scan differ")
        for (unit, range) in zip(units, ranges) {
            precondition(unit.elementsEqual(bytes[range]), "a NAL unit view holds other bytes than its range")
            let rbsp = EmulationPrevention.rbsp(fromEBSP: unit)
            precondition(Array(rbsp) == EmulationPrevention.rbsp(fromEBSP: bytes[range]), "view RBSP differs")
            // The memchr scan (contiguous input) against the byte loop (a collection without contiguous storage).
            let loop = bytes[range].lazy.map { $0 }
            precondition(EmulationPrevention.rbsp(fromEBSP: loop) == Array(rbsp), "memchr scan differs from the byte loop")
            let fast = Result { () throws(EmulationPrevention.Failure) in try EmulationPrevention.checkedRBSP(fromEBSP: unit) }
            let slow = Result { () throws(EmulationPrevention.Failure) in try EmulationPrevention.checkedRBSP(fromEBSP: loop) }
            precondition(fast == slow, "checked memchr scan differs from the byte loop")
        }
        // The chunked scanner, cut where the input says (chunk sizes from its bytes), keeping every view.
        var scanner = AnnexBStreamScanner()
        var chunked: [ByteView] = []
        var positions: [AnnexBNALUnitPosition] = []
        var offset = 0
        var cut = 0
        bytes.withUnsafeBytes { buffer in
            while offset < bytes.count {
                let size = min(bytes.count - offset, 1 + Int(bytes[cut % bytes.count]) * (1 + cut % 7))
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + size)])
                if cut % 2 == 0 {
                    scanner.append(chunk) { unit, position in chunked.append(unit); positions.append(position) }
                } else {
                    scanner.append(readingUpTo: size, using: { room in room.copyMemory(from: chunk); return size }) { unit, position in
                        chunked.append(unit)
                        positions.append(position)
                    }
                }
                offset += size
                cut += 1
            }
        }
        scanner.finish { unit, position in chunked.append(unit); positions.append(position) }
        precondition(chunked == units, "chunked scan differs from the whole scan")
        // Each unit's position: its range's start, and a 4-byte start code exactly when a zero byte precedes `00 00 01`.
        precondition(positions.map(\.byteOffset) == ranges.map(\.lowerBound), "chunked scan positions differ from the ranges")
        for (position, range) in zip(positions, ranges) {
            let zeroByte = range.lowerBound >= 4 && bytes[range.lowerBound - 4] == 0
            precondition(position.startCodeOffset == range.lowerBound - (zeroByte ? 4 : 3), "start code offset differs")
        }
        for size in [1, 2, 4] {
            var framed: [ByteView] = []
            let failure: AVCC.Failure?
            do throws(AVCC.Failure) { try AVCC.forEachNALUnit(in: view, lengthSize: size) { framed.append($0) }; failure = nil } catch { failure = error }
            let ranges = try? AVCC.nalUnitRanges(in: bytes, lengthSize: size)
            precondition((failure == nil) == (ranges != nil), "AVCC view and range forms disagree on validity")
            if let ranges { precondition(framed.map(Array.init) == ranges.map { Array(bytes[$0]) }, "AVCC views differ") }
        }
        // Byte-view reads: past the end is nil, never a trap.
        var cursor = view
        var steps = 0
        while cursor.readableByteCount > 0, steps < 256 {
            let kind = cursor.peekByte() ?? 0
            switch kind % 4 {
            case 0: if cursor.readInteger(as: UInt32.self) == nil { _ = cursor.readByte() }
            case 1: if cursor.readView(byteCount: Int(kind >> 2)) == nil { _ = cursor.readByte() }
            case 2: _ = cursor.getInteger(at: Int(kind) * 31, endianness: .little, as: UInt64.self); _ = cursor.readByte()
            default: if cursor.readUnsignedBigEndian(byteCount: Int(kind >> 5)) == nil { _ = cursor.readByte() }
            }
            steps += 1
        }
    }

    /// The bit reader driven by the input: the first half chooses reads (u(n) for n in 1...64, ue, se, peeks),
    /// the whole input is read. Each u(n) is checked against a bit-at-a-time model, a failed read must not
    /// move, and what was read is written with BitWriter and read back identically.
    static func bitIO(_ bytes: [UInt8]) {
        enum Read { case u(Int, UInt64), ue(UInt32), se(Int32) }
        func modelBits(_ count: Int, at position: Int) -> UInt64 {
            var value: UInt64 = 0
            for bit in position..<(position + count) { value = value << 1 | UInt64(bytes[bit >> 3] >> UInt8(7 - bit & 7) & 1) }
            return value
        }
        var reader = BitReader(bytes)
        var reads: [Read] = []
        for op in bytes.prefix(bytes.count / 2 + 1) {
            let before = reader.bitPosition
            switch op % 4 {
            case 0, 1:
                let count = Int(op >> 2) + 1 - (op % 4 == 1 ? 0 : 32 * Int(op >> 7))  // 1...64
                let peeked = reader.peekBits(count)
                if let value = try? reader.u64(count, "fuzz_u") {
                    precondition(value == modelBits(count, at: before) && peeked == value, "u(\(count)) differs from the bit model")
                    reads.append(.u(count, value))
                } else {
                    precondition(reader.bitPosition == before && peeked == nil && reader.bitsRemaining < count, "failed u(n) moved or was wrong")
                }
            case 2:
                if let value = try? reader.ue("fuzz_ue") {
                    let zeros = (reader.bitPosition - before) / 2
                    precondition(modelBits(zeros + 1, at: before) == 1, "ue(v) prefix differs from the bit model")
                    reads.append(.ue(value))
                } else {
                    precondition(reader.bitPosition == before || reader.bitPosition > before, "position went back")
                }
            default:
                if let value = try? reader.se("fuzz_se") { reads.append(.se(value)) }
            }
            precondition(reader.bitsRemaining >= 0 && reader.bitPosition >= before, "reader position out of bounds")
        }
        var writer = BitWriter()
        for read in reads {
            switch read {
            case let .u(count, value): writer.u64(count, value)
            case let .ue(value): writer.ue(value)
            case let .se(value): writer.se(value)
            }
        }
        var again = BitReader(writer.bytes)
        for read in reads {
            switch read {
            case let .u(count, value): precondition((try? again.u64(count, "u")) == value, "u(n) does not round-trip")
            case let .ue(value): precondition((try? again.ue("ue")) == value, "ue(v) does not round-trip")
            case let .se(value): precondition((try? again.se("se")) == value, "se(v) does not round-trip")
            }
        }
        precondition(again.bitsRemaining < 8, "write → read left bits over")
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
