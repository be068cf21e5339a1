import MediaCore

/// Builds a fragmented MP4 (ISO/IEC 14496-12 §8.8) in memory, fragment by fragment: an
/// initialization segment (`ftyp` + `moov` with `mvex`/`trex` and empty sample tables), then one
/// ``MP4Fragment`` (`moof` with `mfhd` and a `traf` of `tfhd`/`tfdt`/`trun` per track, then `mdat`)
/// each time a fragment ends, and an `mfra` index at the end.
///
/// This is the core that ``FragmentedMP4Writer`` writes to a file, and that an HLS or DASH packager
/// uses to get the init segment and each media segment as separate blobs:
///
/// ```swift
/// var muxer = try FragmentedMP4Muxer(tracks: [.video(format)])
/// for frame in frames {
///     if let fragment = try muxer.append(frame, toTrack: 0) { segments.append(fragment.bytes()) }
/// }
/// if let last = try muxer.finish() { segments.append(last.bytes()) }
/// let initSegment = muxer.initializationSegment
/// ```
///
/// Samples are given per track in decode order; tracks may interleave in any order. A fragment ends
/// just before a key frame of the video track (see ``FragmentedMP4Options``), so each fragment starts
/// with one. The initialization segment is built when the first fragment ends, because the video
/// track's edit list (the B-frame delay) depends on its first sample; it is never `nil` once a
/// fragment has been returned.
///
/// Memory: the samples of one fragment (at most ``FragmentedMP4Options/maximumFragmentByteCount``
/// bytes; the sample arrays are held, not copied), and 24 bytes per fragment for the `mfra`.
public struct FragmentedMP4Muxer: Sendable {
    /// The tracks, in the order of their track IDs (1, 2, …).
    public let tracks: [MP4TrackDescription]
    /// How fragments are cut.
    public let options: FragmentedMP4Options
    /// `ftyp` + `moov`, available once the first fragment has ended (or after ``finish()``).
    public private(set) var initializationSegment: [UInt8]?
    /// The number of fragments handed out.
    public private(set) var fragmentCount = 0

    private var states: [TrackState]
    private let mainTrack: Int
    /// Bytes handed out so far (the initialization segment and the fragments), as if concatenated.
    private var byteOffset: Int64 = 0
    private var pendingByteCount = 0
    private var isFinished = false

    /// Creates a muxer.
    /// - Parameters:
    ///   - tracks: one or more tracks (at most one video track is the usual case; every track works).
    ///   - options: how fragments are cut.
    /// - Throws: ``ContainerWriteError/invalidConfiguration(_:)`` when there is no track or a track's
    ///   format cannot make a sample entry; ``ContainerWriteError/unsupportedCodec(_:frameIndex:)``.
    public init(tracks: [MP4TrackDescription], options: FragmentedMP4Options = FragmentedMP4Options()) throws(ContainerWriteError) {
        guard !tracks.isEmpty else { throw .invalidConfiguration("a fragmented MP4 needs at least one track") }
        for track in tracks {
            var scratch = MP4BoxBuilder()
            try MP4SampleEntry.writeDescriptionBox(for: track, bitRate: nil, into: &scratch)
        }
        self.tracks = tracks
        self.options = options
        states = tracks.map { TrackState($0) }
        mainTrack = tracks.firstIndex(where: \.isVideo) ?? 0
    }

    /// Adds a sample to a track; returns the fragment this sample closed, if it closed one (the sample
    /// itself then starts the next fragment).
    /// - Parameters:
    ///   - sample: the sample, after the track's previous one in decode order.
    ///   - index: the track's index in ``tracks``.
    /// - Returns: the finished fragment, or `nil`.
    /// - Throws: ``ContainerWriteError/invalidConfiguration(_:)`` for a track that does not exist,
    ///   ``ContainerWriteError/frameMismatch(frameIndex:reason:)`` when the decode time goes back,
    ///   ``ContainerWriteError/alreadyFinished`` after ``finish()``.
    public mutating func append(_ sample: MP4Sample, toTrack index: Int) throws(ContainerWriteError) -> MP4Fragment? {
        guard !isFinished else { throw .alreadyFinished }
        guard states.indices.contains(index) else {
            throw .invalidConfiguration("track \(index) does not exist (the muxer has \(states.count))")
        }
        let placement = try states[index].timeline.place(sample, trackIndex: index)
        var finished: MP4Fragment?
        if shouldEndFragment(before: sample, placement: placement, track: index) {
            finished = try endFragment(nextDecodeTime: (index, placement.decodeTime), cutTime: sample.dts)
        }
        var data = sample.data
        if sample.isKeyFrame, let prefix = states[index].inBandParameterSets { data = prefix + data }
        states[index].pending.append(Pending(placement: placement, dts: sample.dts, data: data, isSync: sample.isKeyFrame))
        pendingByteCount += data.count
        return finished
    }

