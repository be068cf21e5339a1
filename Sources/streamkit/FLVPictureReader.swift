import Containers
import MediaCore

/// The pictures of an FLV's video (H.264, or H.265 over the Enhanced RTMP header) in decode order: with
/// ``DecodedPictureSource``, the input of `encode in.flv -o …` (a transcode), as ``MP4PictureReader`` is for an MP4.
struct FLVPictureReader: EncodedPictureReader {
    /// The video format of the first sequence start.
    let format: FormatDescription
    /// The frame rate: `onMetaData`'s `framerate`, else from the first two pictures' decode times (at least 1).
    let frameRate: Int
    private var reader: FLVMediaReader<FileByteSource>
    /// The pictures read ahead to learn the format and the frame rate, handed out first.
    private var ahead: [EncodedFrame]

    /// Opens the file and reads ahead to its first two pictures: the format and, without `onMetaData`, the frame rate.
    /// - Parameter path: the `.flv` file.
    /// - Throws: ``FLVError`` for a file that does not read, ``CommandLineError`` without H.264/H.265 video.
    init(path: String) throws {
        reader = FLVMediaReader(reader: try FLVReader(source: try FileByteSource(path: path)))
        ahead = []
        while ahead.count < 2, let frame = try Self.nextPicture(of: &reader) { ahead.append(frame) }
        guard let first = ahead.first else { throw CommandLineError.conflict("\(path) has no H.264/H.265 video to encode") }
        format = first.format
        if let rate = reader.metadata?["framerate"]?.number, rate >= 0.5, rate < 1000 {
            frameRate = max(1, Int(rate.rounded()))
        } else if ahead.count == 2, ahead[1].dts > first.dts {
            frameRate = max(1, Int((1 / (ahead[1].dts - first.dts).seconds).rounded()))
        } else {
            frameRate = 30
        }
        ahead.reverse()
    }

    /// The next picture of the file.
    /// - Returns: the picture, `nil` after the last one or where the file ends inside a tag (with a note).
    /// - Throws: ``FLVError`` for a tag that does not read.
    mutating func nextPicture() throws -> EncodedFrame? {
        if let picture = ahead.popLast() { return picture }
        return try Self.nextPicture(of: &reader)
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
}
