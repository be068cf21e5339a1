/// Why ``StreamInspector`` could not analyse a stream.
public enum StreamInspectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stream holds no bytes.
    case empty
    /// The first bytes are neither H.264/H.265 Annex B nor ADTS.
    case unrecognizedFormat
    /// Reading failed.
    case readFailed(ContainerIOError)

    /// For a person.
    public var description: String {
        switch self {
        case .empty: return "the file is empty"
        case .unrecognizedFormat: return "no H.264/H.265 start codes with valid NAL headers and no ADTS frames found"
        case let .readFailed(error): return "\(error)"
        }
    }
}
