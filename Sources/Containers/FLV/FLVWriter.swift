import Bitstream
import MediaCore

/// Writes an FLV file (FLV specification v10.1, Annex E) from encoded pictures and AAC frames: the header,
/// an `onMetaData` script tag (E.5), the sequence headers, then one tag per frame, each followed by its
/// `PreviousTagSize` (E.3). H.264 gets the legacy header, H.265 the Enhanced RTMP one (``FLVVideoHeaderStyle``).
///
/// ```swift
/// var writer = try FLVWriter(sink: try FileByteSink(path: "out.flv"),
///                            configuration: .init(video: videoFormat, audio: audioFormat, frameRate: 30))
/// for frame in frames { try writer.append(frame) }        // EncodedFrame / EncodedAudioFrame, in dts order
/// try writer.finish()
/// ```
///
/// Timestamps are decode times in milliseconds; when the first frame's decode time is negative (B-frames),
/// every timestamp is moved by it, as FFmpeg's muxer does. A new sequence start is written when a key
/// frame's parameter sets change. On a sink that can go back (a file), ``finish()`` fixes up `duration`,
/// `filesize` (and `framerate`, when not given) in `onMetaData`; on a pipe they stay 0. Frame payloads go
/// from the frames' own arrays to the sink: no per-frame allocation.
public struct FLVWriter<Sink: ByteSink> {
    /// What the file holds.
    public struct Configuration: Sendable, Hashable {
        /// The video format (H.264 or H.265), if there is video.
        public var video: FormatDescription?
        /// The audio format (AAC), if there is audio.
        public var audio: AudioFormatDescription?
        /// The video tags' header style; ``FLVVideoHeaderStyle/preferred(for:)`` when `nil`.
        public var videoStyle: FLVVideoHeaderStyle?
        /// The frame rate for `onMetaData`; measured from the timestamps at the end when `nil`.
        public var frameRate: Double?
        /// The `encoder` string of `onMetaData`.
        public var encoder: String

        /// Creates a configuration.
        /// - Parameters:
        ///   - video: the video format, if any.
        ///   - audio: the audio format, if any.
        ///   - videoStyle: the video header style (`nil`: legacy for H.264, enhanced for H.265).
        ///   - frameRate: the frame rate, if known.
        ///   - encoder: the `encoder` metadata string.
        public init(video: FormatDescription?, audio: AudioFormatDescription?, videoStyle: FLVVideoHeaderStyle? = nil,
                    frameRate: Double? = nil, encoder: String = "StreamKit") {
            self.video = video
            self.audio = audio
            self.videoStyle = videoStyle
            self.frameRate = frameRate
            self.encoder = encoder
        }
    }

    /// Where the bytes go.
    public private(set) var sink: Sink
    /// What the file holds.
    public let configuration: Configuration
    /// The number of bytes written.
    public private(set) var byteCount = 0
    /// The number of video frames written.
    public private(set) var videoFrameCount = 0
    /// The number of audio frames written.
    public private(set) var audioFrameCount = 0

    private var scratch: [UInt8] = []
    private var videoFormat: FormatDescription?
    private var videoStyle: FLVVideoHeaderStyle
    private var delay: Int64?
    private var endTime: Int64 = 0
    private var firstVideoTime: Int64?
    private var lastVideoTime: Int64 = 0
    private var lastVideoTimestamp: UInt32 = 0
    private var fixups: [String: Int] = [:]
    private var isFinished = false

