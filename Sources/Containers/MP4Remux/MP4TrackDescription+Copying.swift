import MediaCore

extension MP4TrackDescription {
    /// The description that writes `track` of an ``MP4File`` again as it is: its format (`stsd`,
    /// ISO/IEC 14496-12 §8.5.2), its timescale (`mdhd`, §8.4.2), so that every sample time is kept to the tick,
    /// for audio the encoder delay the track's edit list skips (§8.6.6): the ticks its first sample is
    /// presented before 0, in samples of the sample rate; and an ``editMediaTime`` that keeps the track's
    /// decode and presentation times (a first decode time after 0 is not kept: the copy's starts at 0).
    ///
    /// An `hev1` track is written as `hvc1`: its samples keep whatever parameter sets they carry in band.
    /// - Parameters:
    ///   - track: the track.
    ///   - file: the file that holds it (for the first sample's time).
    /// - Returns: the description, `nil` for a track whose format the writer cannot write (``MP4TrackFormat/unsupported(sampleEntry:)``).
    public init?(copying track: MP4Track, of file: MP4File) {
        switch track.format {
        case let .video(format):
            self.init(media: .video(format), timescale: track.timescale, carriesParameterSetsInBand: false, averageBitRate: nil)
        case var .audio(format):
            let samples = file.samples(of: track)
            if let first = samples.first, first.presentationTime < 0, first.presentationTime > -MP4Remuxer.timeLimit, track.timescale > 0 {
                let rate = Int32(clamping: max(1, format.sampleRate))
                let delay = MediaTime(value: -first.presentationTime, timescale: track.timescale).converted(to: rate).value
                format.encoderDelay = Int(clamping: delay)
            }
            self.init(media: .audio(format), timescale: track.timescale, carriesParameterSetsInBand: false, averageBitRate: nil)
        case .unsupported:
            return nil
        }
        // The writer's decode times start at 0; the input's first one is where its edit list put it
        // (negative behind a B-frame or priming delay): an edit at minus that keeps every time.
        let firstDecodeTime = file.samples(of: track).first?.decodeTime ?? 0
        editMediaTime = firstDecodeTime < -MP4Remuxer.timeLimit ? MP4Remuxer.timeLimit : max(0, -firstDecodeTime)
    }
}
