import Bitstream
import MediaCore

/// Writes a classic MP4 file (ISO/IEC 14496-12, -14 and -15): `ftyp`, the samples in one `mdat` as
/// they come, and at ``finish()`` the `moov` with every track's sample tables (`stts`, `ctts`, `stss`,
/// `stsc`, `stsz`, `stco`/`co64`) and edit lists that start presentation at 0 (the B-frame delay and
/// the AAC encoder delay, ISO/IEC 14496-12 §8.6.6). `mdat` switches to a 64-bit size past 4 GiB.
///
/// ```swift
/// var writer = try MP4Writer(path: "x.mp4", tracks: [.video(videoFormat), .audio(audioFormat)])
/// try writer.append(picture, toTrack: 0)
/// try writer.append(aacFrame, toTrack: 1)
/// try writer.finish()
/// ```
///
/// Until ``finish()`` the file has no `moov` and does not play; for a recording that must survive a
/// crash use ``FragmentedMP4Writer``. Memory: the sample tables, about 25 bytes a sample.
public struct MP4Writer<Sink: ByteSink> {
    /// The sink; with ``MemoryByteSink`` its `bytes` hold the file.
    public private(set) var sink: Sink
    /// The tracks, in the order of their track IDs (1, 2, …).
    public let tracks: [MP4TrackDescription]
    /// The layout options.
    public let options: MP4WriterOptions
    /// The number of samples written, all tracks together.
    public private(set) var sampleCount = 0

    private var timelines: [MP4TrackTimeline]
    private var tables: [MP4SampleTable]
    private let inBandParameterSets: [[UInt8]?]
    private var position: Int64 = 0
    private var lastTrack: Int?
    private let freeBoxOffset: Int64
    private var isFinished = false

    /// Creates a writer and writes `ftyp` and the `mdat` header.
    /// - Parameters:
    ///   - sink: where the file goes.
    ///   - tracks: one or more tracks (their indices are the `toTrack` of ``append(_:toTrack:)-(MP4Sample,_)``).
    ///   - options: faststart, `co64`.
    /// - Throws: ``ContainerWriteError/invalidConfiguration(_:)`` for no track, a format that makes no
    ///   sample entry, or faststart on a sink that cannot insert; ``ContainerWriteError/io(_:)``.
    public init(sink: Sink, tracks: [MP4TrackDescription], options: MP4WriterOptions = MP4WriterOptions()) throws(ContainerWriteError) {
        guard !tracks.isEmpty else { throw .invalidConfiguration("an MP4 file needs at least one track") }
        if options.faststart, !(Sink.self is any InsertingByteSink.Type) {
            throw .invalidConfiguration("faststart needs a sink that can insert bytes (FileByteSink, MemoryByteSink), not \(Sink.self)")
        }
        for track in tracks {
            var scratch = MP4BoxBuilder()
            try MP4SampleEntry.writeDescriptionBox(for: track, bitRate: nil, into: &scratch)
        }
        self.sink = sink
        self.tracks = tracks
        self.options = options
        timelines = tracks.map { MP4TrackTimeline(timescale: $0.timescale) }
        tables = Array(repeating: MP4SampleTable(), count: tracks.count)
        inBandParameterSets = tracks.map { track in
            if case let .video(format) = track.media, track.carriesParameterSetsInBand { return MP4InBandParameterSets.prefix(for: format) }
            return nil
        }
        let fileType = MP4MovieBox.fileType(tracks: tracks, fragmented: false)
        freeBoxOffset = Int64(fileType.count)
        // A `free` box that becomes the first half of a 16-byte `mdat` header past 4 GiB, then `mdat`.
        var header = MP4BoxBuilder()
        header.box("free") { _ in }
        header.uint32(0)
        header.fourCC("mdat")
        try write(fileType)
        try write(header.bytes)
    }

