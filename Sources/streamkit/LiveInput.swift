import Foundation

/// What `stream` and `serve` send: a file or generator as for `encode`, or the camera with the microphone.
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

    /// Reads the INPUT word.
    /// - Parameter word: `camera`, `testsrc`, `sine` or a file path.
    /// - Throws: ``CommandLineError`` for anything else.
    init(parsing word: String) throws(CommandLineError) {
        switch word.lowercased() {
        case "camera": self = .camera
        case "testsrc": self = .testPattern
        case "sine": self = .sine
        default:
            switch (word as NSString).pathExtension.lowercased() {
            case "y4m": self = .y4m(word)
            case "yuv", "i420", "nv12", "nv21", "yv12": self = .rawVideo(word)
            case "wav": self = .wav(word)
            default:
                throw .invalidValue(option: "INPUT", value: word, reason: "is not camera, a .y4m, .yuv or .wav file, testsrc or sine")
            }
        }
    }

    /// Whether it carries video.
    var hasVideo: Bool {
        switch self {
        case .y4m, .rawVideo, .testPattern, .camera: return true
        case .wav, .sine: return false
        }
    }

    /// Whether it carries audio.
    var hasAudio: Bool {
        switch self {
        case .wav, .sine, .camera: return true
        case .y4m, .rawVideo, .testPattern: return false
        }
    }

    /// Whether it is a file (which `serve` loops).
    var isFile: Bool {
        switch self {
        case .y4m, .rawVideo, .wav: return true
        case .testPattern, .sine, .camera: return false
        }
    }
}
