import Codecs
import Containers
import MediaCore

/// The pictures of an FLV's video (H.264, or H.265 over the Enhanced RTMP header), decoded by a
/// ``DecompressionSession`` in display order: the input of `encode in.flv -o …` (a transcode), as
/// ``MP4PictureSource`` is for an MP4. The frames are fed to the session on a task of their own while the
/// encoder pulls pictures from ``next()``.
final class FLVPictureSource {
    /// The video format of the first sequence start.
    let format: FormatDescription
    /// The frame rate: `onMetaData`'s `framerate`, else from the first two pictures' decode times (at least 1).
    let frameRate: Int
    private var iterator: SessionOutputStream<DecompressionOutput>.AsyncIterator
    private let feeder: Task<(any Error)?, Never>

    /// Opens the file and starts decoding its video.
    /// - Parameters:
    ///   - path: the `.flv` file.
    ///   - outputFormat: the layout of the decoded pictures.
    /// - Throws: ``FLVError`` for a file that does not read, ``CommandLineError`` without H.264/H.265 video,
    ///   ``CodecError`` when no engine decodes it.
    init(path: String, outputFormat: PixelFormat) throws {
        (format, frameRate) = try Self.probe(path)
        let session = try DecompressionSession(format: format, registry: EngineSetup.registry(), outputFormat: outputFormat)
        iterator = session.outputs.makeAsyncIterator()
        // The feeding task reads the file again from its start (a reader belongs to one task).
        feeder = Task { await FLVPictureSource.feed(path, to: session) }
    }

    /// Reads ahead to the first two pictures: the format and, without `onMetaData`, the frame rate.
    private static func probe(_ path: String) throws -> (FormatDescription, Int) {
        var reader = FLVMediaReader(reader: try FLVReader(source: try FileByteSource(path: path)))
        var ahead: [EncodedFrame] = []
        while ahead.count < 2, let frame = try nextPicture(of: &reader) { ahead.append(frame) }
        guard let first = ahead.first else { throw CommandLineError.conflict("\(path) has no H.264/H.265 video to encode") }
        if let rate = reader.metadata?["framerate"]?.number, rate >= 0.5, rate < 1000 {
            return (first.format, max(1, Int(rate.rounded())))
        }
        if ahead.count == 2, ahead[1].dts > first.dts {
            return (first.format, max(1, Int((1 / (ahead[1].dts - first.dts).seconds).rounded())))
        }
        return (first.format, 30)
    }

    /// Decodes every picture of the file, then closes the session.
    private static func feed(_ path: String, to session: DecompressionSession) async -> (any Error)? {
        var failure: (any Error)?
        do {
            var frames = FLVMediaReader(reader: try FLVReader(source: try FileByteSource(path: path)))
            while let frame = try nextPicture(of: &frames) {
                do {
                    try await session.decode(frame)
                } catch {
                    // A frame that cannot be decoded is reported by close(); decoding goes on at the next key frame.
                    guard case .undecodableFrame = error else { failure = error; break }
                }
            }
        } catch {
            failure = error
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

    private static func nextPicture(of reader: inout FLVMediaReader<FileByteSource>) throws(FLVError) -> EncodedFrame? {
        while true {
            switch try reader.next() {
            case let .video(frame): return frame
            case .audio, .metadata: continue
            case .end: return nil
            case let .truncated(offset, field):
                printError("note: the FLV ends inside a tag (byte \(offset), \(field)): the pictures before it were encoded")
                return nil
            }
        }
    }

    /// The next decoded picture.
    /// - Returns: the picture, `nil` after the last one.
    /// - Throws: what reading or decoding threw.
    func next() async throws -> PixelBuffer? {
        while let item = await iterator.next() {
            if case let .picture(picture) = item { return picture.picture }
        }
        if let failure = await feeder.value { throw failure }
        return nil
    }
}
