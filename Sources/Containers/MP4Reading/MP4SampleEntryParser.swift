import AAC
import Bitstream
import H264
import HEVC
import MediaCore
import Opus

/// Reads the first sample entry of a `stsd` box (ISO/IEC 14496-12 §8.5.2) into an ``MP4TrackFormat``, with the
/// codec modules: `avcC` through ``AVCDecoderConfigurationRecord`` (ISO/IEC 14496-15 §5.3.3), `hvcC` through
/// ``HEVCDecoderConfigurationRecord`` (§8.3.3), and `esds` (ISO/IEC 14496-1 §7.2.6.5 `ES_Descriptor`) down to its
/// DecoderSpecificInfo, read as an ``AudioSpecificConfig`` (ISO/IEC 14496-3 §1.6.2.1); `Opus` with its `dOps`
/// ("Encapsulation of Opus in ISO Base Media File Format" §4.3.2) through ``OpusIdentificationHeader``.
struct MP4SampleEntryParser {
    let bytes: ByteView

    struct Entry {
        var type: String
        var format: MP4TrackFormat
        var width = 0
        var height = 0
        var configurationNALUnits: [[UInt8]] = []
    }

    /// Parses `stsd`.
    func parse(stsd header: MP4BoxHeader, path: String) throws(MP4ReadError) -> Entry {
        var fields = MP4FieldReader(bytes: bytes, header: header, path: path)
        _ = try fields.fullBoxHeader()
        let entryCount = try fields.u32("entry_count")
        guard entryCount >= 1 else { throw fields.failure("entry_count is 0: the track has no sample description") }
        var entries = MP4BoxIterator(bytes: bytes, range: fields.position..<fields.end, parentPath: path)
        guard let entry = try entries.next() else { throw fields.failure("entry_count is \(entryCount) but no entry follows") }
        let entryPath = entries.path(of: entry)
        switch entry.type {
        case "avc1", "avc3", "hvc1", "hev1":
            return try parseVisual(entry, path: entryPath)
        case "mp4a":
            return try parseAudio(entry, path: entryPath)
        case "Opus":
            return try parseOpus(entry, path: entryPath)
        default:
            return Entry(type: entry.type, format: .unsupported(sampleEntry: entry.type))
        }
    }

    /// `VisualSampleEntry` (§12.1.3.2): 78 bytes of fixed fields, then boxes.
    private func parseVisual(_ entry: MP4BoxHeader, path: String) throws(MP4ReadError) -> Entry {
        var fields = MP4FieldReader(bytes: bytes, header: entry, path: path)
        try fields.skip(24, "reserved/data_reference_index/pre_defined")
        let width = Int(try fields.u16("width"))
        let height = Int(try fields.u16("height"))
        try fields.skip(50, "resolution/frame_count/compressorname/depth")
        var children = MP4BoxIterator(bytes: bytes, range: fields.position..<fields.end, parentPath: path)
        let isHEVC = entry.type == "hvc1" || entry.type == "hev1"
        let configType = isHEVC ? "hvcC" : "avcC"
        while let child = try children.next() {
            guard child.type == configType else { continue }
            let childPath = children.path(of: child)
            guard let view = bytes.getView(in: child.payloadRange) else { break }
            let record = Array(view)
            let (format, units) = isHEVC ? try hevcFormat(record, width: width, height: height, path: childPath, offset: child.offset)
                : try avcFormat(record, width: width, height: height, path: childPath, offset: child.offset)
            return Entry(type: entry.type, format: .video(format), width: width, height: height, configurationNALUnits: units)
        }
        throw .missingBox(path: path, box: configType)
    }

    private func avcFormat(_ record: [UInt8], width: Int, height: Int, path: String, offset: Int) throws(MP4ReadError) -> (FormatDescription, [[UInt8]]) {
        let configuration: AVCDecoderConfigurationRecord
        do { configuration = try AVCDecoderConfigurationRecord(bytes: record) } catch {
            throw .malformedBox(path: path, byteOffset: offset, reason: "\(error)")
        }
        // An `avc3` track may carry its parameter sets in band only; the entry's size stands then.
        do {
            let format = try FormatDescription(avcConfiguration: configuration, width: width, height: height)
            return (format, format.parameterSets)
        } catch {
            throw .malformedBox(path: path, byteOffset: offset, reason: "SPS: \(error)")
        }
    }

    private func hevcFormat(_ record: [UInt8], width: Int, height: Int, path: String, offset: Int) throws(MP4ReadError) -> (FormatDescription, [[UInt8]]) {
        let configuration: HEVCDecoderConfigurationRecord
        do { configuration = try HEVCDecoderConfigurationRecord(bytes: record) } catch {
            throw .malformedBox(path: path, byteOffset: offset, reason: "\(error)")
        }
        do {
            return (try FormatDescription(hevcConfiguration: configuration, width: width, height: height), configuration.arrays.flatMap(\.nalUnits))
        } catch {
            throw .malformedBox(path: path, byteOffset: offset, reason: "SPS: \(error)")
        }
    }

