import MediaCore

/// The options several commands take in the same sense: the output, the engine, the raw picture
/// layout and the frame count. Each command lists the ones it uses (with its own default) in its
/// ``OptionTable``.
enum CommonOptions {
    /// `-o, --output PATH`.
    static let output = OptionSpec("--output", short: "-o", value: "PATH", help: "the file to write", parse: OptionValueParsers.text)

    /// `--engine`: a codec engine by name, or which kind of engine.
    static let engine = OptionSpec<EngineChoice>(
        "--engine", value: "auto|hardware|software|NAME",
        help: "the codec engine: any, hardware only, software only, or one by name (see `streamkit engines`)",
        default: .automatic, shown: "auto", parse: EngineChoice.init(parsing:))

    /// `--pix-fmt`: the layout of raw pictures.
    static let pixelFormat = OptionSpec<PixelFormat>(
        "--pix-fmt", value: "i420|yv12|nv12|nv21", help: "the layout of raw pictures (a .yuv input or output, testsrc)",
        default: .i420, shown: "i420",
        parse: OptionValueParsers.choice(of: "pixel format", [
            (["i420", "yuv420p"], .i420), (["yv12"], .yv12), (["nv12"], .nv12), (["nv21"], .nv21),
        ]))

    /// `--frames N`: how many video frames.
    static let frames = OptionSpec("--frames", value: "N", help: "how many video frames",
                                   parse: OptionValueParsers.wholeNumber(in: 1...Int.max))
}

/// The value of `--engine`.
enum EngineChoice: Sendable, Hashable, CustomStringConvertible {
    /// Any engine the registry prefers (`auto`).
    case automatic
    /// Hardware engines only.
    case hardware
    /// Software engines only.
    case software
    /// One engine by name, for example `x264`.
    case named(String)

    /// Reads `auto`, `hardware`, `software` or an engine name.
    /// - Parameter text: the word given.
    /// - Throws: ``OptionValueError`` for an empty word.
    init(parsing text: String) throws(OptionValueError) {
        switch text.lowercased() {
        case "": throw OptionValueError("is not an engine name")
        case "auto": self = .automatic
        case "hardware": self = .hardware
        case "software": self = .software
        case let name: self = .named(name)
        }
    }

    /// The word as written on the command line.
    var description: String {
        switch self {
        case .automatic: return "auto"
        case .hardware: return "hardware"
        case .software: return "software"
        case let .named(name): return name
        }
    }
}