    /// Starts a file: writes the header, `onMetaData` and the sequence headers of the formats given.
    /// - Parameters:
    ///   - sink: where the bytes go.
    ///   - configuration: the formats and metadata.
    /// - Throws: ``ContainerWriteError`` (``ContainerWriteError/invalidConfiguration(_:)`` for neither audio nor
    ///   video, a format FLV cannot carry, or parameter sets that make no decoder configuration; `io` for the sink).
    public init(sink: Sink, configuration: Configuration) throws(ContainerWriteError) {
        self.sink = sink
        self.configuration = configuration
        guard configuration.video != nil || configuration.audio != nil else {
            throw .invalidConfiguration("an FLV file needs a video or an audio format")
        }
        if let audio = configuration.audio, audio.codec != .aac { throw .unsupportedCodec(audio.codec, frameIndex: 0) }
        videoStyle = configuration.videoStyle ?? .preferred(for: configuration.video?.codec ?? .h264)
        var head = FLVHeader(hasAudio: configuration.audio != nil, hasVideo: configuration.video != nil).bytes
        head += [0, 0, 0, 0]  // PreviousTagSize0
        try write(head)
        try writeMetadata()
        if let video = configuration.video { try writeSequenceStart(video, timestamp: 0) }
        if let audio = configuration.audio {
            let body: FLVAudioTagBody
            do { body = try FLVAudioTagBody(sequenceHeaderFor: audio) } catch { throw .invalidConfiguration("\(error)") }
            try writeTag(.audio, timestamp: 0, headerCount: body.headerByteCount) { (buffer) throws(FLVError) in try body.appendHeader(to: &buffer) } payload: { body.payload }
        }
    }

    /// Appends one picture (in decode order), preceded by a new sequence start when its parameter sets changed.
    /// - Parameter frame: the picture.
    /// - Throws: ``ContainerWriteError``: ``ContainerWriteError/frameMismatch(frameIndex:reason:)`` for a file
    ///   without video, another codec, a timestamp before zero or a composition time past SI24;
    ///   ``ContainerWriteError/alreadyFinished``; `io` for the sink.
    public mutating func append(_ frame: EncodedFrame) throws(ContainerWriteError) {
        guard !isFinished else { throw .alreadyFinished }
        guard let current = videoFormat ?? configuration.video, current.codec == frame.codec else {
            throw .frameMismatch(frameIndex: videoFrameCount, reason: "a \(frame.codec) picture in a file without that video stream")
        }
        let timestamp = try tagTimestamp(frame.dts, frameIndex: videoFrameCount)
        if frame.isKeyFrame, frame.format.parameterSets != current.parameterSets || frame.format.nalUnitLengthSize != current.nalUnitLengthSize {
            try writeSequenceStart(frame.format, timestamp: timestamp)
        }
        let body: FLVVideoTagBody
        do { body = try FLVVideoTagBody(codedFrame: frame, style: videoStyle) } catch {
            throw .frameMismatch(frameIndex: videoFrameCount, reason: "\(error)")
        }
        try writeTag(.video, timestamp: timestamp, headerCount: body.headerByteCount) { (buffer) throws(FLVError) in try body.appendHeader(to: &buffer) } payload: { body.payload }
        let time = Int64(timestamp)
        firstVideoTime = firstVideoTime ?? time
        lastVideoTime = time
        lastVideoTimestamp = timestamp
        endTime = max(endTime, time + FLVTimestamp.milliseconds(frame.duration))
        videoFrameCount += 1
    }

    /// Appends one AAC frame.
    /// - Parameter frame: the raw access unit.
    /// - Throws: ``ContainerWriteError/frameMismatch(frameIndex:reason:)`` for a file without audio or a
    ///   timestamp before zero; ``ContainerWriteError/alreadyFinished``; `io` for the sink.
    public mutating func append(_ frame: EncodedAudioFrame) throws(ContainerWriteError) {
        guard !isFinished else { throw .alreadyFinished }
        guard configuration.audio != nil else {
            throw .frameMismatch(frameIndex: audioFrameCount, reason: "an AAC frame in a file without audio")
        }
        let timestamp = try tagTimestamp(frame.pts, frameIndex: audioFrameCount)
        let body = FLVAudioTagBody(frame: frame)
        try writeTag(.audio, timestamp: timestamp, headerCount: body.headerByteCount) { (buffer) throws(FLVError) in try body.appendHeader(to: &buffer) } payload: { body.payload }
        endTime = max(endTime, Int64(timestamp) + FLVTimestamp.milliseconds(frame.duration))
        audioFrameCount += 1
    }

