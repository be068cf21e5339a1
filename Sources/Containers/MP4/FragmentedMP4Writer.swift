import MediaCore

/// Writes a fragmented MP4 file (ISO/IEC 14496-12 §8.8) that survives a crash: `ftyp` + `moov`
/// (with `mvex`), then `moof` + `mdat` per fragment, each written and flushed to the sink (the bytes
/// reach the kernel) before the next fragment begins, so a process killed at any moment leaves a file
/// that plays up to its last complete fragment. ``finish()`` ends the last fragment and adds an `mfra`.
///
/// ```swift
/// var writer = try FragmentedMP4Writer(path: "x.mp4", tracks: [.video(videoFormat), .audio(audioFormat)])
/// try writer.append(picture, toTrack: 0)
/// try writer.append(aacFrame, toTrack: 1)
/// try writer.finish()
/// ```
///
/// The fragments themselves come from a ``FragmentedMP4Muxer``; ``onFragment`` sees each one as it
/// is written.
public struct FragmentedMP4Writer<Sink: ByteSink> {
    /// The sink; with ``MemoryByteSink`` its `bytes` hold the file.
    public private(set) var sink: Sink
    /// The muxer that cuts the fragments.
    public private(set) var muxer: FragmentedMP4Muxer
    /// Called after each fragment has been written and flushed (for a progress line or a playlist).
    public var onFragment: ((MP4Fragment) -> Void)?
    /// The number of bytes written.
    public private(set) var byteCount = 0
    private var isFinished = false

    /// Creates a writer; nothing is written until the first fragment ends.
    /// - Parameters:
    ///   - sink: where the file goes.
    ///   - tracks: the tracks (their indices are the `toTrack` of ``append(_:toTrack:)-(MP4Sample,_)``).
    ///   - options: how fragments are cut.
    /// - Throws: as ``FragmentedMP4Muxer/init(tracks:options:)``.
    public init(sink: Sink, tracks: [MP4TrackDescription], options: FragmentedMP4Options = FragmentedMP4Options()) throws(ContainerWriteError) {
        self.sink = sink
        muxer = try FragmentedMP4Muxer(tracks: tracks, options: options)
    }

    /// Adds a sample to a track, writing the fragment it closes.
    /// - Parameters:
    ///   - sample: the sample, after the track's previous one in decode order.
    ///   - index: the track's index.
    /// - Throws: as ``FragmentedMP4Muxer/append(_:toTrack:)-(MP4Sample,_)``; ``ContainerWriteError/io(_:)``.
    public mutating func append(_ sample: MP4Sample, toTrack index: Int) throws(ContainerWriteError) {
        guard !isFinished else { throw .alreadyFinished }
        if let fragment = try muxer.append(sample, toTrack: index) { try write(fragment) }
    }

    /// Adds a compressed picture to a video track.
    /// - Parameters:
    ///   - frame: the picture.
    ///   - index: the track's index.
    /// - Throws: as ``append(_:toTrack:)-(MP4Sample,_)``.
    public mutating func append(_ frame: EncodedFrame, toTrack index: Int) throws(ContainerWriteError) {
        try append(MP4Sample(frame), toTrack: index)
    }

    /// Adds an AAC frame to an audio track.
    /// - Parameters:
    ///   - frame: the access unit.
    ///   - index: the track's index.
    /// - Throws: as ``append(_:toTrack:)-(MP4Sample,_)``.
    public mutating func append(_ frame: EncodedAudioFrame, toTrack index: Int) throws(ContainerWriteError) {
        try append(MP4Sample(frame), toTrack: index)
    }

    /// Writes the last fragment and the `mfra` (if the options ask for it), and closes the sink.
    /// Calling it again does nothing.
    /// - Throws: ``ContainerWriteError/io(_:)``.
    public mutating func finish() throws(ContainerWriteError) {
        guard !isFinished else { return }
        isFinished = true
        let last = try muxer.finish()
        if byteCount == 0, let initialization = muxer.initializationSegment { try write(bytes: initialization) }
        if let last { try write(last) }
        if muxer.options.writesRandomAccessIndex { try write(bytes: muxer.randomAccessIndex()) }
        do { try sink.close() } catch { throw .io(error) }
    }

    private mutating func write(_ fragment: MP4Fragment) throws(ContainerWriteError) {
        if byteCount == 0, let initialization = muxer.initializationSegment { try write(bytes: initialization) }
        do {
            try fragment.write(to: &sink)
            try sink.flush()
        } catch {
            throw .io(error)
        }
        byteCount += fragment.byteCount
        onFragment?(fragment)
    }

    private mutating func write(bytes: [UInt8]) throws(ContainerWriteError) {
        do {
            try sink.write(bytes)
            try sink.flush()
        } catch {
            throw .io(error)
        }
        byteCount += bytes.count
    }
}

extension FragmentedMP4Writer where Sink == FileByteSink {
    /// Creates (or truncates) a fragmented `.mp4` file.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - tracks: the tracks.
    ///   - options: how fragments are cut.
    /// - Throws: ``ContainerWriteError/io(_:)`` when the file cannot be created; as ``init(sink:tracks:options:)``.
    public init(path: String, tracks: [MP4TrackDescription], options: FragmentedMP4Options = FragmentedMP4Options()) throws(ContainerWriteError) {
        let muxer = try FragmentedMP4Muxer(tracks: tracks, options: options)
        let sink: FileByteSink
        do { sink = try FileByteSink(path: path) } catch { throw .io(error) }
        self.sink = sink
        self.muxer = muxer
    }
}
