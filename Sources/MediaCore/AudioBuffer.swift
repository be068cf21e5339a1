/// How one audio sample is stored.
public enum SampleFormat: String, Sendable, Hashable {
    /// Signed 16-bit integers, native byte order.
    case int16
    /// 32-bit floats in −1…1.
    case float32

    /// Bytes per sample.
    public var byteCount: Int { self == .int16 ? 2 : 4 }
}

/// A block of PCM audio — StreamKit's `AudioBufferList` / `CMSampleBuffer` of LPCM.
///
/// Interleaved buffers keep one array with the channels alternating (L R L R …); planar buffers keep one
/// array per channel. Samples are stored as ``SampleFormat`` says, in native byte order.
public struct AudioBuffer: Sendable, Hashable {
    /// Samples per second per channel.
    public let sampleRate: Int
    /// The number of channels.
    public let channelCount: Int
    /// How each sample is stored.
    public let format: SampleFormat
    /// Whether the channels alternate in one array (`true`) or each has its own (`false`).
    public let isInterleaved: Bool
    /// One array when interleaved, else one per channel; each holds raw sample bytes.
    public var channelData: [[UInt8]]

    /// The number of samples per channel.
    public var frameCount: Int {
        guard let first = channelData.first else { return 0 }
        return isInterleaved ? first.count / (format.byteCount * channelCount) : first.count / format.byteCount
    }

    /// The duration of the buffer.
    public var duration: MediaTime { MediaTime(value: Int64(frameCount), timescale: Int32(sampleRate)) }

    /// Creates a buffer from raw sample bytes.
    /// - Parameters:
    ///   - sampleRate: samples per second per channel.
    ///   - channelCount: the number of channels (≥ 1).
    ///   - format: how each sample is stored.
    ///   - isInterleaved: whether `channelData` holds one interleaved array.
    ///   - channelData: one array (interleaved) or one per channel (planar).
    /// - Throws: ``AudioBufferError`` if the arrays do not match the channel count and format.
    public init(sampleRate: Int, channelCount: Int, format: SampleFormat, isInterleaved: Bool,
                channelData: [[UInt8]]) throws(AudioBufferError) {
        guard sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
        guard channelCount > 0 else { throw .invalidChannelCount(channelCount) }
        let arrays = isInterleaved ? 1 : channelCount
        guard channelData.count == arrays else { throw .layoutMismatch("expected \(arrays) arrays, got \(channelData.count)") }
        let unit = format.byteCount * (isInterleaved ? channelCount : 1)
        guard channelData.allSatisfy({ $0.count % unit == 0 }), Set(channelData.map(\.count)).count <= 1 else {
            throw .layoutMismatch("sample arrays must hold whole frames of equal length")
        }
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.format = format
        self.isInterleaved = isInterleaved
        self.channelData = channelData
    }

    /// Creates an interleaved 16-bit buffer.
    /// - Parameters:
    ///   - samples: interleaved samples (L R L R …).
    ///   - sampleRate: samples per second per channel.
    ///   - channelCount: the number of channels.
    /// - Throws: ``AudioBufferError`` if `samples` is not a whole number of frames.
    public init(interleavedInt16 samples: [Int16], sampleRate: Int, channelCount: Int) throws(AudioBufferError) {
        var bytes = [UInt8](repeating: 0, count: samples.count * 2)
        bytes.withUnsafeMutableBytes { raw in
            samples.withUnsafeBytes { raw.copyMemory(from: $0) }
        }
        try self.init(sampleRate: sampleRate, channelCount: channelCount, format: .int16, isInterleaved: true, channelData: [bytes])
    }

    /// The samples as interleaved 16-bit integers, converting from float (clipped) or planar storage.
    public var interleavedInt16: [Int16] {
        let frames = frameCount
        var out = [Int16](repeating: 0, count: frames * channelCount)
        for frame in 0..<frames {
            for channel in 0..<channelCount {
                out[frame * channelCount + channel] = int16Sample(frame: frame, channel: channel)
            }
        }
        return out
    }

    /// The samples as planar 32-bit floats in −1…1, one array per channel.
    public var planarFloat32: [[Float]] {
        let frames = frameCount
        return (0..<channelCount).map { channel in
            (0..<frames).map { frame in floatSample(frame: frame, channel: channel) }
        }
    }

    private func byteOffset(frame: Int, channel: Int) -> (array: Int, offset: Int) {
        isInterleaved
            ? (0, (frame * channelCount + channel) * format.byteCount)
            : (channel, frame * format.byteCount)
    }

    private func int16Sample(frame: Int, channel: Int) -> Int16 {
        switch format {
        case .int16:
            let (array, offset) = byteOffset(frame: frame, channel: channel)
            return channelData[array].withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int16.self) }
        case .float32:
            let value = floatSample(frame: frame, channel: channel)
            return Int16(max(-32768, min(32767, (value * 32768).rounded())))
        }
    }

    private func floatSample(frame: Int, channel: Int) -> Float {
        let (array, offset) = byteOffset(frame: frame, channel: channel)
        switch format {
        case .int16:
            let value = channelData[array].withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int16.self) }
            return Float(value) / 32768
        case .float32:
            return channelData[array].withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Float.self) }
        }
    }
}

/// Audio that cannot be built as asked.
public enum AudioBufferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sample rate is not positive.
    case invalidSampleRate(Int)
    /// The channel count is not positive.
    case invalidChannelCount(Int)
    /// The arrays do not match the layout; the text says how.
    case layoutMismatch(String)

    /// What is wrong.
    public var description: String {
        switch self {
        case let .invalidSampleRate(rate): return "invalid sample rate \(rate)"
        case let .invalidChannelCount(count): return "invalid channel count \(count)"
        case let .layoutMismatch(text): return "audio layout mismatch: \(text)"
        }
    }
}
