import MediaCore

/// HLS media segments made in memory, for a server that hands them out itself (RFC 8216 §3): frames in, whole
/// segments out, each one starting at a video key frame once ``Configuration/targetSegmentDuration`` has passed
/// (``HLSSegmenter``, §3 and §4.3.3.1) — fragmented MP4 (§3.3, one ``FragmentedMP4Muxer`` fragment per key frame,
/// with the ``initializationSegment`` for `EXT-X-MAP`, §4.3.2.5) or MPEG-TS (§3.2, one ``TSWriter`` across the segments
/// so continuity counters run on; each segment starts with PAT, PMT and a key frame).
///
/// What ``HLSWriter`` does into files, without files: the caller keeps the segments it wants (a sliding window) and
/// drops the rest. Memory is bounded: a segment that grows past ``Configuration/maximumSegmentByteCount`` without a key
/// frame to end it is thrown away (``discardedSegmentCount``) and the stream starts again at the next key frame.
///
/// Not `Sendable`-shared (its TS muxer is a value owning a sink): use it from one task at a time.
///
/// ```swift
/// var stream = try HLSSegmentStream(tracks: [.video(format)], configuration: .init(segmentFormat: .fragmentedMP4))
/// if let segment = try stream.append(frame, toTrack: 0) { window.add(segment) }
/// ```
public struct HLSSegmentStream {
    /// How the segments are cut and written.
    public struct Configuration: Sendable, Hashable {
        /// The shortest segment: a segment ends at the first key frame at least this long after its start.
        public var targetSegmentDuration: MediaTime
        /// Fragmented MP4 (default) or MPEG-TS.
        public var segmentFormat: HLSSegmentFormat
        /// The most bytes a segment in progress may hold before it is thrown away (no key frame came to end it).
        public var maximumSegmentByteCount: Int

        /// Creates a configuration.
        /// - Parameters:
        ///   - targetSegmentDuration: the shortest segment (2 s).
        ///   - segmentFormat: fragmented MP4 or MPEG-TS.
        ///   - maximumSegmentByteCount: the cap on one segment in progress (32 MiB).
        public init(targetSegmentDuration: MediaTime = MediaTime(value: 2, timescale: 1), segmentFormat: HLSSegmentFormat = .fragmentedMP4,
                    maximumSegmentByteCount: Int = 32 << 20) {
            self.targetSegmentDuration = targetSegmentDuration
            self.segmentFormat = segmentFormat
            self.maximumSegmentByteCount = maximumSegmentByteCount
        }
    }

    /// A finished media segment.
    public struct Segment: Sendable, Hashable {
        /// Its media sequence number (§3; counted from 0, one per segment handed out: a discarded one takes no number, so the listed
        /// segments stay consecutive).
        public var sequenceNumber: Int
        /// The decode time of its first picture (or of its first sample without video).
        public var startTime: MediaTime
        /// How long it plays (`EXTINF`).
        public var duration: MediaTime
        /// The segment's bytes (`moof`+`mdat` fragments, or 188-byte TS packets).
        public var bytes: [UInt8]

        /// Creates a segment.
        /// - Parameters:
        ///   - sequenceNumber: its media sequence number.
        ///   - startTime: the decode time of its first frame.
        ///   - duration: its duration.
        ///   - bytes: its bytes.
        public init(sequenceNumber: Int, startTime: MediaTime, duration: MediaTime, bytes: [UInt8]) {
            self.sequenceNumber = sequenceNumber
            self.startTime = startTime
            self.duration = duration
            self.bytes = bytes
        }
    }

    /// The tracks, as given.
    public let tracks: [MP4TrackDescription]
    /// The settings.
    public let configuration: Configuration
    /// The RFC 6381 codec strings of the tracks (`CODECS` of a multivariant playlist).
    public let codecs: [String]
    /// The fragmented MP4 initialization section (`ftyp`+`moov`), once the first fragment is made; always `nil` for
    /// MPEG-TS.
    public private(set) var initializationSegment: [UInt8]?
    /// Frames left out because no key frame had come before them (a stream joined mid-GOP, or after a discard).
    public private(set) var skippedFrameCount = 0
    /// Segments thrown away because they grew past the byte cap without a key frame to end them.
    public private(set) var discardedSegmentCount = 0
    /// The sequence number the next segment gets.
    public private(set) var nextSequenceNumber = 0

