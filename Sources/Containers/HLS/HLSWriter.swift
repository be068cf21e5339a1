import MediaCore
import POSIX

/// Writes an HLS presentation (RFC 8216) with fragmented MP4 (CMAF) segments into a folder: the
/// initialization segment (`init.mp4`, the `EXT-X-MAP`), media segments cut at key frames
/// (`segment_00001.m4s`, …) and the media playlist (`stream.m3u8`) — or, with
/// ``HLSSegmentFormat/mpegTS``, MPEG-TS segments (§3.2, `segment_00001.ts`, each starting with PAT, PMT and a key
/// frame, one ``TSWriter`` across them so continuity counters run on) under a version 3 playlist — each file appearing whole
/// (written under a temporary name, then renamed) so a web server never serves half of one.
///
/// ```swift
/// var writer = try HLSWriter(tracks: [.video(format), .audio(audioFormat)],
///                            configuration: HLSWriter.Configuration(directory: "out", mode: .live(windowSize: 6)))
/// for frame in frames { try writer.append(frame, toTrack: 0) }   // audio: toTrack: 1
/// try writer.finish()                                             // last segment, then EXT-X-ENDLIST
/// ```
///
/// Segments start at the first video key frame at or after ``Configuration/targetSegmentDuration``
/// (``HLSSegmenter``; without video, at the first audio frame at or after it); each is one or more
/// ``FragmentedMP4Muxer`` fragments (one per key frame),
/// written to its file as they finish, so memory holds one fragment at most. Frames before the first
/// key frame are left out (``skippedFrameCount``). In ``Mode/live(windowSize:)`` the playlist keeps the
/// last segments and the files that left it are removed once RFC 8216 §6.2.2 allows (the segment's
/// duration plus the playlist's after it left).
///
/// Not `Sendable`-shared: use it from one task at a time (it is a value owning open files).
public struct HLSWriter {
    /// How the playlist evolves.
    public enum Mode: Sendable, Hashable {
        /// A file that is complete when written: the playlist (`EXT-X-PLAYLIST-TYPE:VOD`) is written
        /// once, by ``HLSWriter/finish()``, since a VOD playlist must never change (§4.3.3.5).
        case vod
        /// A recording watched while it grows (`EXT-X-PLAYLIST-TYPE:EVENT`): rewritten after every
        /// segment, nothing removed, `EXT-X-ENDLIST` at the end.
        case event
        /// Live: a sliding window of the last `windowSize` segments; older segment files are removed.
        case live(windowSize: Int)
    }

    /// Where and how to write.
    public struct Configuration: Sendable, Hashable {
        /// The folder of the presentation (created if missing).
        public var directory: String
        /// The media playlist's file name.
        public var playlistName: String
        /// The initialization segment's file name.
        public var initializationSegmentName: String
        /// The media segments' file names before their sequence number (`segment_`).
        public var segmentPrefix: String
        /// The media segments' extension, with its dot (`.m4s`).
        public var segmentExtension: String
        /// The shortest segment: a segment ends at the first key frame at least this long after its start.
        public var targetSegmentDuration: MediaTime
        /// VOD, event or live.
        public var mode: Mode
        /// The wall-clock time of media time zero, for `EXT-X-PROGRAM-DATE-TIME`; `nil` leaves the tag out.
        public var programDateTime: HLSProgramDateTime?
        /// The segments' container: fragmented MP4 (default) or MPEG-TS.
        public var segmentFormat: HLSSegmentFormat

        /// Creates a configuration.
        /// - Parameters:
        ///   - directory: the presentation's folder.
        ///   - playlistName: the media playlist's file name (`stream.m3u8`).
        ///   - initializationSegmentName: the `EXT-X-MAP` file name (`init.mp4`).
        ///   - segmentPrefix: the segments' name before their number (`segment_`).
        ///   - segmentExtension: the segments' extension (`.m4s`).
        ///   - targetSegmentDuration: the shortest segment (2 s).
        ///   - mode: VOD, event or live.
        ///   - programDateTime: the wall-clock time of media time zero (now, by default).
        ///   - segmentFormat: fragmented MP4 or MPEG-TS (whose segments then end in `.ts` unless another
        ///     extension than `.m4s` is given).
        public init(directory: String, playlistName: String = "stream.m3u8", initializationSegmentName: String = "init.mp4",
                    segmentPrefix: String = "segment_", segmentExtension: String = ".m4s",
                    targetSegmentDuration: MediaTime = MediaTime(value: 2, timescale: 1), mode: Mode = .vod,
                    programDateTime: HLSProgramDateTime? = .now(), segmentFormat: HLSSegmentFormat = .fragmentedMP4) {
            self.segmentFormat = segmentFormat
            self.directory = directory
            self.playlistName = playlistName
            self.initializationSegmentName = initializationSegmentName
            self.segmentPrefix = segmentPrefix
            self.segmentExtension = segmentFormat == .mpegTS && segmentExtension == ".m4s" ? ".ts" : segmentExtension
            self.targetSegmentDuration = targetSegmentDuration
            self.mode = mode
            self.programDateTime = programDateTime
        }

