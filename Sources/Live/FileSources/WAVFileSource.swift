import Capture
import Containers
import MediaCore

/// A `.wav` file played as a microphone: blocks of 1024 samples at their time (or as fast as the pipeline takes
/// them), once or looping, with timestamps that go on growing across loops.
public actor WAVFileSource: AudioSource {
    /// The samples per block handed out.
    public static let blockFrameCount = 1024

    /// The file's path, for people.
    public nonisolated let name: String
    /// The file's sample rate.
    public nonisolated let sampleRate: Int
    /// The file's channel count.
    public nonisolated let channelCount: Int
    /// Always 0: a file never overruns.
    public var overrunCount: Int { 0 }

    private let path: String
    private let loops: Bool
    private var reader: WAVReader<FileByteSource>?
    private var pace: PaceKeeper
    private var samples: Int64 = 0
    private var samplesInPass = 0
    private var isStopped = false

    /// Opens the file.
    /// - Parameters:
    ///   - path: the `.wav` file (PCM or float, any rate and channel count the reader takes).
    ///   - pacing: real time (a stand-in microphone) or as fast as possible.
    ///   - loops: whether it starts again at its end.
    /// - Throws: ``CaptureError/fileUnreadable(path:reason:)`` when it cannot be opened or is not a WAV file.
    public init(path: String, pacing: Pacing = .realTime, loops: Bool = false) throws(CaptureError) {
        let reader: WAVReader<FileByteSource>
        do { reader = try WAVReader(path: path) } catch { throw .fileUnreadable(path: path, reason: "\(error)") }
        self.path = path
        self.reader = reader
        self.loops = loops
        sampleRate = reader.format.sampleRate
        channelCount = reader.format.channelCount
        pace = PaceKeeper(pacing: pacing)
        name = "\(path) (\(reader.format.sampleRate) Hz, \(reader.format.channelCount) ch\(loops ? ", looping" : ""))"
    }

    /// The next block, at its time when paced; after the last one, the first again when looping.
    /// - Returns: the samples with the time of the first (in samples), or `nil` at the end or once stopped.
    /// - Throws: ``CaptureError/fileUnreadable(path:reason:)`` when the file is damaged midway.
    public func nextBuffer() async throws(CaptureError) -> CapturedAudio? {
        guard !isStopped, !Task.isCancelled, let buffer = try readBlock() else {
            isStopped = true
            return nil
        }
        let pts = MediaTime(value: samples, timescale: Int32(clamping: sampleRate))
        guard await PaceKeeper.sleep(until: pace.deadline(for: pts)), !isStopped else {
            isStopped = true
            return nil
        }
        samples += Int64(buffer.frameCount)
        return CapturedAudio(buffer: buffer, pts: pts)
    }

    /// Ends the stream; a later ``nextBuffer()`` returns `nil`.
    public func stop() {
        isStopped = true
        reader = nil
    }

    private func readBlock() throws(CaptureError) -> AudioBuffer? {
        for _ in 0..<2 {
            guard var current = reader else { return nil }
            let block: AudioBuffer?
            do { block = try current.read(maxFrameCount: Self.blockFrameCount) } catch { throw .fileUnreadable(path: path, reason: "\(error)") }
            if let block {
                reader = current
                samplesInPass += block.frameCount
                return block
            }
            guard loops, samplesInPass > 0 else { return nil }
            samplesInPass = 0
            do { reader = try WAVReader(path: path) } catch { throw .fileUnreadable(path: path, reason: "\(error)") }
        }
        return nil
    }
}
