import Foundation
import MediaCore

/// What `publish`, `stream` and `serve` send: a file or generator encoded here, the camera with the microphone, or
/// an encoded file sent as it is.
enum LiveInput: Sendable, Equatable {
    /// A `.y4m` file (video).
    case y4m(String)
    /// A raw `.yuv` file (video; `--size`, `--fps`, `--pix-fmt` describe it).
    case rawVideo(String)
    /// A `.wav` file (audio).
    case wav(String)
    /// The test pattern (video).
    case testPattern
    /// The sine generator (audio).
    case sine
    /// The camera and the microphone (V4L2/ALSA where present, else the synthetic ones).
    case camera
    /// An `.flv` file, sent as it is.
    case flv(String)
    /// An MP4 file, sent as it is.
    case mp4(String)
    /// An MPEG-TS file, sent as it is.
    case ts(String)
    /// An Annex B file, sent as it is.
    case annexB(String, CodecType)

    /// Reads the INPUT word.
    /// - Parameters:
    ///   - word: `camera`, `testsrc`, `sine` or a file path.
    ///   - encodedFiles: whether encoded files (sent as they are) are accepted.
    /// - Throws: ``CommandLineError`` for anything else.
    init(parsing word: String, encodedFiles: Bool = true) throws(CommandLineError) {
        switch word.lowercased() {
        case "camera": self = .camera
        case "testsrc": self = .testPattern
        case "sine": self = .sine
        default:
            let fileExtension = (word as NSString).pathExtension.lowercased()
            switch fileExtension {
            case "y4m": self = .y4m(word)
            case "yuv", "i420", "nv12", "nv21", "yv12": self = .rawVideo(word)
            case "wav": self = .wav(word)
            case "flv" where encodedFiles: self = .flv(word)
            case "ts" where encodedFiles, "mts" where encodedFiles, "m2t" where encodedFiles: self = .ts(word)
            case "mp4" where encodedFiles, "mov" where encodedFiles, "m4v" where encodedFiles, "m4a" where encodedFiles: self = .mp4(word)
            case "h264" where encodedFiles, "264" where encodedFiles, "avc" where encodedFiles: self = .annexB(word, .h264)
            case "h265" where encodedFiles, "265" where encodedFiles, "hevc" where encodedFiles: self = .annexB(word, .hevc)
            default:
                throw .invalidValue(option: "INPUT", value: word, reason: encodedFiles
                    ? "is not camera, testsrc, sine, a .y4m, .yuv or .wav file, or an .flv, .mp4, .ts or Annex B file"
                    : "is not camera, a .y4m, .yuv or .wav file, testsrc or sine")
            }
        }
    }

    /// Whether it is sent as it is (no encoder).
    var isEncoded: Bool {
        switch self {
        case .flv, .mp4, .ts, .annexB: return true
        default: return false
        }
    }

    /// Whether it carries video (encoded files: assumed, the file says at open).
    var hasVideo: Bool {
        switch self {
        case .wav, .sine: return false
        default: return true
        }
    }

    /// Whether it carries audio (encoded files: assumed, the file says at open).
    var hasAudio: Bool {
        switch self {
        case .y4m, .rawVideo, .testPattern, .annexB: return false
        default: return true
        }
    }

    /// Whether it is a file (which `serve` loops).
    var isFile: Bool {
        switch self {
        case .testPattern, .sine, .camera: return false
        default: return true
        }
    }
}
