/// Why a ``FileDecoder`` wrote nothing: the input holds nothing it can decode into the output it was given.
public struct FileDecoderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input file.
    public var input: String
    /// What is missing or wrong, in words.
    public var reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - input: the input file.
    ///   - reason: what is missing or wrong.
    public init(input: String, reason: String) {
        self.input = input
        self.reason = reason
    }

    /// "in.h264 is not an H.264/H.265 Annex B stream nor ADTS AAC", for example.
    public var description: String { "\(input) \(reason)" }
}