    /// Appends a tag as it is (for copying tags from another FLV or an RTMP stream).
    /// - Parameter tag: the tag.
    /// - Throws: ``ContainerWriteError/alreadyFinished``, ``ContainerWriteError/invalidConfiguration(_:)`` for a body
    ///   past 16 MiB, `io` for the sink.
    public mutating func write(_ tag: FLVTag) throws(ContainerWriteError) {
        guard !isFinished else { throw .alreadyFinished }
        try writeTag(tag.type, timestamp: tag.timestamp) { (_: inout [UInt8]) throws(FLVError) in } payload: { tag.body }
        endTime = max(endTime, Int64(tag.timestamp))
    }

    /// Ends the file: an end-of-sequence tag after the video, the `onMetaData` fix-ups where the sink can go
    /// back, then flushes and closes the sink.
    /// - Throws: ``ContainerWriteError`` (`io`) when the sink fails; ``ContainerWriteError/alreadyFinished``.
    public mutating func finish() throws(ContainerWriteError) {
        guard !isFinished else { throw .alreadyFinished }
        if let video = configuration.video, videoFrameCount > 0 {
            let body: FLVVideoTagBody
            do { body = try FLVVideoTagBody(sequenceEndFor: video.codec, style: videoStyle) } catch { throw .invalidConfiguration("\(error)") }
            try writeTag(.video, timestamp: lastVideoTimestamp, headerCount: body.headerByteCount) { (buffer) throws(FLVError) in try body.appendHeader(to: &buffer) } payload: { body.payload }
        }
        isFinished = true
        var values: [String: Double] = ["duration": Double(endTime) / 1000, "filesize": Double(byteCount)]
        if configuration.frameRate == nil, let first = firstVideoTime, videoFrameCount > 1, lastVideoTime > first {
            values["framerate"] = Double(videoFrameCount - 1) * 1000 / Double(lastVideoTime - first)
        }
        do throws(ContainerIOError) {
            try sink.flush()
            for (key, value) in values {
                guard let offset = fixups[key] else { continue }
                do { try sink.overwrite(AMF0Value.doubleBytes(value), at: offset) } catch { break }  // not seekable: left at 0
            }
            try sink.close()
        } catch {
            throw .io(error)
        }
    }

    // MARK: - Writing

    private mutating func write(_ bytes: [UInt8]) throws(ContainerWriteError) {
        do { try sink.write(bytes) } catch { throw .io(error) }
        byteCount += bytes.count
    }

    /// One tag: header, body header (`headerCount` bytes, made by `header`), payload, `PreviousTagSize`.
    private mutating func writeTag(_ type: FLVTagType, timestamp: UInt32, headerCount: Int = 0,
                                   header: (inout [UInt8]) throws(FLVError) -> Void,
                                   payload: () -> ByteView) throws(ContainerWriteError) {
        let body = payload()
        let bodyCount = headerCount + body.count
        scratch.removeAll(keepingCapacity: true)
        do {
            try FLVTag.appendHeader(type: type, timestamp: timestamp, bodyByteCount: bodyCount, to: &scratch)
            try header(&scratch)
        } catch {
            throw .invalidConfiguration("\(error)")
        }
        let size = UInt32(FLVTag.headerByteCount + bodyCount)
        do throws(ContainerIOError) {
            try sink.write(scratch)
            try body.withUnsafeBytes { (bytes) throws(ContainerIOError) in try sink.write(bytes) }
            scratch.removeAll(keepingCapacity: true)
            scratch.append(UInt8(truncatingIfNeeded: size >> 24))
            scratch.append(UInt8(truncatingIfNeeded: size >> 16))
            scratch.append(UInt8(truncatingIfNeeded: size >> 8))
            scratch.append(UInt8(truncatingIfNeeded: size))
            try sink.write(scratch)
        } catch {
            throw .io(error)
        }
        byteCount += Int(size) + 4
    }