    /// `AudioSampleEntry` (§12.2.3.2): 28 bytes of fixed fields (16 or 36 more in QuickTime sound
    /// descriptions of version 1 or 2), then boxes; `esds` directly or inside QuickTime's `wave`.
    private func parseAudio(_ entry: MP4BoxHeader, path: String) throws(MP4ReadError) -> Entry {
        var fields = MP4FieldReader(bytes: bytes, header: entry, path: path)
        try fields.skip(8, "reserved/data_reference_index")
        let version = try fields.u16("version")
        try fields.skip(6, "revision/vendor")
        let channels = Int(try fields.u16("channelcount"))
        try fields.skip(6, "samplesize/pre_defined/reserved")
        let rate = Int(try fields.u32("samplerate") >> 16)
        if version == 1 { try fields.skip(16, "QuickTime sound description v1") }
        if version == 2 { try fields.skip(36, "QuickTime sound description v2") }
        guard let esds = try findESDS(in: fields.position..<fields.end, path: path, depth: 0) else {
            throw .missingBox(path: path, box: "esds")
        }
        let config = try audioSpecificConfig(esds.header, path: esds.path)
        let parsed: AudioSpecificConfig
        do { parsed = try AudioSpecificConfig.parse(config) } catch {
            throw .malformedBox(path: esds.path, byteOffset: esds.header.offset, reason: "AudioSpecificConfig: \(error)")
        }
        let profile = parsed.profileName ?? "\(parsed.audioObjectType)"
        let samplesPerFrame = parsed.gaSpecificConfig?.frameLengthFlag == true ? 960 : 1024
        let format = AudioFormatDescription(codec: .aac, sampleRate: parsed.outputSampleRate > 0 ? parsed.outputSampleRate : rate,
                                            channelCount: parsed.channelCount ?? channels, profile: profile,
                                            audioSpecificConfig: config, samplesPerFrame: samplesPerFrame)
        return Entry(type: entry.type, format: .audio(format))
    }

    /// The `Opus` sample entry (Opus in ISOBMFF §4.3.1): an AudioSampleEntry (28 bytes of fixed fields), then
    /// its `dOps` box. The format keeps the header as `OpusHead` (what FFmpeg's decoder takes as extradata),
    /// 48 kHz (§4.3.1), the output channel count, 960 samples a frame (20 ms, what encoders write by default; each
    /// sample's own duration is in `stts`) and the pre-skip as encoder delay.
    private func parseOpus(_ entry: MP4BoxHeader, path: String) throws(MP4ReadError) -> Entry {
        var fields = MP4FieldReader(bytes: bytes, header: entry, path: path)
        try fields.skip(28, "AudioSampleEntry fields")
        var children = MP4BoxIterator(bytes: bytes, range: fields.position..<fields.end, parentPath: path)
        while let child = try children.next() {
            guard child.type == "dOps" else { continue }
            guard let view = bytes.getView(in: child.payloadRange) else { break }
            let header: OpusIdentificationHeader
            do { header = try OpusIdentificationHeader(dOpsPayload: Array(view)) } catch {
                throw .malformedBox(path: children.path(of: child), byteOffset: child.offset + child.headerSize + error.byteOffset,
                                    reason: "\(error)")
            }
            let format = AudioFormatDescription(codec: .opus, sampleRate: 48000, channelCount: header.channelCount,
                                                profile: "Opus", audioSpecificConfig: header.opusHeadBytes(),
                                                samplesPerFrame: 960, encoderDelay: header.preSkip)
            return Entry(type: entry.type, format: .audio(format))
        }
        throw .missingBox(path: path, box: "dOps")
    }

    private func findESDS(in range: Range<Int>, path: String, depth: Int) throws(MP4ReadError) -> (header: MP4BoxHeader, path: String)? {
        var children = MP4BoxIterator(bytes: bytes, range: range, parentPath: path)
        while let child = try children.next() {
            if child.type == "esds" { return (child, children.path(of: child)) }
            if child.type == "wave", depth == 0,
               let found = try findESDS(in: child.payloadRange, path: children.path(of: child), depth: 1) {
                return found
            }
        }
        return nil
    }

    /// ES_Descriptor (tag 3) → DecoderConfigDescriptor (tag 4) → DecoderSpecificInfo (tag 5), ISO/IEC 14496-1
    /// §7.2.6.5–7; sizes are the expandable 1–4 byte form of §8.3.3.
    private func audioSpecificConfig(_ esds: MP4BoxHeader, path: String) throws(MP4ReadError) -> [UInt8] {
        var fields = MP4FieldReader(bytes: bytes, header: esds, path: path)
        _ = try fields.fullBoxHeader()
        func descriptor(_ expected: UInt8, _ name: String) throws(MP4ReadError) -> Int {
            let tag = try fields.u8("\(name) tag")
            guard tag == expected else { throw fields.failure("\(name): tag \(tag), expected \(expected)") }
            var size = 0
            for _ in 0..<4 {
                let byte = try fields.u8("\(name) size")
                size = size << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            guard size <= fields.remaining else {
                throw fields.failure("\(name): size \(size) is larger than the \(fields.remaining) bytes left")
            }
            return size
        }
        _ = try descriptor(3, "ES_Descriptor")
        try fields.skip(2, "ES_ID")
        let flags = try fields.u8("ES_Descriptor flags")
        if flags & 0x80 != 0 { try fields.skip(2, "dependsOn_ES_ID") }
        if flags & 0x40 != 0 { try fields.skip(Int(try fields.u8("URLlength")), "URLstring") }
        if flags & 0x20 != 0 { try fields.skip(2, "OCR_ES_Id") }
        _ = try descriptor(4, "DecoderConfigDescriptor")
        let objectType = try fields.u8("objectTypeIndication")
        // 0x40: ISO/IEC 14496-3 audio; 0x66…0x68: the MPEG-2 AAC profiles (ISO/IEC 13818-7), same config.
        guard objectType == 0x40 || (0x66...0x68).contains(objectType) else {
            throw fields.failure("objectTypeIndication 0x\(String(objectType, radix: 16)) is not AAC")
        }
        try fields.skip(12, "streamType/bufferSizeDB/maxBitrate/avgBitrate")
        let size = try descriptor(5, "DecoderSpecificInfo")
        guard let view = bytes.getView(at: fields.position, byteCount: size) else { throw fields.failure("DecoderSpecificInfo cut off") }
        return Array(view)
    }
}