    private var muxer: FragmentedMP4Muxer?
    private var transportStream: TSWriter<MemoryByteSink>?
    private var segmenter: HLSSegmenter
    private let mainTrack: Int
    /// The segment being made: its bytes so far, its duration so far (fMP4: the fragments written), its start.
    private var current: (bytes: [UInt8], duration: MediaTime, start: MediaTime)?
    /// Bytes handed to the muxer for the segment in progress and not yet in ``current`` (a fragment not yet cut).
    private var pendingByteCount = 0
    /// The end of the last picture (or audio frame without video) of the TS segment being made.
    private var transportStreamEnd: MediaTime?
    private var isFinished = false
    /// After a discard: the muxer's fragments until the next key frame hold the discarded segment's tail.
    private var dropsFragments = false

    /// Prepares the muxer for the tracks.
    /// - Parameters:
    ///   - tracks: one video track (it decides the cuts), optionally audio.
    ///   - configuration: the target duration, the format and the cap.
    /// - Throws: ``HLSError/invalidConfiguration(_:)`` for a duration or cap that is not positive;
    ///   ``HLSError/codecString(_:reason:)`` for a format without a usable parameter set; ``HLSError/segment(_:)`` when
    ///   the muxer refuses the tracks.
    public init(tracks: [MP4TrackDescription], configuration: Configuration) throws(HLSError) {
        guard configuration.targetSegmentDuration.value > 0, configuration.targetSegmentDuration.timescale > 0 else {
            throw .invalidConfiguration("the segment duration \(configuration.targetSegmentDuration) is not positive")
        }
        guard configuration.maximumSegmentByteCount > 0 else {
            throw .invalidConfiguration("the segment byte cap \(configuration.maximumSegmentByteCount) is not positive")
        }
        guard !tracks.isEmpty else { throw .invalidConfiguration("no track") }
        var codecs: [String] = []
        var video: FormatDescription?, audio: AudioFormatDescription?
        for track in tracks {
            switch track.media {
            case let .video(format):
                codecs.append(try CodecString.video(format, parameterSetsInBand: track.carriesParameterSetsInBand))
                video = video ?? format
            case let .audio(format):
                codecs.append(try CodecString.audio(format))
                audio = audio ?? format
            }
        }
        self.codecs = codecs
        self.tracks = tracks
        self.configuration = configuration
        mainTrack = tracks.firstIndex(where: \.isVideo) ?? 0
        segmenter = HLSSegmenter(targetDuration: configuration.targetSegmentDuration)
        do {
            switch configuration.segmentFormat {
            case .fragmentedMP4:
                muxer = try Self.makeMuxer(tracks, configuration)
            case .mpegTS:
                transportStream = try TSWriter(sink: MemoryByteSink(), configuration: TSWriter.Configuration(video: video, audio: audio,
                                                                                                           timestampOffset: 126_000))
            }
        } catch {
            throw .segment(error)
        }
    }

    private static func makeMuxer(_ tracks: [MP4TrackDescription], _ configuration: Configuration) throws(ContainerWriteError) -> FragmentedMP4Muxer {
        // A fragment per video key frame; without video, fragments of the segment duration. The muxer cuts a fragment
        // of its own when one grows past its caps, so it holds a bounded part of a segment.
        let fragmentDuration = tracks.contains(where: \.isVideo) ? nil : configuration.targetSegmentDuration
        return try FragmentedMP4Muxer(tracks: tracks, options: FragmentedMP4Options(fragmentDuration: fragmentDuration,
                                                                                    maximumFragmentByteCount: min(configuration.maximumSegmentByteCount, 8 << 20),
                                                                                    writesRandomAccessIndex: false))
    }