    private mutating func writeSequenceStart(_ format: FormatDescription, timestamp: UInt32) throws(ContainerWriteError) {
        let body: FLVVideoTagBody
        do { body = try FLVVideoTagBody(sequenceStartFor: format, style: videoStyle) } catch { throw .invalidConfiguration("\(error)") }
        try writeTag(.video, timestamp: timestamp, headerCount: body.headerByteCount) { (buffer) throws(FLVError) in try body.appendHeader(to: &buffer) } payload: { body.payload }
        videoFormat = format
    }

    /// A tag timestamp: milliseconds, moved by the first frame's negative decode time.
    private mutating func tagTimestamp(_ time: MediaTime, frameIndex: Int) throws(ContainerWriteError) -> UInt32 {
        let milliseconds = FLVTimestamp.milliseconds(time)
        if delay == nil { delay = milliseconds < 0 ? -milliseconds : 0 }
        let moved = milliseconds + (delay ?? 0)
        guard moved >= 0, moved <= Int64(Int32.max) else {
            throw .frameMismatch(frameIndex: frameIndex, reason: "timestamp \(moved) ms is outside the FLV range")
        }
        return UInt32(moved)
    }

    /// `onMetaData` (E.5) as an ECMA array; the numbers fixed up at the end are recorded by offset.
    private mutating func writeMetadata() throws(ContainerWriteError) {
        var properties: [AMF0Property] = [AMF0Property(key: "duration", value: 0)]
        if let video = configuration.video {
            let codecID: Double = switch videoStyle {
            case .legacy: 7
            case .enhanced: Double((video.codec == .hevc ? FLVFourCC.hvc1 : FLVFourCC.avc1).rawValue)
            }
            properties += [AMF0Property(key: "width", value: .number(Double(video.width))),
                           AMF0Property(key: "height", value: .number(Double(video.height))),
                           AMF0Property(key: "videodatarate", value: 0),
                           AMF0Property(key: "framerate", value: .number(configuration.frameRate ?? 0)),
                           AMF0Property(key: "videocodecid", value: .number(codecID))]
        }
        if let audio = configuration.audio {
            properties += [AMF0Property(key: "audiodatarate", value: 0),
                           AMF0Property(key: "audiosamplerate", value: .number(Double(audio.sampleRate))),
                           AMF0Property(key: "audiosamplesize", value: 16),
                           AMF0Property(key: "stereo", value: .boolean(audio.channelCount > 1)),
                           AMF0Property(key: "audiocodecid", value: .number(Double(FLVAudioTagBody.aacSoundFormat)))]
        }
        properties += [AMF0Property(key: "encoder", value: .string(configuration.encoder)), AMF0Property(key: "filesize", value: 0)]
        let body: [UInt8]
        do { body = try FLVScriptData(name: "onMetaData", values: [.ecmaArray(AMF0Object(properties))]).bytes() } catch {
            throw .invalidConfiguration("\(error)")
        }
        // Where each number's 8 bytes lie: after "onMetaData" (13 bytes), the array's marker and count (5),
        // then name (2 + length), marker (1), value.
        var offset = byteCount + FLVTag.headerByteCount + 13 + 5
        for property in properties {
            offset += 2 + property.key.utf8.count + 1
            let isFixed = property.key == "duration" || property.key == "filesize" || (property.key == "framerate" && configuration.frameRate == nil)
            if isFixed { fixups[property.key] = offset }
            offset += (try? AMF0Value.encode([property.value]).count - 1) ?? 0
        }
        try writeTag(.scriptData, timestamp: 0) { (_: inout [UInt8]) throws(FLVError) in } payload: { ByteView(body) }
    }
}