        /// The path of a file in ``directory``.
        /// - Parameter name: the file name.
        /// - Returns: `directory/name`.
        public func path(of name: String) -> String {
            directory.isEmpty ? name : directory.hasSuffix("/") ? directory + name : "\(directory)/\(name)"
        }

        /// The media playlist's path.
        public var playlistPath: String { path(of: playlistName) }
    }

    /// A frame for a TS segment.
    private enum EncodedMediaFrame {
        case video(EncodedFrame)
        case audio(EncodedAudioFrame)
    }

    /// A segment file that left the live window, waiting until §6.2.2 lets it go.
    private struct Retired {
        var uri: String
        /// The media time (end of the written media) from which the file may be removed.
        var removableAt: MediaTime
    }

    /// The tracks, as given.
    public let tracks: [MP4TrackDescription]
    /// Where and how the presentation is written.
    public let configuration: Configuration
    /// The playlist as last written (or, in VOD mode, as it will be written).
    public private(set) var playlist: HLSMediaPlaylist
    /// Every segment written, oldest first (also those that left a live window).
    public private(set) var writtenSegments: [HLSMediaSegment] = []
    /// Video frames left out because no key frame had come before them.
    public private(set) var skippedFrameCount = 0
    /// The RFC 6381 codec strings of the tracks, for a multivariant playlist's `CODECS`.
    public let codecs: [String]

    private var muxer: FragmentedMP4Muxer
    private var segmenter: HLSSegmenter
    private let mainTrack: Int
    private var current: (file: FileByteSink, segment: HLSMediaSegment, temporaryPath: String)?
    private var nextSequenceNumber = 1
    private var writtenMediaEnd = MediaTime.zero
    private var retired: [Retired] = []
    private var initializationSegmentWritten = false
    private var isFinished = false
    /// The TS muxer of ``HLSSegmentFormat/mpegTS`` segments, its bytes moved into the segment file after each frame.
    private var transportStream: TSWriter<MemoryByteSink>?
    /// The end of the last picture (or audio frame without video) of the TS segment being written.
    private var transportStreamEnd: MediaTime?

