import MediaCore

/// The engines this build and machine have, and the choice among them that VideoToolbox makes with
/// its encoder specification: hardware first when preferred, software as the fallback, a clear error
/// when nothing fits.
public struct CodecEngineRegistry: Sendable {
    /// The engines, in the order they were registered.
    public private(set) var engines: [any CodecEngine]

    /// Creates a registry.
    /// - Parameter engines: the engines available in this build.
    public init(engines: [any CodecEngine] = []) {
        self.engines = engines
    }

    /// Adds engines.
    /// - Parameter more: engines to add after the existing ones.
    public mutating func register(_ more: [any CodecEngine]) {
        engines += more
    }

    /// The engine with this name.
    /// - Parameter name: an engine name such as "x264".
    /// - Returns: the engine.
    /// - Throws: ``CodecError/unknownEngine(_:available:)`` listing the names there are.
    public func engine(named name: String) throws(CodecError) -> any CodecEngine {
        guard let engine = engines.first(where: { $0.name == name }) else {
            throw .unknownEngine(name, available: engines.map(\.name))
        }
        return engine
    }

    /// Whether some engine of the registry encodes a codec — for a pipeline that carries on without a track
    /// no engine here can encode (a registry without an AAC encoder) instead of failing.
    /// - Parameter codec: the codec, for example ``CodecType/aac``.
    /// - Returns: `true` when at least one engine encodes it.
    public func canEncode(_ codec: CodecType) -> Bool {
        engines.contains { $0.encodes(codec) }
    }

    /// Chooses the engine for a compression session.
    /// - Parameter configuration: the session's properties.
    /// - Returns: a named engine if one was asked for; else, per ``EnginePreference``, the first hardware
    ///   engine that encodes the codec, then the first software one.
    /// - Throws: ``CodecError/noEngine(_:)`` explaining what is missing.
    public func encoderEngine(for configuration: CompressionConfiguration) throws(CodecError) -> any CodecEngine {
        try choose(codec: configuration.codec, named: configuration.engineName,
                   preference: configuration.enginePreference, encoding: true)
    }

    /// Chooses the engine for an audio encoder.
    /// - Parameter configuration: the audio session's properties.
    /// - Returns: the engine.
    /// - Throws: ``CodecError/noEngine(_:)``.
    public func audioEncoderEngine(for configuration: AudioEncoderConfiguration) throws(CodecError) -> any CodecEngine {
        try choose(codec: configuration.codec, named: configuration.engineName, preference: .software, encoding: true)
    }

    /// Chooses the engine for a decoder.
    /// - Parameters:
    ///   - codec: the codec to decode.
    ///   - name: a specific engine, or `nil`.
    /// - Returns: the engine (software decoders first: they are bit-exact).
    /// - Throws: ``CodecError/noEngine(_:)``.
    public func decoderEngine(for codec: CodecType, named name: String? = nil) throws(CodecError) -> any CodecEngine {
        try choose(codec: codec, named: name, preference: .software, encoding: false)
    }

    private func choose(codec: CodecType, named name: String?, preference: EnginePreference,
                        encoding: Bool) throws(CodecError) -> any CodecEngine {
        let verb = encoding ? "encode" : "decode"
        let fits = { (engine: any CodecEngine) in encoding ? engine.encodes(codec) : engine.decodes(codec) }
        if let name {
            let engine = try engine(named: name)
            guard fits(engine) else { throw .noEngine("engine \(name) cannot \(verb) \(codec.rawValue)") }
            if preference == .hardwareRequired && !engine.isHardware {
                throw .noEngine("engine \(name) is software, but hardware is required")
            }
            return engine
        }
        let hardware = engines.filter { $0.isHardware && fits($0) }
        let software = engines.filter { !$0.isHardware && fits($0) }
        switch preference {
        case .hardwareRequired:
            if let engine = hardware.first { return engine }
            throw .noEngine("no hardware engine on this machine can \(verb) \(codec.rawValue)"
                + " (probed: VAAPI, NVENC, V4L2 M2M); use --engine auto for the software fallback")
        case .hardwarePreferred:
            if let engine = hardware.first ?? software.first { return engine }
        case .software:
            if let engine = software.first { return engine }
        }
        throw .noEngine(Self.installHint(codec: codec, verb: verb, registered: engines.map(\.name)))
    }

    /// What to do when no engine fits: with the FFmpeg engine built in, which libavcodec parts are
    /// missing on this machine; without it, which packages and build switch bring one.
    static func installHint(codec: CodecType, verb: String, registered: [String]) -> String {
        let have = registered.isEmpty ? "this build has no codec engine" : "engines in this build: \(registered.joined(separator: ", "))"
        #if FFmpeg
        let library = codec == .h264 ? "libx264" : codec == .hevc ? "libx265" : codec == .opus ? "libopus" : "aac"
        return "no engine can \(verb) \(codec.rawValue): \(have). This build has the FFmpeg engine, but libavcodec on "
            + "this machine has no \(verb == "encode" ? "\(library) encoder" : "\(codec.rawValue) decoder") "
            + "(see `ffmpeg -hide_banner -\(verb == "encode" ? "encoders" : "decoders")`)."
        #else
        let opus = codec == .opus ? " Opus is coded by libopus through the FFmpeg engine, which this build lacks." : ""
        return "no engine can \(verb) \(codec.rawValue): \(have).\(opus) Install FFmpeg's libraries "
            + "(apt-get install libavcodec-dev libavutil-dev libswscale-dev pkg-config) and build with "
            + "`swift build --traits FFmpeg` (scripts/demo.sh does both)."
        #endif
    }
}
