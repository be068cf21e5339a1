import AAC
import Bitstream
import MediaCore

/// Frames one track's samples as its elementary stream, sample by sample: Annex B for H.264 / H.265 (the
/// `avcC` / `hvcC` NAL units before the first IDR / IRAP slice of a sample that carries no parameter sets of its
/// own, as ffmpeg's `h264_mp4toannexb` / `hevc_mp4toannexb` place them), ADTS for AAC (one reused 7-byte header,
/// only `aac_frame_length` changing, ISO/IEC 13818-7 §6.2.1).
struct MP4ElementaryStreamFramer {
    private enum Framing {
        case annexB(configuration: [UInt8], lengthSize: Int, isHEVC: Bool)
        case adts(header: [UInt8])
    }

    private var framing: Framing
    private static let startCode: [UInt8] = [0, 0, 0, 1]

    /// A framer for `track`.
    /// - Throws: ``ContainerWriteError`` for a format without an elementary stream form.
    init(track: MP4Track) throws(ContainerWriteError) {
        switch track.format {
        case let .video(format):
            var configuration: [UInt8] = []
            for unit in track.decoderConfigurationNALUnits { configuration += Self.startCode + unit }
            framing = .annexB(configuration: configuration, lengthSize: format.nalUnitLengthSize, isHEVC: format.codec == .hevc)
        case let .audio(format):
            guard format.codec == .aac else {
                throw .invalidConfiguration("track \(track.id): \(format.codec.rawValue) has no elementary stream form (ADTS is AAC's)")
            }
            let config: AudioSpecificConfig
            do { config = try AudioSpecificConfig.parse(format.audioSpecificConfig) } catch {
                throw .audioSpecificConfig(frameIndex: 0, error)
            }
            let header: [UInt8]
            do { header = try config.adtsHeader(payloadLength: 0).serialized() } catch { throw .adtsHeader(frameIndex: 0, error) }
            guard header.count == 7 else { throw .invalidConfiguration("ADTS header of \(header.count) bytes, expected 7") }
            framing = .adts(header: header)
        case .unsupported:
            throw .invalidConfiguration("track \(track.id): sample entry \(track.sampleEntryType) has no elementary stream form")
        }
    }

    /// Writes one sample.
    mutating func write<Sink: ByteSink>(_ sample: MP4FileSample, to sink: inout Sink) throws(ContainerWriteError) {
        switch framing {
        case let .annexB(configuration, lengthSize, isHEVC):
            try Self.writeAnnexB(sample, configuration: configuration, lengthSize: lengthSize, isHEVC: isHEVC, to: &sink)
        case var .adts(header):
            let length = sample.data.count + 7
            guard length < 1 << 13 else {
                throw .invalidConfiguration("sample \(sample.index): \(sample.data.count) bytes do not fit an ADTS frame")
            }
            framing = .adts(header: [])  // the header array stays uniquely referenced: changed in place, no copy
            header[3] = header[3] & 0xFC | UInt8(length >> 11)
            header[4] = UInt8(truncatingIfNeeded: length >> 3)
            header[5] = header[5] & 0x1F | UInt8(truncatingIfNeeded: length << 5)
            defer { framing = .adts(header: header) }
            do throws(ContainerIOError) {
                try sink.write(header)
                try sample.data.withUnsafeBytes { (buffer) throws(ContainerIOError) in try sink.write(buffer) }
            } catch {
                throw .io(error)
            }
        }
    }

    private static func writeAnnexB<Sink: ByteSink>(_ sample: MP4FileSample, configuration: [UInt8], lengthSize: Int, isHEVC: Bool,
                                                    to sink: inout Sink) throws(ContainerWriteError) {
        var failure: ContainerWriteError?
        do {
            try sample.data.withUnsafeBytes { (buffer) throws(AVCC.Failure) in
                var inserted = false
                var sawParameterSet = false
                try AVCC.forEachNALUnit(in: buffer, lengthSize: lengthSize) { range in
                    guard failure == nil else { return }
                    let first = buffer[range.lowerBound]
                    let type = isHEVC ? Int(first >> 1) & 0x3F : Int(first & 0x1F)
                    // H.264 §7.4.1.2: 7/8 SPS/PPS, 5 IDR slice; H.265 §7.4.2.2: 32–34 VPS/SPS/PPS, 16–23 IRAP.
                    let isParameterSet = isHEVC ? (32...34).contains(type) : type == 7 || type == 8
                    let isRandomAccess = isHEVC ? (16...23).contains(type) : type == 5
                    sawParameterSet = sawParameterSet || isParameterSet
                    do throws(ContainerIOError) {
                        if isRandomAccess, !inserted, !sawParameterSet, !configuration.isEmpty { try sink.write(configuration) }
                        if isRandomAccess { inserted = true }
                        try sink.write(startCode)
                        try sink.write(UnsafeRawBufferPointer(rebasing: buffer[range]))
                    } catch {
                        failure = .io(error)
                    }
                }
            }
        } catch {
            throw .malformedFrame(frameIndex: sample.index, error)
        }
        if let failure { throw failure }
    }
}
