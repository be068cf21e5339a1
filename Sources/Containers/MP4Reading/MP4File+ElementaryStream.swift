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
    /// - Throws: ``ContainerWriteError/invalidConfiguration(_:)`` for another format,
    ///   ``ContainerWriteError/malformedFrame(frameIndex:_:)`` for a sample whose length prefixes do not fit it,
    ///   ``ContainerWriteError/adtsHeader(frameIndex:_:)`` / ``ContainerWriteError/audioSpecificConfig(frameIndex:_:)``
    ///   when ADTS cannot describe the audio, ``ContainerWriteError/io(_:)``.
    @discardableResult
    public func writeElementaryStream<Sink: ByteSink>(of track: MP4Track, to sink: inout Sink) throws(ContainerWriteError) -> Int {
        var framer = try MP4ElementaryStreamFramer(track: track)
        let samples = samples(of: track)
        for sample in samples { try framer.write(sample, to: &sink) }
        return samples.count
    }
}