    /// Writes a sample of a track.
    /// - Parameters:
    ///   - sample: the sample, after the track's previous one in decode order.
    ///   - index: the track's index in ``tracks``.
    /// - Throws: ``ContainerWriteError/invalidConfiguration(_:)`` for a track that does not exist,
    ///   ``ContainerWriteError/frameMismatch(frameIndex:reason:)`` when the decode time goes back,
    ///   ``ContainerWriteError/alreadyFinished``, ``ContainerWriteError/io(_:)``.
    public mutating func append(_ sample: MP4Sample, toTrack index: Int) throws(ContainerWriteError) {
        try append(sample, body: nil, toTrack: index)
    }

    /// Writes a sample whose bytes are a view (an ``MP4FileSample`` of another file, a slice of a buffer):
    /// the bytes go from the view to the sink with no copy.
    /// - Parameters:
    ///   - data: the sample's bytes as the track stores them.
    ///   - dts: decode time.
    ///   - pts: presentation time.
    ///   - duration: the sample's duration.
    ///   - isKeyFrame: whether it is a sync sample (ISO/IEC 14496-12 §8.6.2).
    ///   - index: the track's index in ``tracks``.
    /// - Throws: as ``append(_:toTrack:)-(MP4Sample,_)``.
    public mutating func append(_ data: ByteView, dts: MediaTime, pts: MediaTime, duration: MediaTime, isKeyFrame: Bool,
                                toTrack index: Int) throws(ContainerWriteError) {
        let times = MP4Sample(data: [], dts: dts, pts: pts, duration: duration, isKeyFrame: isKeyFrame)
        try append(times, body: data, toTrack: index)
    }