    /// Adds a compressed picture to a video track (see ``append(_:toTrack:)-(MP4Sample,_)``).
    /// - Parameters:
    ///   - frame: the picture.
    ///   - index: the track's index.
    /// - Returns: the finished fragment, or `nil`.
    /// - Throws: as ``append(_:toTrack:)-(MP4Sample,_)``.
    public mutating func append(_ frame: EncodedFrame, toTrack index: Int) throws(ContainerWriteError) -> MP4Fragment? {
        try append(MP4Sample(frame), toTrack: index)
    }

    /// Adds an AAC frame to an audio track (see ``append(_:toTrack:)-(MP4Sample,_)``).
    /// - Parameters:
    ///   - frame: the access unit.
    ///   - index: the track's index.
    /// - Returns: the finished fragment, or `nil`.
    /// - Throws: as ``append(_:toTrack:)-(MP4Sample,_)``.
    public mutating func append(_ frame: EncodedAudioFrame, toTrack index: Int) throws(ContainerWriteError) -> MP4Fragment? {
        try append(MP4Sample(frame), toTrack: index)
    }

    /// Ends the last fragment. Afterwards ``initializationSegment`` is set and ``randomAccessIndex()``
    /// describes every fragment.
    /// - Returns: the last fragment, or `nil` when no sample was pending.
    /// - Throws: ``ContainerWriteError/alreadyFinished`` when called twice.
    public mutating func finish() throws(ContainerWriteError) -> MP4Fragment? {
        guard !isFinished else { throw .alreadyFinished }
        let last = states.contains(where: { !$0.pending.isEmpty }) ? try endFragment(nextDecodeTime: nil, cutTime: nil) : nil
        if initializationSegment == nil { try makeInitializationSegment() }
        isFinished = true
        return last
    }

