import MediaCore

/// Writes a WAV file (RIFF/WAVE): 16-bit PCM or 32-bit IEEE float, interleaved, little-endian.
///
/// The header is written first with zero sizes; ``finish()`` patches the RIFF size, the `data` size
/// (and, for float, the `fact` sample count), so a file finished early — after a Ctrl-C, say — is
/// still a valid WAV of what was written. The sink must support
/// ``ByteSink/overwrite(_:at:)`` (files and memory do, pipes do not).
///
/// Up to two channels use the plain `WAVEFORMATEX` header (PCM: 16 bytes; float: 18 bytes plus a
/// `fact` chunk); more channels use `WAVE_FORMAT_EXTENSIBLE`, whose `dwChannelMask` is the
/// ``channelMask`` given (no speaker positions assigned without one).
public struct WAVWriter<Sink: ByteSink> {
    /// The largest file RIFF's 32-bit sizes can describe.
    public static var maximumFileSize: Int { Int(UInt32.max) }

    /// Samples per second per channel.
    public let sampleRate: Int
    /// The number of channels.
    public let channelCount: Int
    /// How samples are stored in the file.
    public let sampleFormat: SampleFormat
    /// The speakers the channels feed, written as `dwChannelMask` of an extensible header; `nil`
    /// (written as 0) assigns none.
    public let channelMask: WAVChannelMask?
    /// The sink; with ``MemoryByteSink`` its `bytes` hold the file.
    public private(set) var sink: Sink
    /// The sample frames written so far.
    public private(set) var frameCount = 0
    private let headerSize: Int
    private let dataSizeOffset: Int
    private let factSampleCountOffset: Int?
    private var isFinished = false

    /// Creates a writer and writes the header.
    /// - Parameters:
    ///   - sink: where the file goes; it must support ``ByteSink/overwrite(_:at:)``.
    ///   - sampleRate: samples per second, 1...2³¹−1.
    ///   - channelCount: 1...65535.
    ///   - sampleFormat: 16-bit PCM (`.int16`) or 32-bit float (`.float32`).
    ///   - channelMask: the speakers the channels feed, in mask order (for example
    ///     ``WAVChannelMask/init(aacChannelConfiguration:)``); it must name `channelCount` speakers.
    ///     Used when the header is extensible (more than two channels).
    /// - Throws: ``ContainerWriteError/invalidConfiguration(_:)`` for a rate or channel count WAV cannot
    ///   hold or a mask with another number of speakers, ``ContainerWriteError/io(_:)`` when the sink fails.
    public init(sink: Sink, sampleRate: Int, channelCount: Int, sampleFormat: SampleFormat = .int16,
                channelMask: WAVChannelMask? = nil) throws(ContainerWriteError) {
        guard (1...Int(Int32.max)).contains(sampleRate) else { throw .invalidConfiguration("WAV sample rate \(sampleRate) outside 1...\(Int32.max)") }
        guard (1...0xFFFF).contains(channelCount) else { throw .invalidConfiguration("WAV channel count \(channelCount) outside 1...65535") }
        let blockAlign = channelCount * sampleFormat.byteCount
        guard blockAlign <= 0xFFFF, sampleRate * blockAlign <= Int(UInt32.max) else {
            throw .invalidConfiguration("WAV cannot hold \(channelCount) channels at \(sampleRate) Hz (nBlockAlign or nAvgBytesPerSec too large)")
        }
        if let channelMask, channelMask.speakerCount != channelCount {
            throw .invalidConfiguration("WAV channel mask \(channelMask) names \(channelMask.speakerCount) speakers for \(channelCount) channels")
        }
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.sampleFormat = sampleFormat
        self.channelMask = channelMask
        self.sink = sink

        let isFloat = sampleFormat == .float32
        let extensible = channelCount > 2
        let tag: UInt16 = extensible ? WAVFormat.extensibleTag : (isFloat ? WAVFormat.floatTag : WAVFormat.pcmTag)
        var header: [UInt8] = []
        header += Array("RIFF".utf8) + Self.le32(0) + Array("WAVE".utf8)
        var fmt: [UInt8] = Self.le16(Int(tag)) + Self.le16(channelCount) + Self.le32(sampleRate)
        fmt += Self.le32(sampleRate * blockAlign) + Self.le16(blockAlign) + Self.le16(8 * sampleFormat.byteCount)
        if extensible {
            fmt += Self.le16(22) + Self.le16(8 * sampleFormat.byteCount) + Self.le32(Int(channelMask?.rawValue ?? 0))
            fmt += Self.le32(Int(isFloat ? WAVFormat.floatTag : WAVFormat.pcmTag)) + WAVFormat.subformatGUIDSuffix
        } else if isFloat {
            fmt += Self.le16(0)  // cbSize: non-PCM formats carry it
        }
        header += Array("fmt ".utf8) + Self.le32(fmt.count) + fmt
        if isFloat {
            // Non-PCM formats carry a `fact` chunk with the sample frame count, patched in finish().
            factSampleCountOffset = header.count + 8
            header += Array("fact".utf8) + Self.le32(4) + Self.le32(0)
        } else {
            factSampleCountOffset = nil
        }
        header += Array("data".utf8) + Self.le32(0)
        dataSizeOffset = header.count - 4
        headerSize = header.count
        do { try self.sink.write(header) } catch { throw .io(error) }
    }

