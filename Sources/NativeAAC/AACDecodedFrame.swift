/// What became of one raw data block.
public enum AACFrameStatus: Sendable, Equatable {
    /// Decoded as coded.
    case decoded
    /// Damaged (truncated, impossible Huffman data, a value out of range, a CRC mismatch) or of an
    /// unsupported kind: the output is concealed — the previous frame's overlap fading out, then
    /// silence — and the error says why.
    case concealed(NativeAACError)

    /// Whether the frame was concealed.
    public var isConcealed: Bool {
        if case .concealed = self { return true }
        return false
    }
}

/// The PCM of one decoded raw data block: 1024 samples per channel, in −1…1 (16-bit full scale is 1.0).
public struct AACDecodedFrame: Sendable {
    /// One array of 1024 samples per channel, in the layout's output order.
    public var channels: [[Float]]
    /// Whether the frame decoded or was concealed.
    public var status: AACFrameStatus

    /// Creates a frame.
    /// - Parameters:
    ///   - channels: the samples of each channel.
    ///   - status: how the frame was obtained.
    public init(channels: [[Float]], status: AACFrameStatus) {
        self.channels = channels
        self.status = status
    }

    /// The number of samples per channel.
    public var sampleCount: Int { channels.first?.count ?? 0 }

    /// The samples as interleaved 16-bit integers, rounded and clipped.
    public var interleavedInt16: [Int16] {
        let count = sampleCount
        let channelCount = channels.count
        var output = [Int16](repeating: 0, count: count * channelCount)
        for (channel, samples) in channels.enumerated() {
            for index in 0..<count {
                let value = (samples[index] * 32768).rounded()
                output[index * channelCount + channel] = Int16(max(-32768, min(32767, value)))
            }
        }
        return output
    }
}