    /// The `mfra` box (§8.8.9): for each track a `tfra` with the time and `moof` offset of every fragment
    /// whose first sample of that track is a sync sample, then `mfro`. Offsets count from the first byte
    /// of the initialization segment, with the fragments following it in order.
    /// - Returns: the box.
    public func randomAccessIndex() -> [UInt8] {
        var builder = MP4BoxBuilder()
        builder.box("mfra") { mfra in
            for (index, state) in states.enumerated() {
                mfra.fullBox("tfra", version: 1) { tfra in
                    tfra.uint32(UInt32(index + 1))
                    tfra.uint32(0)  // 1-byte traf, trun and sample numbers
                    tfra.uint32(UInt32(state.randomAccess.count))
                    for entry in state.randomAccess {
                        tfra.uint64(UInt64(max(0, entry.time)))
                        tfra.uint64(UInt64(entry.moofOffset))
                        tfra.uint8(UInt8(clamping: entry.trafNumber))
                        tfra.uint8(1)
                        tfra.uint8(1)
                    }
                }
            }
            mfra.fullBox("mfro") { $0.uint32(0) }
        }
        var bytes = builder.bytes
        let size = UInt32(bytes.count)
        bytes.replaceSubrange((bytes.count - 4)..<bytes.count, with: [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        return bytes
    }

    // MARK: - Cutting

    private func shouldEndFragment(before sample: MP4Sample, placement: MP4TrackTimeline.Placement, track index: Int) -> Bool {
        guard states.contains(where: { !$0.pending.isEmpty }) else { return false }
        let state = states[index]
        if let first = state.pending.first {
            let held = MediaTime(value: placement.decodeTime - first.placement.decodeTime, timescale: state.timeline.timescale)
            if !(held < options.maximumFragmentDuration) { return true }
        }
        if pendingByteCount + sample.data.count > options.maximumFragmentByteCount { return true }
        guard index == mainTrack, let first = state.pending.first else { return false }
        let held = MediaTime(value: placement.decodeTime - first.placement.decodeTime, timescale: state.timeline.timescale)
        if tracks[mainTrack].isVideo {
            return sample.isKeyFrame && !(held < (options.fragmentDuration ?? .zero))
        }
        return !(held < (options.fragmentDuration ?? MediaTime(value: 1, timescale: 1)))
    }

    // MARK: - Building

    private mutating func makeInitializationSegment() throws(ContainerWriteError) {
        let layouts = states.enumerated().map { index, state in
            MP4TrackLayout(description: tracks[index], trackID: UInt32(index + 1), mediaDuration: 0,
                           editMediaTime: state.editMediaTime, sampleTable: nil, bitRate: nil,
                           presentationDuration: 0)
        }
        let segment = MP4MovieBox.fileType(tracks: tracks, fragmented: true)
            + (try MP4MovieBox.movie(tracks: layouts, fragmented: true))
        initializationSegment = segment
        byteOffset = Int64(segment.count)
    }

    /// Ends the fragment of everything pending before `cutTime` (the decode time of the sample that
    /// ends it): samples of the other tracks from that time on wait for the next fragment, so the
    /// tracks of a fragment cover the same span even when one encoder runs ahead of the other.
    /// `nextDecodeTime` is the decode time, on its track's clock, of the sample that
    /// ends it, which gives its track's last pending sample its exact duration.
    private mutating func endFragment(nextDecodeTime: (track: Int, time: Int64)?,
                                      cutTime: MediaTime?) throws(ContainerWriteError) -> MP4Fragment {
        var held: [[Pending]] = Array(repeating: [], count: states.count)
        if let cutTime {
            for index in states.indices where index != nextDecodeTime?.track {
                if let split = states[index].pending.firstIndex(where: { !($0.dts < cutTime) }) {
                    held[index] = Array(states[index].pending[split...])
                    states[index].pending.removeSubrange(split...)
                }
            }
        }
        if initializationSegment == nil {
            for index in states.indices { states[index].fixEdit(tracks[index]) }
            try makeInitializationSegment()
        }
        fragmentCount += 1
        let sequenceNumber = fragmentCount
        var durations: [[Int64]] = []
        for (index, state) in states.enumerated() {
            let pending = state.pending
            var list: [Int64] = []
            list.reserveCapacity(pending.count)
            for position in pending.indices {
                if position + 1 < pending.count {
                    list.append(pending[position + 1].placement.decodeTime - pending[position].placement.decodeTime)
                } else if let next = held[index].first {
                    list.append(next.placement.decodeTime - pending[position].placement.decodeTime)
                } else if let next = nextDecodeTime, next.track == index {
                    list.append(next.time - pending[position].placement.decodeTime)
                } else if pending[position].placement.duration > 0 || position == 0 {
                    list.append(pending[position].placement.duration)
                } else {
                    list.append(list[position - 1])
                }
            }
            durations.append(list)
        }
        // moof
        var moof = MP4BoxBuilder(reservingCapacity: 256 + states.reduce(0) { $0 + $1.pending.count * 16 })
        var dataOffsetFields: [Int] = []
        var trafNumbers: [Int?] = Array(repeating: nil, count: states.count)
        moof.box("moof") { moof in
            moof.fullBox("mfhd") { $0.uint32(UInt32(truncatingIfNeeded: sequenceNumber)) }
            var trafNumber = 0
            for (index, state) in states.enumerated() where !state.pending.isEmpty {
                trafNumber += 1
                trafNumbers[index] = trafNumber
                moof.box("traf") { traf in
                    traf.fullBox("tfhd", flags: 0x02_0000) { $0.uint32(UInt32(index + 1)) }  // default-base-is-moof
                    traf.fullBox("tfdt", version: 1) { $0.uint64(UInt64(max(0, state.pending[0].placement.decodeTime))) }
                    let offsets = state.pending.map(\.placement.compositionOffset)
                    let hasOffsets = offsets.contains { $0 != 0 }
                    let negative = offsets.contains { $0 < 0 }
                    let flags: UInt32 = 0x1 | 0x100 | 0x200 | 0x400 | (hasOffsets ? 0x800 : 0)
                    traf.fullBox("trun", version: negative ? 1 : 0, flags: flags) { trun in
                        trun.uint32(UInt32(state.pending.count))
                        dataOffsetFields.append(trun.count)
                        trun.uint32(0)
                        for (position, sample) in state.pending.enumerated() {
                            trun.uint32(UInt32(clamping: durations[index][position]))
                            trun.uint32(UInt32(truncatingIfNeeded: sample.data.count))
                            // §8.8.3.1 sample flags: a sync sample depends on nothing; others depend and are non-sync.
                            trun.uint32(sample.isSync ? 0x0200_0000 : 0x0101_0000)
                            if hasOffsets {
                                if negative { trun.int32(Int32(clamping: sample.placement.compositionOffset)) } else {
                                    trun.uint32(UInt32(clamping: sample.placement.compositionOffset))
                                }
                            }
                        }
                    }
                }
            }
        }
        // data_offset: from the first byte of moof to each track's first sample in mdat.
        var dataOffset = moof.count + 8
        var payloads: [[UInt8]] = []
        var fieldIndex = 0
        var sampleCount = 0
        for state in states where !state.pending.isEmpty {
            moof.patchUInt32(UInt32(truncatingIfNeeded: dataOffset), at: dataOffsetFields[fieldIndex])
            fieldIndex += 1
            for sample in state.pending {
                dataOffset += sample.data.count
                payloads.append(sample.data)
            }
            sampleCount += state.pending.count
        }
        let mdatSize = 8 + payloads.reduce(0) { $0 + $1.count }
        // The main track (or the first that has samples) describes the fragment.
        let described = states[mainTrack].pending.isEmpty ? (states.firstIndex { !$0.pending.isEmpty } ?? mainTrack) : mainTrack
        let describedState = states[described]
        let timescale = describedState.timeline.timescale
        let startDecode = describedState.pending.first?.placement.decodeTime ?? 0
        let totalDuration = durations[described].reduce(0, +)
        let startsWithKey = describedState.pending.first?.isSync ?? false

        var header = MP4BoxBuilder(reservingCapacity: moof.count + 64)
        if options.writesSegmentIndex {
            let earliest = describedState.pending.map { $0.placement.decodeTime + $0.placement.compositionOffset }.min() ?? 0
            header.fullBox("sidx", version: 1) { sidx in
                sidx.uint32(UInt32(described + 1))
                sidx.uint32(UInt32(timescale))
                sidx.uint64(UInt64(max(0, earliest - (describedState.editMediaTime ?? 0))))
                sidx.uint64(0)  // first_offset
                sidx.uint16(0)
                sidx.uint16(1)  // reference_count
                sidx.uint32(UInt32(truncatingIfNeeded: moof.count + mdatSize) & 0x7FFF_FFFF)
                sidx.uint32(UInt32(clamping: totalDuration))
                sidx.uint32(startsWithKey ? 0x9000_0000 : 0)  // starts_with_SAP, SAP_type 1
            }
        }
        let moofOffset = byteOffset + Int64(header.count)
        header.append(moof.bytes)
        header.uint32(UInt32(truncatingIfNeeded: mdatSize))
        header.fourCC("mdat")

        for index in states.indices {
            if let first = states[index].pending.first, first.isSync, let traf = trafNumbers[index] {
                states[index].randomAccess.append((first.placement.decodeTime + first.placement.compositionOffset, moofOffset, traf))
            }
            states[index].pending = held[index]
        }
        pendingByteCount = held.reduce(0) { $0 + $1.reduce(0) { $0 + $1.data.count } }
        let fragment = MP4Fragment(sequenceNumber: sequenceNumber, startTime: MediaTime(value: startDecode, timescale: timescale),
                                   duration: MediaTime(value: totalDuration, timescale: timescale), startsWithKeyFrame: startsWithKey,
                                   sampleCount: sampleCount, header: header.bytes, payloads: payloads)
        byteOffset += Int64(fragment.byteCount)
        return fragment
    }
}

/// A sample waiting for its fragment to end.
private struct Pending: Sendable {
    var placement: MP4TrackTimeline.Placement
    /// The sample's decode time as given (to compare across tracks).
    var dts: MediaTime
    var data: [UInt8]
    var isSync: Bool
}

/// What the muxer keeps per track.
private struct TrackState: Sendable {
    var timeline: MP4TrackTimeline
    var pending: [Pending] = []
    var editMediaTime: Int64?
    /// For `hev1`: the parameter sets, length-prefixed, put before each key frame.
    let inBandParameterSets: [UInt8]?
    var randomAccess: [(time: Int64, moofOffset: Int64, trafNumber: Int)] = []

    init(_ track: MP4TrackDescription) {
        timeline = MP4TrackTimeline(timescale: track.timescale)
        if case let .video(format) = track.media, track.carriesParameterSetsInBand {
            inBandParameterSets = MP4InBandParameterSets.prefix(for: format)
        } else {
            inBandParameterSets = nil
        }
    }

    /// Sets the edit from what is known at the first fragment: the first video sample's composition
    /// offset (the B-frame delay), so presentation starts at 0.
    ///
    /// The audio encoder delay gets no edit here: players apply a fragmented file's edit list as a
    /// time shift without discarding the priming samples (FFmpeg's demuxer then starts the audio at
    /// −1024/rate), so, as FFmpeg's own fragmented output does, the priming is presented — about
    /// 21 ms of silence at 48 kHz, less than one video frame. The classic ``MP4Writer`` edits it out.
    mutating func fixEdit(_ track: MP4TrackDescription) {
        switch track.media {
        case .video:
            if let first = pending.first, first.placement.compositionOffset + first.placement.decodeTime > 0 {
                editMediaTime = first.placement.decodeTime + first.placement.compositionOffset
            }
        case .audio:
            editMediaTime = nil
        }
    }
}