    /// Writes `sample`'s times and either `body` (when given) or `sample.data`.
    private mutating func append(_ sample: MP4Sample, body: ByteView?, toTrack index: Int) throws(ContainerWriteError) {
        guard !isFinished else { throw .alreadyFinished }
        guard tracks.indices.contains(index) else {
            throw .invalidConfiguration("track \(index) does not exist (the writer has \(tracks.count))")
        }
        let placement = try timelines[index].place(sample, trackIndex: index)
        let offset = position
        var size = body?.count ?? sample.data.count
        if sample.isKeyFrame, let prefix = inBandParameterSets[index] {
            try write(prefix)
            size += prefix.count
        }
        if let body {
            let written: Result<Void, ContainerIOError> = body.withUnsafeBytes { raw in
                do throws(ContainerIOError) {
                    try sink.write(raw)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            if case let .failure(error) = written { throw .io(error) }
            position += Int64(body.count)
        } else {
            try write(sample.data)
        }
        tables[index].append(placement, size: size, isSync: sample.isKeyFrame, offset: offset, continuesChunk: lastTrack == index)
        lastTrack = index
        sampleCount += 1
    }

    /// Writes a compressed picture to a video track.
    /// - Parameters:
    ///   - frame: the picture.
    ///   - index: the track's index.
    /// - Throws: as ``append(_:toTrack:)-(MP4Sample,_)``.
    public mutating func append(_ frame: EncodedFrame, toTrack index: Int) throws(ContainerWriteError) {
        try append(MP4Sample(frame), toTrack: index)
    }

    /// Writes an AAC frame to an audio track.
    /// - Parameters:
    ///   - frame: the access unit.
    ///   - index: the track's index.
    /// - Throws: as ``append(_:toTrack:)-(MP4Sample,_)``.
    public mutating func append(_ frame: EncodedAudioFrame, toTrack index: Int) throws(ContainerWriteError) {
        try append(MP4Sample(frame), toTrack: index)
    }

    /// Fixes the `mdat` size, writes `moov` (after `mdat`, or before it with faststart) and closes the
    /// sink. Calling it again does nothing.
    /// - Throws: ``ContainerWriteError/io(_:)``.
    public mutating func finish() throws(ContainerWriteError) {
        guard !isFinished else { return }
        isFinished = true
        let mdatOffset = freeBoxOffset + 8
        do {
            let mdatSize = position - mdatOffset
            if mdatSize > Int64(UInt32.max) {
                var large = MP4BoxBuilder()
                large.uint32(1)
                large.fourCC("mdat")
                large.uint64(UInt64(position - freeBoxOffset))
                try sink.overwrite(large.bytes, at: Int(freeBoxOffset))
            } else {
                var size = MP4BoxBuilder()
                size.uint32(UInt32(mdatSize))
                try sink.overwrite(size.bytes, at: Int(mdatOffset))
            }
        } catch {
            throw .io(error)
        }
        let layouts = tracks.indices.map { index in layout(of: index) }
        if options.faststart {
            var movie = try MP4MovieBox.movie(tracks: layouts, fragmented: false, forcesLargeOffsets: options.usesLargeChunkOffsets)
            // Moving mdat may push an offset past 4 GiB (co64 is larger): settle the size.
            for _ in 0..<3 {
                let shifted = try MP4MovieBox.movie(tracks: layouts, fragmented: false, chunkOffsetShift: Int64(movie.count),
                                                    forcesLargeOffsets: options.usesLargeChunkOffsets)
                if shifted.count == movie.count { movie = shifted; break }
                movie = shifted
            }
            guard var inserting = sink as? any InsertingByteSink else {
                throw .invalidConfiguration("faststart needs a sink that can insert bytes")
            }
            do { try inserting.insert(movie, at: Int(freeBoxOffset)) } catch { throw .io(error) }
            if let updated = inserting as? Sink { sink = updated }
        } else {
            try write(try MP4MovieBox.movie(tracks: layouts, fragmented: false, forcesLargeOffsets: options.usesLargeChunkOffsets))
        }
        do { try sink.close() } catch { throw .io(error) }
    }

    /// What `moov` says about track `index`: durations, the edit that starts it at 0, the bit rate.
    private func layout(of index: Int) -> MP4TrackLayout {
        let table = tables[index]
        let track = tracks[index]
        var edit: Int64?
        switch track.media {
        case _ where track.editMediaTime != nil:
            if let fixed = track.editMediaTime, fixed != 0 { edit = fixed }
        case .video:
            let earliest = table.earliestCompositionTime
            if earliest != 0 { edit = earliest }
        case let .audio(format):
            if format.encoderDelay > 0 {
                edit = MediaTime(value: Int64(format.encoderDelay), timescale: Int32(clamping: max(1, format.sampleRate)))
                    .converted(to: track.timescale).value
            }
        }
        return MP4TrackLayout(description: track, trackID: UInt32(index + 1), mediaDuration: table.mediaDuration,
                              editMediaTime: edit, sampleTable: table,
                              bitRate: table.bitRate(timescale: track.timescale, average: track.averageBitRate),
                              presentationDuration: max(0, table.presentationEnd - max(0, edit ?? 0)))
    }

    private mutating func write(_ bytes: [UInt8]) throws(ContainerWriteError) {
        do { try sink.write(bytes) } catch { throw .io(error) }
        position += Int64(bytes.count)
    }
}

extension MP4Writer where Sink == FileByteSink {
    /// Creates (or truncates) an `.mp4` (`.m4v`, `.m4a`, `.mov`) file.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - tracks: the tracks.
    ///   - options: faststart, `co64`.
    /// - Throws: ``ContainerWriteError/io(_:)`` when the file cannot be created; as ``init(sink:tracks:options:)``.
    public init(path: String, tracks: [MP4TrackDescription], options: MP4WriterOptions = MP4WriterOptions()) throws(ContainerWriteError) {
        guard !tracks.isEmpty else { throw .invalidConfiguration("an MP4 file needs at least one track") }
        let sink: FileByteSink
        do { sink = try FileByteSink(path: path) } catch { throw .io(error) }
        try self.init(sink: sink, tracks: tracks, options: options)
    }
}
