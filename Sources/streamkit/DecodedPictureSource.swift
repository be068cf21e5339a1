import Codecs
import MediaCore

/// Encoded pictures in decode order, read one at a time from a container: what ``DecodedPictureSource`` decodes.
protocol EncodedPictureReader: SendableMetatype {
    /// The next picture.
    /// - Returns: the picture, `nil` after the last one.
    /// - Throws: what reading the container threw.
    mutating func nextPicture() throws -> EncodedFrame?
}

/// The pictures of a container's video, decoded by a ``DecompressionSession`` in display order: the input of
/// `encode in.mp4 -o …` and `encode in.flv -o …` (a transcode). The encoded pictures are fed to the session on a
/// task of their own while the encoder pulls decoded ones from ``next()``.
final class DecodedPictureSource {
    private var iterator: SessionOutputStream<DecompressionOutput>.AsyncIterator
    private let feeder: Task<(any Error)?, Never>

    /// Starts decoding.
    /// - Parameters:
    ///   - format: the video's format description (its parameter sets).
    ///   - outputFormat: the layout of the decoded pictures.
    ///   - pictures: the encoded pictures; the feeding task owns it from here.
    /// - Throws: ``CodecError`` when no engine decodes the format.
    init(format: FormatDescription, outputFormat: PixelFormat, pictures: sending some EncodedPictureReader) throws {
        let session = try DecompressionSession(format: format, registry: EngineSetup.registry(), outputFormat: outputFormat)
        iterator = session.outputs.makeAsyncIterator()
        feeder = Task {
            var pictures = pictures
            var failure: (any Error)?
            do {
                while let picture = try pictures.nextPicture() {
                    do throws(CodecError) {
                        try await session.decode(picture)
                    } catch {
                        // A picture that cannot be decoded is reported by close(); decoding goes on at the next key frame.
                        guard case .undecodableFrame = error else { failure = error; break }
                    }
                }
            } catch {
                failure = error
            }
            let closing = await session.closeReporting()
            return failure ?? closing
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

extension DecompressionSession {
    /// Closes the session and prints its report: the pictures that failed and the ones withheld until a key frame.
    /// - Returns: what closing threw, if it did.
    func closeReporting() async -> (any Error)? {
        do {
            let report = try await close()
            for error in report.failures { printError("error: \(error)") }
            if report.dropped > 0 { printError("note: \(report.dropped) frames withheld until the next key frame") }
            return nil
        } catch {
            return error
        }
    }
}
