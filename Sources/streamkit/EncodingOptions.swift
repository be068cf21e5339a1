import Codecs
import MediaCore

/// The options `record` and `encode` share, as the seeds' apps set them on VideoToolbox, parsed and
/// checked: `--codec`, `--size`, `--fps`, `--bitrate`, `--gop`, `--profile`, `--bframes`, `--engine`, `--qp`.
struct EncodingOptions {
    /// The option names that take a value.
    static let valueOptions: Set<String> = [
        "output", "audio-output", "frames", "codec", "size", "fps", "bitrate", "gop", "profile", "bframes", "engine",
        "camera", "microphone", "qp", "pix-fmt", "duration", "sample-rate", "channels", "audio-bitrate",
    ]

    var codec: CodecType = .h264
    var width = 640
    var height = 480
    var fps = 30
    var bitRate: Int?
    var gop: Int?
    var profile: ProfileLevel.Profile?
    var bFrames: Int?
    var engineName: String?
    var enginePreference: EnginePreference = .hardwarePreferred
    var quantizer: Int?
    var audioBitRate = 96_000

    /// Reads the shared options.
    /// - Parameters:
    ///   - arguments: the parsed command line.
    ///   - defaultBitRate: the bit rate when neither `--bitrate` nor `--qp` is given.
    /// - Throws: ``CommandLineError/invalidValue(_:)`` naming the option.
    init(_ arguments: CommandLineArguments, defaultBitRate: Int?) throws(CommandLineError) {
        let options = arguments.options
        if let codec = options["codec"] {
            switch codec.lowercased() {
            case "h264", "avc", "h.264": self.codec = .h264
            case "hevc", "h265", "h.265": self.codec = .hevc
            default: throw .invalidValue("unknown codec \"\(codec)\" (use h264 or hevc)")
            }
        }
        if let size = options["size"] {
            let parts = size.lowercased().split(separator: "x")
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
                throw .invalidValue("--size \(size): expected WIDTHxHEIGHT, for example 640x480")
            }
            guard width % 2 == 0, height % 2 == 0 else {
                throw .invalidValue("--size \(size): 4:2:0 video needs an even width and height")
            }
            self.width = width
            self.height = height
        }
        if let fps = options["fps"] {
            guard let value = Int(fps), (1...240).contains(value) else { throw .invalidValue("--fps \(fps): expected 1…240") }
            self.fps = value
        }
        bitRate = try options["bitrate"].map(Self.parseBitRate) ?? (options["qp"] == nil ? defaultBitRate : nil)
        audioBitRate = try options["audio-bitrate"].map(Self.parseBitRate) ?? audioBitRate
        if let gop = options["gop"] {
            guard let value = Int(gop), value > 0 else { throw .invalidValue("--gop \(gop): expected a positive frame count") }
            self.gop = value
        }
        if let profile = options["profile"] {
            switch profile.lowercased() {
            case "baseline": self.profile = .baseline
            case "main": self.profile = codec == .hevc ? .hevcMain : .main
            case "high": self.profile = .high
            default: throw .invalidValue("unknown profile \"\(profile)\" (use baseline, main or high)")
            }
        }
        if let frames = options["bframes"] {
            guard let value = Int(frames), (0...16).contains(value) else { throw .invalidValue("--bframes \(frames): expected 0…16") }
            bFrames = value
        }
        if let qp = options["qp"] {
            guard let value = Int(qp), (0...51).contains(value) else { throw .invalidValue("--qp \(qp): expected 0…51") }
            quantizer = value
        }
        switch options["engine"]?.lowercased() {
        case nil, "auto": break
        case "hardware": enginePreference = .hardwareRequired
        case "software": enginePreference = .software
        case let name?: engineName = name
        }
    }

    /// "800k", "2M", "1500000" → bits per second.
    static func parseBitRate(_ text: String) throws(CommandLineError) -> Int {
        let lower = text.lowercased()
        var multiplier = 1.0
        var digits = Substring(lower)
        if lower.hasSuffix("k") { multiplier = 1_000; digits = digits.dropLast() }
        if lower.hasSuffix("m") { multiplier = 1_000_000; digits = digits.dropLast() }
        guard let value = Double(digits), value > 0, value * multiplier >= 1 else {
            throw .invalidValue("bitrate \"\(text)\" must be a positive number of bits per second (for example 800k or 2M)")
        }
        return Int(value * multiplier)
    }

    /// The compression session's properties.
    var compressionConfiguration: CompressionConfiguration {
        let profileLevel = ProfileLevel(profile: profile ?? (codec == .hevc ? .hevcMain : .high))
        var configuration = CompressionConfiguration(codec: codec, width: width, height: height, profileLevel: profileLevel)
        configuration.expectedFrameRate = Double(fps)
        configuration.averageBitRate = bitRate
        configuration.maxKeyFrameInterval = gop
        configuration.quantizer = quantizer
        configuration.enginePreference = enginePreference
        configuration.engineName = engineName
        if let bFrames {
            configuration.maxBFrames = bFrames
            configuration.allowFrameReordering = bFrames > 0
        } else {
            configuration.allowFrameReordering = false  // like the seeds' live apps: no B-frames unless asked
        }
        return configuration
    }
}