    /// Creates the folder and prepares the presentation; nothing is written before the first fragment.
    /// - Parameters:
    ///   - tracks: the tracks (one video track, optionally audio; a video track decides the cuts).
    ///   - configuration: where and how to write.
    /// - Throws: ``HLSError/invalidConfiguration(_:)`` for a target duration that is not positive, a
    ///   window below 1 or file names with `/`, quotes or line breaks; ``HLSError/codecString(_:reason:)``
    ///   for a format without a usable parameter set; ``HLSError/segment(_:)`` when the muxer refuses the
    ///   tracks; ``HLSError/io(_:)`` when the folder cannot be made.
    public init(tracks: [MP4TrackDescription], configuration: Configuration) throws(HLSError) {
        guard configuration.targetSegmentDuration.value > 0 else {
            throw .invalidConfiguration("the segment duration \(configuration.targetSegmentDuration) is not positive")
        }
        if case let .live(windowSize) = configuration.mode, windowSize < 1 {
            throw .invalidConfiguration("a live playlist needs a window of at least 1 segment, not \(windowSize)")
        }
        for name in [configuration.playlistName, configuration.initializationSegmentName, configuration.segmentPrefix + "1" + configuration.segmentExtension]
        where name.isEmpty || name.contains(where: { $0 == "/" || $0 == "\"" || $0.isNewline }) || name.hasPrefix("#") {
            throw .invalidConfiguration("the file name \"\(name)\" must be non-empty, without /, quotes, line breaks or a leading #")
        }
        // A fragment per video key frame; without video, fragments of the segment duration (the muxer
        // then cuts where the segmenter does: at the first sample at or after the target).
        let fragmentDuration = tracks.contains(where: \.isVideo) ? nil : configuration.targetSegmentDuration
        do {
            muxer = try FragmentedMP4Muxer(tracks: tracks, options: FragmentedMP4Options(fragmentDuration: fragmentDuration,
                                                                                          writesRandomAccessIndex: false))
        } catch {
            throw .segment(error)
        }
        var codecs: [String] = []
        for track in tracks {
            switch track.media {
            case let .video(format): codecs.append(try CodecString.video(format, parameterSetsInBand: track.carriesParameterSetsInBand))
            case let .audio(format): codecs.append(try CodecString.audio(format))
            }
        }
        self.codecs = codecs
        self.tracks = tracks
        self.configuration = configuration
        mainTrack = tracks.firstIndex(where: \.isVideo) ?? 0
        segmenter = HLSSegmenter(targetDuration: configuration.targetSegmentDuration)
        let type: HLSMediaPlaylist.PlaylistType?
        switch configuration.mode {
        case .vod: type = .vod
        case .event: type = .event
        case .live: type = nil
        }
        playlist = HLSMediaPlaylist(targetDuration: Int(clamping: HLSDecimal.ceilingSeconds(configuration.targetSegmentDuration)),
                                    initializationSegmentURI: configuration.segmentFormat == .mpegTS ? nil : configuration.initializationSegmentName,
                                    playlistType: type, hasIndependentSegments: true)
        if configuration.segmentFormat == .mpegTS {
            var video: FormatDescription?, audio: AudioFormatDescription?
            for track in tracks {
                switch track.media {
                case let .video(format): video = video ?? format
                case let .audio(format): audio = audio ?? format
                }
            }
            do {
                transportStream = try TSWriter(sink: MemoryByteSink(), configuration: TSWriter.Configuration(video: video, audio: audio,
                                                                                                             timestampOffset: 126_000))
            } catch {
                throw .segment(error)
            }
        }
        if !configuration.directory.isEmpty {
            do { try FileSystem.makeDirectory(configuration.directory) } catch {
                throw .io(ContainerIOError(operation: .makeDirectory, path: configuration.directory, error))
            }
        }
    }

    /// The number of segments written so far.
    public var segmentCount: Int { writtenSegments.count }

    /// Adds a compressed picture (decode order) to a video track.
    /// - Parameters:
    ///   - frame: the picture.
    ///   - index: the track's index in ``tracks``.
    /// - Throws: ``HLSError/segment(_:)`` when the muxer refuses it (decode time going back, no such
    ///   track), ``HLSError/io(_:)``, ``HLSError/alreadyFinished``.
    public mutating func append(_ frame: EncodedFrame, toTrack index: Int) throws(HLSError) {
        if transportStream != nil {
            try appendToTransportStream(.video(frame), track: index)
            return
        }
        try append(MP4Sample(frame), toTrack: index)
    }

    /// Adds an AAC frame to an audio track.
    /// - Parameters:
    ///   - frame: the access unit.
    ///   - index: the track's index in ``tracks``.
    /// - Throws: as ``append(_:toTrack:)-(EncodedFrame,_)``.
    public mutating func append(_ frame: EncodedAudioFrame, toTrack index: Int) throws(HLSError) {
        if transportStream != nil {
            try appendToTransportStream(.audio(frame), track: index)
            return
        }
        try append(MP4Sample(frame), toTrack: index)
    }

    /// Adds a sample to a track (video samples in decode order decide where segments start).
    /// - Parameters:
    ///   - sample: the sample.
    ///   - index: the track's index in ``tracks``.
    /// - Throws: as ``append(_:toTrack:)-(EncodedFrame,_)``.
    public mutating func append(_ sample: MP4Sample, toTrack index: Int) throws(HLSError) {
        guard !isFinished else { throw .alreadyFinished }
        guard transportStream == nil else {
            throw .invalidConfiguration("MPEG-TS segments take EncodedFrame and EncodedAudioFrame, not MP4 samples")
        }
        var startsSegment = false
        if index == mainTrack, tracks.indices.contains(index) {
            switch segmenter.decision(forFrameAt: sample.dts, isKeyFrame: sample.isKeyFrame) {
            case .skipBeforeFirstKeyFrame:
                skippedFrameCount += 1
                return
            case .startNewSegment: startsSegment = true
            case .startFirstSegment, .continueSegment: break
            }
        }
        let fragment: MP4Fragment?
        do { fragment = try muxer.append(sample, toTrack: index) } catch { throw .segment(error) }
        if let fragment { try write(fragment) }
        if startsSegment, current != nil { try closeSegment() }
    }

