import MediaCore

/// What can go wrong in a session or an engine.
public enum CodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A configuration value no engine could honour: which property, and why.
    case invalidConfiguration(property: ConfigurationProperty, reason: String)
    /// The chosen engine cannot honour a property (for example entropyMode on x265): which property,
    /// why, and which engine.
    case unsupportedProperty(ConfigurationProperty, reason: String, engine: String)
    /// No engine on this machine can do what was asked; the text says what to install or change.
    case noEngine(String)
    /// An engine by that name does not exist.
    case unknownEngine(String, available: [String])
    /// The engine failed; the text carries its own message.
    case engineFailure(String)
    /// A frame could not be decoded (malformed framing, or the engine rejected its data): which frame,
    /// and the engine's or parser's message. Decoding goes on at the next key frame.
    case undecodableFrame(FramePosition, reason: String)
    /// A whole Annex B stream ended without one decodable frame (no key frame with its parameter sets).
    case noDecodableFrames(bytes: Int, reason: String)
    /// The input does not match the session (size, layout, sample rate …).
    case inputMismatch(String)
    /// The session was closed.
    case sessionClosed

    /// What is wrong.
    public var description: String {
        switch self {
        case let .invalidConfiguration(property, reason): return "invalid configuration: \(property): \(reason)"
        case let .unsupportedProperty(property, reason, engine): return "engine \(engine) cannot honour \(property): \(reason)"
        case let .noEngine(text): return text
        case let .unknownEngine(name, available):
            return "unknown engine \"\(name)\"; available: \(available.isEmpty ? "none" : available.joined(separator: ", "))"
        case let .engineFailure(text): return text
        case let .undecodableFrame(position, reason): return "\(position) cannot be decoded: \(reason)"
        case let .noDecodableFrames(bytes, reason): return "no decodable frame in \(bytes) bytes: \(reason)"
        case let .inputMismatch(text): return "input does not match the session: \(text)"
        case .sessionClosed: return "the session is closed"
        }
    }
}