    /// The decode time at which the segment in progress started, `nil` before the first key frame.
    public var segmentStart: MediaTime? { segmenter.segmentStart }

    /// Adds a compressed picture (decode order) to a video track.
    /// - Parameters:
    ///   - frame: the picture.
    ///   - index: its track in ``tracks``.
    /// - Returns: the segment this frame finished (a key frame past the target duration), or `nil`.
    /// - Throws: ``HLSError/segment(_:)`` when the muxer refuses it (decode time going back, no such track);
    ///   ``HLSError/alreadyFinished``.
    public mutating func append(_ frame: EncodedFrame, toTrack index: Int) throws(HLSError) -> Segment? {
        if transportStream != nil {
            return try appendToTransportStream(decodeTime: frame.dts, end: frame.dts + frame.duration, isKeyFrame: frame.isKeyFrame,
                                               byteCount: frame.data.count, track: index) { writer throws(ContainerWriteError) in
                try writer.append(frame)
            }
        }
        return try append(MP4Sample(frame), toTrack: index)
    }

    /// Adds an audio frame to an audio track.
    /// - Parameters:
    ///   - frame: the access unit.
    ///   - index: its track in ``tracks``.
    /// - Returns: the segment this frame finished (only without video), or `nil`.
    /// - Throws: as ``append(_:toTrack:)-(EncodedFrame,_)``.
    public mutating func append(_ frame: EncodedAudioFrame, toTrack index: Int) throws(HLSError) -> Segment? {
        if transportStream != nil {
            return try appendToTransportStream(decodeTime: frame.pts, end: frame.pts + frame.duration, isKeyFrame: true,
                                               byteCount: frame.data.count, track: index) { writer throws(ContainerWriteError) in
                try writer.append(frame)
            }
        }
        return try append(MP4Sample(frame), toTrack: index)
    }

    /// Ends the stream: the last segment, up to the end of its last frame.
    /// - Returns: the last segment, or `nil` when none was in progress.
    /// - Throws: ``HLSError/segment(_:)``; ``HLSError/alreadyFinished`` when called twice.
    public mutating func finish() throws(HLSError) -> Segment? {
        guard !isFinished else { throw .alreadyFinished }
        isFinished = true
        if transportStream != nil {
            try moveTransportStreamBytes(flushingAudio: true)
            guard current != nil else { return nil }
            if let start = segmenter.segmentStart, let end = transportStreamEnd { current?.duration = end - start }
            return closeSegment()
        }
        let last: MP4Fragment?
        do { last = try muxer?.finish() } catch { throw .segment(error) }
        if let last { add(last) }
        return closeSegment()
    }

    // MARK: - Fragmented MP4

    private mutating func append(_ sample: MP4Sample, toTrack index: Int) throws(HLSError) -> Segment? {
        guard !isFinished else { throw .alreadyFinished }
        guard tracks.indices.contains(index) else { throw .invalidConfiguration("no track \(index)") }
        var startsSegment = false, restarts = false
        if index == mainTrack {
            switch segmenter.decision(forFrameAt: sample.dts, isKeyFrame: sample.isKeyFrame) {
            case .skipBeforeFirstKeyFrame:
                skippedFrameCount += 1
                return nil
            case .startNewSegment: startsSegment = true
            case .startFirstSegment: restarts = dropsFragments
            case .continueSegment: break
            }
        } else if segmenter.segmentStart == nil, tracks.contains(where: \.isVideo) {
            return nil  // audio before the first picture: no segment holds it yet
        }
        let fragment: MP4Fragment?
        do { fragment = try muxer?.append(sample, toTrack: index) } catch { throw .segment(error) }
        pendingByteCount += sample.data.count
        if restarts {
            dropsFragments = false
            pendingByteCount = sample.data.count
        } else if let fragment {
            add(fragment)
        }
        var finished: Segment?
        if startsSegment, current != nil {
            finished = closeSegment()
            pendingByteCount = sample.data.count
        }
        if pendingByteCount + (current?.bytes.count ?? 0) > configuration.maximumSegmentByteCount {
            discardSegment()
        }
        return finished
    }

