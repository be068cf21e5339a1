/// The bit reservoir of a constant-average-rate AAC stream (ISO/IEC 14496-3 §4.5.3 and the ADTS
/// `adts_buffer_fullness` it implies): every frame earns the mean bits of the target rate; a frame that
/// uses fewer saves the rest for later frames, up to the decoder's input buffer of 6144 bits per channel
/// (§4.5.3.2), and a frame never uses more than it earned plus what was saved. When the saved bits would
/// overflow the buffer, the frame is padded (fill elements) so the average rate holds.
struct AACBitReservoir: Sendable {
    /// The mean bits per frame at the target rate.
    private(set) var meanBits: Double
    /// The most bits a frame may hold: 6144 per channel.
    let frameLimit: Int
    /// The bits saved so far.
    private(set) var level: Double = 0
    /// The average perceptual entropy of recent frames.
    private var averageEntropy: Double = 0

    /// Creates a reservoir.
    /// - Parameters:
    ///   - bitRate: the target rate, bits per second.
    ///   - sampleRate: samples per second.
    ///   - channelCount: channels (the buffer is 6144 bits each).
    init(bitRate: Int, sampleRate: Int, channelCount: Int) {
        frameLimit = 6144 * channelCount
        meanBits = 0
        setBitRate(bitRate, sampleRate: sampleRate)
    }

    /// The most bits the reservoir holds: the buffer less one mean frame.
    var capacity: Double { max(0, Double(frameLimit) - meanBits) }

    /// Changes the target rate (live reconfiguration); what was saved stays, within the new capacity.
    /// - Parameters:
    ///   - bitRate: bits per second.
    ///   - sampleRate: samples per second.
    mutating func setBitRate(_ bitRate: Int, sampleRate: Int) {
        meanBits = min(Double(bitRate) * 1024 / Double(sampleRate), Double(frameLimit))
        level = min(level, capacity)
    }

    /// The bits a frame should aim at, and the most it may use.
    /// - Parameter entropy: the frame's perceptual entropy.
    /// - Returns: the target and the limit, in bits.
    mutating func budget(entropy: Double) -> (target: Int, limit: Int) {
        averageEntropy = averageEntropy == 0 ? max(entropy, 1) : 0.9 * averageEntropy + 0.1 * max(entropy, 1)
        let demand = min(max(0.6 + 0.4 * entropy / averageEntropy, 0.7), 1.8)
        let limit = min(Double(frameLimit), meanBits + level)
        let target = meanBits * demand + 0.25 * (level - 0.5 * capacity)
        return (Int(min(max(target, 0.25 * meanBits), limit)), Int(limit))
    }

    /// The padding a frame of `bits` needs so the reservoir does not overflow.
    /// - Parameter bits: the bits the frame's content uses.
    /// - Returns: the bits of padding to add (0 when none).
    func overflow(ifUsing bits: Int) -> Int {
        max(0, Int((level + meanBits - Double(bits) - capacity).rounded(.up)))
    }

    /// Accounts for a frame as written.
    /// - Parameter bits: the bits it holds, padding included.
    mutating func commit(bits: Int) {
        level = min(level + meanBits - Double(bits), capacity)
    }
}
