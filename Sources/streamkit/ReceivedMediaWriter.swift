import Bitstream
import Codecs
import Containers
import Foundation
import MediaCore
import RTP

/// What `receive` writes: the access units as an Annex B file, the AAC frames as ADTS, or the pictures
/// decoded by a decompression session as Y4M.
final class ReceivedMediaWriter {
    private enum Output {
        case annexB(FileByteSink)
        case adts(ADTSWriter<FileByteSink>, AudioFormatDescription)
        case decoded(DecompressionSession, Task<(Int, (any Error)?), Never>)
    }

    private var output: Output
    private var frameIndex: Int64 = 0

    /// Opens the output.
    /// - Parameters:
    ///   - path: `.h264`/`.h265` (Annex B), `.aac` (ADTS) or `.y4m` (decoded).
    ///   - videoCodec: the received video's codec (Annex B, Y4M).
    ///   - audioFormat: the received audio's format (ADTS).
    ///   - frameRate: the Y4M frame rate.
    /// - Throws: file and decoder errors.
    init(path: String, videoCodec: CodecType?, audioFormat: AudioFormatDescription?, frameRate: Double?) throws {
        switch (path as NSString).pathExtension.lowercased() {
        case "aac":
            guard let audioFormat else { throw CommandLineError.conflict("the stream has no AAC audio for \(path)") }
            output = .adts(try ADTSWriter(path: path), audioFormat)
        case "y4m":
            guard let videoCodec else { throw CommandLineError.conflict("the stream has no video for \(path)") }
            let session = try DecompressionSession(annexBStreamOf: videoCodec, registry: EngineSetup.registry(), outputFormat: .i420)
            let rate = frameRate.flatMap { $0 > 0 && $0 < 1000 ? Y4MRatio(Int(($0 * 1000).rounded()), 1000) : nil } ?? Y4MRatio(30, 1)
            let consumer = Task { () -> (Int, (any Error)?) in
                var writer: Y4MWriter<FileByteSink>?
                var pictures = 0
                var failure: (any Error)?
                for await item in session.outputs {
                    guard case let .picture(decoded) = item, failure == nil else { continue }
                    do {
                        if writer == nil {
                            writer = try Y4MWriter(path: path, header: Y4MHeader(width: decoded.picture.width, height: decoded.picture.height,
                                                                                 frameRate: rate))
                        }
                        try writer?.write(decoded.picture)
                        pictures += 1
                    } catch {
                        failure = error
                    }
                }
                do { try writer?.finish() } catch { failure = failure ?? error }
                return (pictures, failure)
            }
            output = .decoded(session, consumer)
        default:
            guard videoCodec != nil else { throw CommandLineError.conflict("the stream has no video for \(path)") }
            output = .annexB(try FileByteSink(path: path))
        }
    }

    /// Writes one good access unit.
    /// - Parameter accessUnit: the access unit.
    /// - Throws: file and decoder errors.
    func write(_ accessUnit: RTPAccessUnit) async throws {
        try await write(annexB: accessUnit.annexB)
    }

    /// Writes one good access unit given as Annex B (from RTMP).
    /// - Parameter annexB: the access unit with its start codes.
    /// - Throws: file and decoder errors.
    func write(annexB: [UInt8]) async throws {
        switch output {
        case let .annexB(sink): try sink.write(annexB)
        case let .decoded(session, _):
            do { try await session.decode(annexB: annexB) } catch {
                guard case .undecodableFrame = error else { throw error }
            }
        case .adts: break
        }
    }

    /// Writes one good AAC frame.
    /// - Parameter frame: the frame.
    /// - Throws: file errors.
    func write(_ frame: RTPAudioFrame) throws {
        guard case let .adts(writer, format) = output else { return }
        var adts = writer
        let duration = MediaTime(value: Int64(format.samplesPerFrame), timescale: Int32(format.sampleRate))
        try adts.write(EncodedAudioFrame(data: Array(frame.data), pts: MediaTime(value: frameIndex * Int64(format.samplesPerFrame),
                                                                                  timescale: Int32(format.sampleRate)),
                                         duration: duration, format: format))
        frameIndex += 1
        output = .adts(adts, format)
    }

    /// Finishes the file (and drains the decoder).
    /// - Returns: the pictures decoded, for a Y4M output.
    /// - Throws: file and decoder errors.
    @discardableResult
    func finish() async throws -> Int? {
        switch output {
        case let .annexB(sink):
            try sink.close()
            return nil
        case let .adts(writer, _):
            var adts = writer
            try adts.finish()
            return nil
        case let .decoded(session, consumer):
            _ = try await session.close()
            let (pictures, failure) = await consumer.value
            if let failure { throw failure }
            return pictures
        }
    }
}
