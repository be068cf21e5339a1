import AAC
import MediaCore

/// Writes ``EncodedAudioFrame``s (raw AAC access units) as an ADTS stream (`.aac`): each frame behind
/// a 7-byte header (ISO/IEC 13818-7 §6.2.1 / ISO/IEC 14496-3 §1.A.3.2: MPEG-4, no CRC, one raw data
/// block, variable bit rate), what `AudioConverter` + an ADTS muxer produce on iOS.
///
/// The header comes from the frame's ``AudioFormatDescription``: from its AudioSpecificConfig when it
/// has one (the core object type, sampling frequency index and channel configuration — for HE-AAC the
/// core AAC-LC at half rate, as ADTS HE-AAC streams signal it), otherwise from its sample rate,
/// channel count and profile name (`Main`, `LC`, `SSR`, `LTP`).
public struct ADTSWriter<Sink: ByteSink> {
    /// The sink; with ``MemoryByteSink`` its `bytes` hold the stream.
    public private(set) var sink: Sink
    /// The number of frames written.
    public private(set) var frameCount = 0
    private var cachedFormat: AudioFormatDescription?
    private var cachedHeader: ADTSHeader?
    private var isFinished = false

    /// Creates a writer.
    /// - Parameter sink: where the stream goes.
    public init(sink: Sink) {
        self.sink = sink
    }

    /// Writes one frame with its ADTS header.
    /// - Parameter frame: a raw AAC access unit of at most 8184 bytes.
    /// - Throws: ``ContainerWriteError/unsupportedCodec(_:frameIndex:)`` for video,
    ///   ``ContainerWriteError/audioSpecificConfig(frameIndex:_:)`` for an unreadable configuration,
    ///   ``ContainerWriteError/adtsHeader(frameIndex:_:)`` when ADTS cannot describe the frame,
    ///   ``ContainerWriteError/invalidConfiguration(_:)`` for a profile ADTS cannot carry,
    ///   ``ContainerWriteError/alreadyFinished`` after ``finish()``, ``ContainerWriteError/io(_:)``.
    public mutating func write(_ frame: EncodedAudioFrame) throws(ContainerWriteError) {
        guard !isFinished else { throw .alreadyFinished }
        guard frame.format.codec == .aac else { throw .unsupportedCodec(frame.format.codec, frameIndex: frameCount) }
        let template: ADTSHeader
        if let cachedHeader, cachedFormat == frame.format {
            template = cachedHeader
        } else {
            template = try Self.header(for: frame.format, frameIndex: frameCount)
            cachedHeader = template
            cachedFormat = frame.format
        }
        let header: ADTSHeader
        do { header = try template.withPayloadLength(frame.data.count) } catch {
            throw .adtsHeader(frameIndex: frameCount, error)
        }
        do {
            try sink.write(header.serialized())
            try sink.write(frame.data)
        } catch {
            throw .io(error)
        }
        frameCount += 1
    }

    /// Flushes and closes the sink. Calling it again does nothing.
    /// - Throws: ``ContainerWriteError/io(_:)`` when the last bytes cannot be written.
    public mutating func finish() throws(ContainerWriteError) {
        guard !isFinished else { return }
        isFinished = true
        do { try sink.close() } catch { throw .io(error) }
    }

    /// The header of an empty frame of this format (the writer sets each frame's length).
    static func header(for format: AudioFormatDescription, frameIndex: Int) throws(ContainerWriteError) -> ADTSHeader {
        if !format.audioSpecificConfig.isEmpty {
            let config: AudioSpecificConfig
            do { config = try AudioSpecificConfig.parse(format.audioSpecificConfig) } catch {
                throw .audioSpecificConfig(frameIndex: frameIndex, error)
            }
            do { return try config.adtsHeader(payloadLength: 0) } catch { throw .adtsHeader(frameIndex: frameIndex, error) }
        }
        let objectTypes: [String: AudioObjectType] = ["Main": .aacMain, "LC": .aacLC, "SSR": .aacSSR, "LTP": .aacLTP]
        guard let objectType = objectTypes[format.profile] else {
            throw .invalidConfiguration("AAC profile \"\(format.profile)\" without an AudioSpecificConfig cannot be written "
                                        + "to ADTS (Main, LC, SSR or LTP)")
        }
        do {
            return try ADTSHeader(audioObjectType: objectType, sampleRate: format.sampleRate, channels: format.channelCount,
                                  payloadLength: 0)
        } catch {
            throw .adtsHeader(frameIndex: frameIndex, error)
        }
    }
}

extension ADTSWriter where Sink == FileByteSink {
    /// Creates (or truncates) an `.aac` file.
    /// - Parameter path: the file's path.
    /// - Throws: ``ContainerWriteError/io(_:)`` when the file cannot be created.
    public init(path: String) throws(ContainerWriteError) {
        let sink: FileByteSink
        do { sink = try FileByteSink(path: path) } catch { throw .io(error) }
        self.init(sink: sink)
    }
}
