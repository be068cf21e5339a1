import Foundation
import Synchronization

/// One live progress line on the terminal (frames, fps, bitrate, elapsed), redrawn in place; silent
/// when standard error is not a terminal.
final class ProgressLine: Sendable {
    private struct State {
        var frames = 0
        var bytes = 0
        var audioFrames = 0
        var lastDraw = 0.0
    }

    private let label: String
    private let totalFrames: Int?
    private let frameRate: Double
    private let start = Date()
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let state = Mutex(State())

    /// Creates a progress line.
    /// - Parameters:
    ///   - label: the first word, for example "recording".
    ///   - totalFrames: the planned frame count, if known.
    ///   - frameRate: frames per second of the media (for the bitrate).
    init(label: String, totalFrames: Int?, frameRate: Double) {
        self.label = label
        self.totalFrames = totalFrames
        self.frameRate = frameRate
    }

    /// Records a finished video frame.
    /// - Parameter bytes: its encoded size.
    func videoFrame(bytes: Int) {
        state.withLock { $0.frames += 1; $0.bytes += bytes }
        draw()
    }

    /// Records encoded audio frames.
    /// - Parameter count: how many.
    func audioFrames(_ count: Int) {
        state.withLock { $0.audioFrames += count }
    }

    /// Ends the line (a newline on a terminal).
    func finish() {
        draw(force: true)
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    /// The numbers so far.
    var counts: (frames: Int, bytes: Int, audioFrames: Int) {
        state.withLock { ($0.frames, $0.bytes, $0.audioFrames) }
    }

    private func draw(force: Bool = false) {
        guard isTerminal else { return }
        let elapsed = Date().timeIntervalSince(start)
        let snapshot = state.withLock { state -> State? in
            guard force || elapsed - state.lastDraw >= 0.2 else { return nil }
            state.lastDraw = elapsed
            return state
        }
        guard let snapshot else { return }
        let fps = elapsed > 0 ? Double(snapshot.frames) / elapsed : 0
        let kbps = snapshot.frames > 0 ? Double(snapshot.bytes) * 8 * frameRate / Double(snapshot.frames) / 1000 : 0
        let total = totalFrames.map { "/\($0)" } ?? ""
        let line = String(format: "\r%@ frames %d%@  %.1f fps  %.0f kbit/s  audio %d  %02d:%04.1f ",
                          label, snapshot.frames, total, fps, kbps, snapshot.audioFrames, Int(elapsed) / 60,
                          elapsed.truncatingRemainder(dividingBy: 60))
        FileHandle.standardError.write(Data(line.utf8))
    }
}
