import AAC
import Bitstream
import MediaCore

extension MP4File {
    /// Writes one track's samples, unchanged, as an elementary stream — what `ffmpeg -c copy -f h264` (or
    /// `-f hevc`, `-f adts`) makes of the track: for H.264 / H.265 an Annex B byte stream (ITU-T H.264 Annex B,
    /// H.265 Annex B) with the `avcC` / `hvcC` NAL units (``MP4Track/decoderConfigurationNALUnits``) before the
    /// first IDR / IRAP slice of each sample that does not carry its own parameter sets; for AAC an ADTS stream
    /// (ISO/IEC 14496-3 §1.A.3.2, no CRC) built from the track's AudioSpecificConfig.
    ///
    /// The samples' bytes go from the file's mapping to the sink without a copy per sample.
    /// - Parameters:
    ///   - track: a video (H.264, H.265) or AAC track of this file.
    ///   - sink: where the stream goes; it is not closed.
    /// - Returns: the number of samples written.
    /// - Throws: ``ContainerWriteError/unsupportedCodec(_:frameIndex:)`` for another format,
    ///   ``ContainerWriteError/malformedFrame(frameIndex:_:)`` for a sample whose length prefixes do not fit it,
    ///   ``ContainerWriteError/adtsHeader(frameIndex:_:)`` / ``ContainerWriteError/audioSpecificConfig(frameIndex:_:)``
    ///   when ADTS cannot describe the audio, ``ContainerWriteError/io(_:)``.
    @discardableResult
    public func writeElementaryStream<Sink: ByteSink>(of track: MP4Track, to sink: inout Sink) throws(ContainerWriteError) -> Int {
        switch track.format {
        case let .video(format):
            return try writeAnnexB(track, lengthSize: format.nalUnitLengthSize, isHEVC: format.codec == .hevc, to: &sink)
        case let .audio(format):
            return try writeADTS(track, format: format, to: &sink)
        case .unsupported:
            throw .invalidConfiguration("track \(track.id): sample entry \(track.sampleEntryType) has no elementary stream form")
        }
    }

    private func writeAnnexB<Sink: ByteSink>(_ track: MP4Track, lengthSize: Int, isHEVC: Bool,
                                             to sink: inout Sink) throws(ContainerWriteError) -> Int {
        let startCode: [UInt8] = [0, 0, 0, 1]
        var configuration: [UInt8] = []
        for unit in track.decoderConfigurationNALUnits {
            configuration += startCode
            configuration += unit
        }
        let samples = samples(of: track)
        for sample in samples {
            var failure: ContainerWriteError?
            do {
                try sample.data.withUnsafeBytes { (buffer) throws(AVCC.Failure) in
                    var inserted = false
                    var sawParameterSet = false
                    try AVCC.forEachNALUnit(in: buffer, lengthSize: lengthSize) { range in
                        guard failure == nil else { return }
                        let type = isHEVC ? Int(buffer[range.lowerBound] >> 1) & 0x3F : Int(buffer[range.lowerBound] & 0x1F)
                        // H.264 §7.4.1.2: 7/8 SPS/PPS, 5 IDR slice; H.265 §7.4.2.2: 32–34 VPS/SPS/PPS, 16–23 IRAP.
                        let isParameterSet = isHEVC ? (32...34).contains(type) : type == 7 || type == 8
                        let isRandomAccess = isHEVC ? (16...23).contains(type) : type == 5
                        sawParameterSet = sawParameterSet || isParameterSet
                        do throws(ContainerIOError) {
                            if isRandomAccess, !inserted, !sawParameterSet, !configuration.isEmpty {
                                try sink.write(configuration)
                            }
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
        return samples.count
    }

    private func writeADTS<Sink: ByteSink>(_ track: MP4Track, format: AudioFormatDescription,
                                           to sink: inout Sink) throws(ContainerWriteError) -> Int {
        let config: AudioSpecificConfig
        do { config = try AudioSpecificConfig.parse(format.audioSpecificConfig) } catch {
            throw .audioSpecificConfig(frameIndex: 0, error)
        }
        let samples = samples(of: track)
        var header: [UInt8]
        do { header = try config.adtsHeader(payloadLength: 0).serialized() } catch { throw .adtsHeader(frameIndex: 0, error) }
        guard header.count == 7 else { throw .invalidConfiguration("ADTS header of \(header.count) bytes, expected 7") }
        for sample in samples {
            // aac_frame_length (13 bits, header included) spans bytes 3–5 (ISO/IEC 13818-7 §6.2.1); the header
            // is reused, only that field changes.
            let length = sample.data.count + 7
            guard length < 1 << 13 else {
                throw .invalidConfiguration("sample \(sample.index): \(sample.data.count) bytes do not fit an ADTS frame")
            }
            header[3] = header[3] & 0xFC | UInt8(length >> 11)
            header[4] = UInt8(truncatingIfNeeded: length >> 3)
            header[5] = header[5] & 0x1F | UInt8(truncatingIfNeeded: length << 5)
            do throws(ContainerIOError) {
                try sink.write(header)
                try sample.data.withUnsafeBytes { (buffer) throws(ContainerIOError) in try sink.write(buffer) }
            } catch {
                throw .io(error)
            }
        }
        return samples.count
    }
}