    /// Ends the presentation: the last fragment and segment, then the playlist with `EXT-X-ENDLIST`.
    /// - Throws: ``HLSError/io(_:)`` or ``HLSError/segment(_:)``; ``HLSError/alreadyFinished`` when called twice.
    public mutating func finish() throws(HLSError) {
        guard !isFinished else { throw .alreadyFinished }
        isFinished = true
        if transportStream != nil {
            try finishTransportStream()
        } else {
            try finishFragments()
        }
        playlist.hasEnded = true
        guard !writtenSegments.isEmpty else { return }
        try writePlaylist()
        for file in retired { try remove(file.uri) }
        retired = []
    }

    /// The last fragment and the last segment of fragmented MP4.
    private mutating func finishFragments() throws(HLSError) {
        let last: MP4Fragment?
        do { last = try muxer.finish() } catch { throw .segment(error) }
        if let last { try write(last) }
        if current != nil { try closeSegment(isLast: true) }
    }

    // MARK: - MPEG-TS segments

    /// One frame of a TS presentation: a cut before the first key frame at or after the target duration
    /// (RFC 8216 §3.2: the new segment starts with PAT, PMT — ``TSWriter`` writes them before every key frame —
    /// and that frame), the audio gathered so far flushed into the segment it belongs to.
    private mutating func appendToTransportStream(_ media: EncodedMediaFrame, track index: Int) throws(HLSError) {
        guard !isFinished else { throw .alreadyFinished }
        guard tracks.indices.contains(index) else { throw .invalidConfiguration("no track \(index)") }
        let decodeTime: MediaTime, end: MediaTime, isKey: Bool
        switch media {
        case let .video(frame): (decodeTime, end, isKey) = (frame.dts, frame.dts + frame.duration, frame.isKeyFrame)
        case let .audio(frame): (decodeTime, end, isKey) = (frame.pts, frame.pts + frame.duration, true)
        }
        if index == mainTrack {
            switch segmenter.decision(forFrameAt: decodeTime, isKeyFrame: isKey) {
            case .skipBeforeFirstKeyFrame:
                skippedFrameCount += 1
                return
            case let .startNewSegment(finishedDuration):
                try moveTransportStreamBytes(flushingAudio: true)
                current?.segment.duration = finishedDuration
                try closeSegment()
            case .startFirstSegment, .continueSegment: break
            }
            transportStreamEnd = end
        } else if current == nil {
            return  // audio before the first picture: no segment to hold it yet
        }
        try openTransportStreamSegmentIfNeeded(at: decodeTime)
        do {
            switch media {
            case let .video(frame): try transportStream?.append(frame)
            case let .audio(frame): try transportStream?.append(frame)
            }
        } catch {
            throw .segment(error)
        }
        try moveTransportStreamBytes(flushingAudio: false)
    }

    /// Opens the next segment file (under a temporary name) when none is open.
    private mutating func openTransportStreamSegmentIfNeeded(at time: MediaTime) throws(HLSError) {
        guard current == nil else { return }
        let name = configuration.segmentPrefix + Self.sequenceText(nextSequenceNumber) + configuration.segmentExtension
        let temporary = AtomicFile.temporaryPath(for: configuration.path(of: name))
        let file: FileByteSink
        do { file = try FileByteSink(path: temporary) } catch { throw .io(error) }
        let wallClock = configuration.programDateTime.map { $0.advanced(by: time) }
        current = (file, HLSMediaSegment(uri: name, duration: .zero, programDateTime: wallClock), temporary)
        nextSequenceNumber += 1
    }

    /// Moves what the TS muxer wrote into the open segment file.
    private mutating func moveTransportStreamBytes(flushingAudio: Bool) throws(HLSError) {
        guard var writer = transportStream else { return }
        transportStream = nil
        defer { transportStream = writer }
        if flushingAudio { do { try writer.flushAudio() } catch { throw .segment(error) } }
        let bytes = writer.replaceSink(with: MemoryByteSink()).bytes
        guard !bytes.isEmpty, var open = current else { return }
        current = nil
        do { try open.file.write(bytes) } catch {
            current = open
            throw .io(error)
        }
        open.segment.byteCount += bytes.count
        current = open
    }