    /// The bytes of samples written so far.
    public var dataByteCount: Int { frameCount * channelCount * sampleFormat.byteCount }

    /// Appends samples, converting them to the file's sample format (float → 16-bit is clipped and
    /// rounded) and interleaving planar buffers.
    /// - Parameter audio: samples at the writer's rate and channel count.
    /// - Throws: ``ContainerWriteError/frameMismatch(frameIndex:reason:)`` for another rate or channel
    ///   count, ``ContainerWriteError/sizeLimitExceeded(limit:)`` past 4 GiB,
    ///   ``ContainerWriteError/alreadyFinished`` after ``finish()``, ``ContainerWriteError/io(_:)``.
    public mutating func write(_ audio: AudioBuffer) throws(ContainerWriteError) {
        guard !isFinished else { throw .alreadyFinished }
        guard audio.sampleRate == sampleRate, audio.channelCount == channelCount else {
            throw .frameMismatch(frameIndex: frameCount, reason: "audio is \(audio.sampleRate) Hz × \(audio.channelCount) channels, "
                                 + "file is \(sampleRate) Hz × \(channelCount)")
        }
        let frames = audio.frameCount
        guard frames > 0 else { return }
        let added = frames * channelCount * sampleFormat.byteCount
        guard headerSize + dataByteCount + added <= Self.maximumFileSize else { throw .sizeLimitExceeded(limit: Self.maximumFileSize) }
        do {
            #if _endian(little)
            if audio.format == sampleFormat && audio.isInterleaved, let data = audio.channelData.first {
                try sink.write(data[0..<added])  // already the file's layout: no copy
                frameCount += frames
                return
            }
            #endif
            try sink.write(Self.fileBytes(of: audio, as: sampleFormat))
        } catch {
            throw .io(error)
        }
        frameCount += frames
    }

    /// Patches the sizes in the header, then flushes and closes the sink. Calling it again does nothing.
    /// - Throws: ``ContainerWriteError/io(_:)`` when the sink cannot be patched or closed.
    public mutating func finish() throws(ContainerWriteError) {
        guard !isFinished else { return }
        isFinished = true
        do {
            try sink.overwrite(Self.le32(headerSize - 8 + dataByteCount), at: 4)
            try sink.overwrite(Self.le32(dataByteCount), at: dataSizeOffset)
            if let factSampleCountOffset { try sink.overwrite(Self.le32(frameCount), at: factSampleCountOffset) }
            try sink.close()
        } catch {
            throw .io(error)
        }
    }

    /// The samples as the file stores them: interleaved, little-endian, in `format`.
    private static func fileBytes(of audio: AudioBuffer, as format: SampleFormat) -> [UInt8] {
        let frames = audio.frameCount
        var bytes: [UInt8]
        if audio.format == format && audio.isInterleaved, let data = audio.channelData.first {
            bytes = Array(data.prefix(frames * audio.channelCount * format.byteCount))
        } else if format == .int16 {
            bytes = audio.interleavedInt16.withUnsafeBytes { Array($0) }
        } else {
            let planar = audio.planarFloat32
            var interleaved = [Float](repeating: 0, count: frames * audio.channelCount)
            for (channel, samples) in planar.enumerated() {
                for (frame, sample) in samples.enumerated() { interleaved[frame * audio.channelCount + channel] = sample }
            }
            bytes = interleaved.withUnsafeBytes { Array($0) }
        }
        #if _endian(big)
        var index = 0
        while index + format.byteCount <= bytes.count {
            bytes[index..<(index + format.byteCount)].reverse()
            index += format.byteCount
        }
        #endif
        return bytes
    }

    private static func le16(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }

    private static func le32(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
         UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24)]
    }
}

extension WAVWriter where Sink == FileByteSink {
    /// Creates (or truncates) a WAV file and writes its header.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - sampleRate: samples per second.
    ///   - channelCount: the number of channels.
    ///   - sampleFormat: 16-bit PCM or 32-bit float.
    ///   - channelMask: the speakers the channels feed (see ``init(sink:sampleRate:channelCount:sampleFormat:channelMask:)``).
    /// - Throws: ``ContainerWriteError`` as ``init(sink:sampleRate:channelCount:sampleFormat:channelMask:)``, or `.io`
    ///   when the file cannot be created.
    public init(path: String, sampleRate: Int, channelCount: Int, sampleFormat: SampleFormat = .int16,
                channelMask: WAVChannelMask? = nil) throws(ContainerWriteError) {
        let sink: FileByteSink
        do { sink = try FileByteSink(path: path) } catch { throw .io(error) }
        try self.init(sink: sink, sampleRate: sampleRate, channelCount: channelCount, sampleFormat: sampleFormat,
                      channelMask: channelMask)
    }
}