    /// Adds a finished fragment to the segment in progress (starting one if needed).
    private mutating func add(_ fragment: MP4Fragment) {
        if initializationSegment == nil { initializationSegment = muxer?.initializationSegment }
        var open = current ?? ([], .zero, fragment.startTime)
        current = nil
        open.bytes.reserveCapacity(open.bytes.count + fragment.byteCount)
        open.bytes += fragment.bytes()
        open.duration = open.duration + fragment.duration
        pendingByteCount = max(0, pendingByteCount - fragment.byteCount)
        current = open
    }

    /// Throws away the segment in progress and what the muxer holds of it; the stream restarts at the next key frame.
    private mutating func discardSegment() {
        discardedSegmentCount += 1
        current = nil
        pendingByteCount = 0
        segmenter = HLSSegmenter(targetDuration: configuration.targetSegmentDuration)
        // The muxer keeps its timeline (a new one would start its decode times at zero again): what it still holds of
        // the discarded segment comes out as fragments up to the next key frame, and those are dropped.
        dropsFragments = muxer != nil
    }

    /// Hands the segment in progress out.
    private mutating func closeSegment() -> Segment? {
        guard let open = current else { return nil }
        current = nil
        let segment = Segment(sequenceNumber: nextSequenceNumber, startTime: open.start, duration: open.duration, bytes: open.bytes)
        nextSequenceNumber += 1
        return segment
    }

    // MARK: - MPEG-TS

    /// One frame of a TS stream: a cut before the first key frame at or after the target duration (§3.2: the new
    /// segment starts with PAT, PMT — ``TSWriter`` writes them before every key frame — and that frame), the audio
    /// gathered so far flushed into the segment it belongs to.
    private mutating func appendToTransportStream(decodeTime: MediaTime, end: MediaTime, isKeyFrame: Bool, byteCount: Int, track index: Int,
                                                  write: (inout TSWriter<MemoryByteSink>) throws(ContainerWriteError) -> Void) throws(HLSError) -> Segment? {
        guard !isFinished else { throw .alreadyFinished }
        guard tracks.indices.contains(index) else { throw .invalidConfiguration("no track \(index)") }
        var finished: Segment?
        if index == mainTrack {
            switch segmenter.decision(forFrameAt: decodeTime, isKeyFrame: isKeyFrame) {
            case .skipBeforeFirstKeyFrame:
                skippedFrameCount += 1
                return nil
            case let .startNewSegment(finishedDuration):
                try moveTransportStreamBytes(flushingAudio: true)
                current?.duration = finishedDuration
                finished = closeSegment()
            case .startFirstSegment, .continueSegment: break
            }
            transportStreamEnd = end
        } else if current == nil {
            return nil  // audio before the first picture: no segment holds it yet
        }
        if current == nil { current = ([], .zero, decodeTime) }
        guard var writer = transportStream else { return finished }
        transportStream = nil
        do { try write(&writer) } catch {
            transportStream = writer
            throw .segment(error)
        }
        transportStream = writer
        try moveTransportStreamBytes(flushingAudio: false)
        if let open = current, open.bytes.count > configuration.maximumSegmentByteCount {
            discardSegment()
        }
        return finished
    }

    /// Moves what the TS muxer wrote into the segment in progress.
    private mutating func moveTransportStreamBytes(flushingAudio: Bool) throws(HLSError) {
        guard var writer = transportStream else { return }
        transportStream = nil
        defer { transportStream = writer }
        if flushingAudio { do { try writer.flushAudio() } catch { throw .segment(error) } }
        let bytes = writer.replaceSink(with: MemoryByteSink()).bytes
        guard !bytes.isEmpty, current != nil else { return }
        current?.bytes += bytes
    }
}