    /// The last TS segment: its audio, its duration up to the end of its last frame.
    private mutating func finishTransportStream() throws(HLSError) {
        try moveTransportStreamBytes(flushingAudio: true)
        guard var open = current else { return }
        if let start = segmenter.segmentStart, let end = transportStreamEnd { open.segment.duration = end - start }
        current = open
        try closeSegment(isLast: true)
    }

    /// Abandons the segment being written (its temporary file is removed); the files already complete
    /// stay. For an error path: the playlist is not ended.
    public mutating func abandon() {
        isFinished = true
        if let open = current {
            try? open.file.close()
            try? FileSystem.removeFile(open.temporaryPath)
            current = nil
        }
    }

    // MARK: - Files

    /// Writes a finished fragment into the current segment (opening one if needed).
    private mutating func write(_ fragment: MP4Fragment) throws(HLSError) {
        try writeInitializationSegmentIfNeeded()
        if current == nil {
            let name = configuration.segmentPrefix + Self.sequenceText(nextSequenceNumber) + configuration.segmentExtension
            let temporary = AtomicFile.temporaryPath(for: configuration.path(of: name))
            let file: FileByteSink
            do { file = try FileByteSink(path: temporary) } catch { throw .io(error) }
            let time = configuration.programDateTime.map { $0.advanced(by: fragment.startTime) }
            current = (file, HLSMediaSegment(uri: name, duration: .zero, programDateTime: time), temporary)
            nextSequenceNumber += 1
        }
        guard var open = current else { return }
        current = nil
        do { try fragment.write(to: &open.file) } catch {
            current = open
            throw .io(error)
        }
        open.segment.duration = open.segment.duration + fragment.duration
        open.segment.byteCount += fragment.byteCount
        current = open
    }

    /// Completes the current segment file under its name, lists it and rewrites the playlist.
    private mutating func closeSegment(isLast: Bool = false) throws(HLSError) {
        guard let open = current else { return }
        current = nil
        do { try open.file.close() } catch { throw .io(error) }
        let path = configuration.path(of: open.segment.uri)
        do { try FileSystem.rename(open.temporaryPath, to: path) } catch {
            throw .io(ContainerIOError(operation: .rename, path: path, error))
        }
        writtenSegments.append(open.segment)
        writtenMediaEnd = writtenMediaEnd + open.segment.duration
        playlist.append(open.segment)
        if case let .live(windowSize) = configuration.mode {
            let windowDuration = playlist.duration
            for segment in playlist.removeSegments(keepingLast: windowSize) {
                // §6.2.2: available for the segment's duration plus the longest playlist containing it.
                retired.append(Retired(uri: segment.uri, removableAt: writtenMediaEnd + segment.duration + windowDuration))
            }
            while let first = retired.first, !(writtenMediaEnd < first.removableAt) {
                try remove(first.uri)
                retired.removeFirst()
            }
        }
        if isLast { return }
        if case .vod = configuration.mode { return }
        try writePlaylist()
    }

    private mutating func writeInitializationSegmentIfNeeded() throws(HLSError) {
        guard !initializationSegmentWritten, let bytes = muxer.initializationSegment else { return }
        do { try AtomicFile.replace(configuration.path(of: configuration.initializationSegmentName), with: bytes) } catch {
            throw .io(error)
        }
        initializationSegmentWritten = true
    }

    private func writePlaylist() throws(HLSError) {
        let text = try playlist.text()
        do { try AtomicFile.replace(configuration.playlistPath, withText: text) } catch { throw .io(error) }
    }

    private func remove(_ uri: String) throws(HLSError) {
        let path = configuration.path(of: uri)
        do { try FileSystem.removeFile(path) } catch where error.errno != .noSuchFileOrDirectory {
            throw .io(ContainerIOError(operation: .remove, path: path, error))
        } catch {}
    }

    /// A sequence number with at least five digits (`00001`).
    static func sequenceText(_ number: Int) -> String {
        let text = String(number)
        return text.count >= 5 ? text : String(repeating: "0", count: 5 - text.count) + text
    }
}
