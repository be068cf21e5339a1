import MediaCore

/// A microphone that needs no hardware: a sine tone (440 Hz by default) plus a little white noise, as
/// interleaved 16-bit PCM in blocks of 1024 samples per channel by default.
///
/// The pts of a block is the number of its first sample (timescale = sample rate).
///
/// **Pacing.** With `realTime: true` block `n` is delivered once it would have been fully recorded:
/// at `start + (n + 1) * samplesPerBuffer / sampleRate`, `start` being the first call to ``nextBuffer()``.
/// A late consumer gets the recorded blocks back to back, as from a sound card's ring buffer; if it falls
/// more than `maximumLatency` behind, the ring buffer overflows like an ALSA overrun: the buffered audio
/// is lost, ``overrunCount`` and ``droppedSampleCount`` say so, and the pts jump. With `realTime: false`
/// blocks come as fast as they are pulled.
///
/// **Concurrency.** An actor: any task may pull blocks or call ``stop()``. Cancelling the task that waits
/// in ``nextBuffer()`` stops the microphone.
public actor SyntheticMicrophone: AudioSource, PacedSource {
    /// "synthetic microphone 440 Hz, 48000 Hz, 1 ch".
    public nonisolated let name: String
    /// Samples per second per channel.
    public nonisolated let sampleRate: Int
    /// Channels (the same tone on each).
    public nonisolated let channelCount: Int
    /// Samples per channel in each block.
    public nonisolated let samplesPerBuffer: Int
    /// The tone's frequency in hertz.
    public nonisolated let frequency: Double
    /// Whether blocks are paced in real time.
    public nonisolated let isRealTime: Bool
    /// The stream ends before block number `bufferLimit` (blocks lost to overruns count too), or never when `nil`.
    public nonisolated let bufferLimit: Int?

    /// Times the consumer fell more than the maximum latency behind (real-time mode only).
    public private(set) var overrunCount = 0
    /// Samples per channel lost to overruns.
    public private(set) var droppedSampleCount: Int64 = 0

    private var generator: ToneGenerator
    private let ringCapacity: Int64
    // clock, schedule and isStopped are internal (not private) to satisfy ``PacedSource``.
    let clock = ContinuousClock()
    var schedule: RealTimeSchedule?
    private var nextIndex: Int64 = 0
    var isStopped = false

    /// Creates a microphone.
    /// - Parameters:
    ///   - sampleRate: samples per second per channel, 8000…192000 (48000 by default).
    ///   - channelCount: channels, 1…8 (1 by default).
    ///   - samplesPerBuffer: samples per channel in each block, 1…65536 (1024 by default).
    ///   - frequency: the tone, above 0 and below half the sample rate (440 Hz by default).
    ///   - amplitude: the tone's peak as a fraction of full scale, 0…1 (0.5 by default, −6 dBFS).
    ///   - noiseLevel: the uniform noise's peak as a fraction of full scale, 0…1 (0.005 by default, −46 dBFS).
    ///   - realTime: pace blocks in real time (default) or deliver them as fast as they are pulled.
    ///   - maximumLatency: in real time, how far the consumer may fall behind before an overrun (0.5 s by
    ///     default, at least one block).
    ///   - bufferLimit: end the stream before this block number (`nil`: never); at least 0.
    /// - Throws: ``CaptureError/invalidConfiguration(parameter:reason:)`` naming the parameter out of range.
    public init(sampleRate: Int = 48000, channelCount: Int = 1, samplesPerBuffer: Int = 1024, frequency: Double = 440,
                amplitude: Double = 0.5, noiseLevel: Double = 0.005, realTime: Bool = true,
                maximumLatency: MediaTime = MediaTime(value: 1, timescale: 2), bufferLimit: Int? = nil) throws(CaptureError) {
        guard (8000...192_000).contains(sampleRate) else {
            throw .invalidConfiguration(parameter: "sampleRate", reason: "is \(sampleRate); allowed 8000…192000 Hz")
        }
        guard (1...8).contains(channelCount) else {
            throw .invalidConfiguration(parameter: "channelCount", reason: "is \(channelCount); allowed 1…8")
        }
        guard (1...65536).contains(samplesPerBuffer) else {
            throw .invalidConfiguration(parameter: "samplesPerBuffer", reason: "is \(samplesPerBuffer); allowed 1…65536")
        }
        guard frequency > 0, frequency < Double(sampleRate) / 2 else {
            throw .invalidConfiguration(parameter: "frequency",
                                        reason: "is \(frequency) Hz; allowed above 0 and below \(sampleRate / 2) Hz")
        }
        guard (0...1).contains(amplitude) else {
            throw .invalidConfiguration(parameter: "amplitude", reason: "is \(amplitude); allowed 0…1")
        }
        guard (0...1).contains(noiseLevel) else {
            throw .invalidConfiguration(parameter: "noiseLevel", reason: "is \(noiseLevel); allowed 0…1")
        }
        guard maximumLatency.value >= 0, maximumLatency.seconds <= 60 else {
            throw .invalidConfiguration(parameter: "maximumLatency", reason: "is \(maximumLatency); allowed 0…60 s")
        }
        if let bufferLimit, bufferLimit < 0 {
            throw .invalidConfiguration(parameter: "bufferLimit", reason: "is \(bufferLimit); allowed ≥ 0")
        }
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.samplesPerBuffer = samplesPerBuffer
        self.frequency = frequency
        self.isRealTime = realTime
        self.bufferLimit = bufferLimit
        let latencySamples = maximumLatency.value * Int64(sampleRate) / Int64(maximumLatency.timescale)
        self.ringCapacity = max(1, latencySamples / Int64(samplesPerBuffer))
        self.generator = ToneGenerator(sampleRate: sampleRate, channelCount: channelCount, frequency: frequency,
                                       amplitude: amplitude, noiseLevel: noiseLevel)
        let hertz = frequency == frequency.rounded() ? String(Int(frequency)) : String(frequency)
        self.name = "synthetic microphone \(hertz) Hz, \(sampleRate) Hz, \(channelCount) ch"
    }

    /// Waits for the next block: in real time, the oldest recorded block not yet delivered (after an overrun,
    /// the block being recorded now); otherwise the next block at once.
    /// - Returns: the block, or `nil` once the limit is reached, after ``stop()``, or on cancellation.
    /// - Throws: never in practice; the signature matches ``AudioSource``.
    public func nextBuffer() async throws(CaptureError) -> CapturedAudio? {
        guard isRunning() else { return nil }
        let limit = bufferLimit.map(Int64.init) ?? Int64.max
        var index = nextIndex
        guard index < limit else { return nil }
        if isRealTime {
            let now = clock.now
            let period = MediaTime(value: Int64(samplesPerBuffer), timescale: Int32(sampleRate))
            let schedule = startSchedule(period: period, at: now)
            let recorded = schedule.dueIndex(at: now)  // blocks fully recorded by now
            if recorded - index > ringCapacity {
                // Overrun: the ring buffer filled up; what it held is lost and recording restarts now.
                overrunCount += 1
                droppedSampleCount += (recorded - index) * Int64(samplesPerBuffer)
                index = min(recorded, limit)
                guard index < limit else {
                    nextIndex = limit
                    return nil
                }
            }
            nextIndex = index + 1
            guard await waitUntil(schedule.instant(of: index + 1)) else { return nil }
        } else {
            nextIndex = index + 1
        }
        let firstSample = index * Int64(samplesPerBuffer)
        let bytes = generator.block(startingAt: firstSample, frameCount: samplesPerBuffer)
        do {
            let buffer = try AudioBuffer(sampleRate: sampleRate, channelCount: channelCount, format: .int16,
                                         isInterleaved: true, channelData: [bytes])
            return CapturedAudio(buffer: buffer, pts: MediaTime(value: firstSample, timescale: Int32(sampleRate)))
        } catch {
            throw .invalidConfiguration(parameter: "audio buffer", reason: error.description)
        }
    }

    /// Ends the stream: a pending ``nextBuffer()`` returns `nil` within about 20 ms, and so do later calls.
    public func stop() {
        isStopped = true
    }
}

extension SyntheticMicrophone: CustomStringConvertible {
    /// The microphone's ``name``.
    public nonisolated var description: String { name }
}
