import Codecs
import Containers
import MediaCore

/// The pictures of an MP4's first video track, decoded by a ``DecompressionSession`` in display order: the input
/// of `encode in.mp4 -o …` (a transcode). The samples are fed to the session on a task of their own while the
/// encoder pulls pictures from ``next()``.
final class MP4PictureSource {
    /// The track being decoded.
    let track: MP4Track
    /// The track's frame rate: its sample count over its media duration, rounded (at least 1).
    let frameRate: Int
    private var iterator: SessionOutputStream<DecompressionOutput>.AsyncIterator
    private let feeder: Task<(any Error)?, Never>

    /// Opens the file and starts decoding its first video track.
    /// - Parameters:
    ///   - path: the `.mp4`/`.mov`/`.m4v` file.
    ///   - outputFormat: the layout of the decoded pictures.
    /// - Throws: ``MP4ReadError`` for a file that does not read, ``CommandLineError`` without a video track,
    ///   ``CodecError`` when no engine decodes it.
    init(path: String, outputFormat: PixelFormat) throws {
        let file = try MP4File(contentsOf: path)
        guard let track = MP4Input.track(of: file, audio: false), case let .video(format) = track.format else {
            throw CommandLineError.conflict("\(path) has no H.264/H.265 track to encode")
        }
        self.track = track
        let seconds = track.mediaDuration.seconds
        frameRate = seconds > 0 ? max(1, Int((Double(track.sampleCount) / seconds).rounded())) : 30
        let session = try DecompressionSession(format: format, registry: EngineSetup.registry(), outputFormat: outputFormat)
        iterator = session.outputs.makeAsyncIterator()
        feeder = Task {
            var failure: (any Error)?
            for sample in file.samples(of: track) {
                do throws(CodecError) {
                    try await session.decode(sample.encodedFrame(format: format))
                } catch {
                    // A frame that cannot be decoded is reported by close(); decoding goes on at the next key frame.
                    guard case .undecodableFrame = error else { failure = error; break }
                }
            }
            do {
                let report = try await session.close()
                for error in report.failures { printError("error: \(error)") }
                if report.dropped > 0 { printError("note: \(report.dropped) frames withheld until the next key frame") }
            } catch {
                failure = failure ?? error
            }
            return failure
        }
    }

    /// The next decoded picture.
    /// - Returns: the picture, `nil` after the last one.
    /// - Throws: what decoding threw.
    func next() async throws -> PixelBuffer? {
        while let item = await iterator.next() {
            if case let .picture(picture) = item { return picture.picture }
        }
        if let failure = await feeder.value { throw failure }
        return nil
    }
}
