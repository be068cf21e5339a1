import Foundation
import Live
import MediaCore

/// `streamkit decode INPUT -o OUTPUT`, a shell over the library's ``FileDecoder``: an H.264/H.265 stream through a decompression session
/// into `.y4m` or raw `.yuv` pictures, or an ADTS AAC stream into a `.wav`. The input kind is detected
/// from its bytes.
struct DecodeCommand {
    /// `INPUT`.
    static let input = PositionalSpec("INPUT", help: "an H.264/H.265 Annex B or ADTS AAC stream (detected from its bytes), an .mp4/.mov/.m4v/.m4a, an .flv or a .ts file")

    /// The command's arguments and options.
    static let table = OptionTable(
        command: "decode", summary: "an .h264/.h265 stream → .y4m/.yuv pictures, an .aac stream → .wav",
        positionals: [input],
        options: [CommonOptions.output.required(), CommonOptions.engine, CommonOptions.pixelFormat],
        notes: ["OUTPUT: .y4m or .yuv (video), .wav (audio); a .y4m is always i420."])

    let input: String
    let output: String
    let engineName: String?
    let pixelFormat: PixelFormat

    /// Reads the command's arguments.
    /// - Parameter parsed: the words after `decode`, parsed with ``table``.
    /// - Throws: ``CommandLineError``.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        let input = try parsed.argument(Self.input)
        let output = try parsed.required(CommonOptions.output)
        guard FileDecoder.outputExtensions.contains((output as NSString).pathExtension.lowercased()) else {
            throw .invalidValue(option: "--output", value: output, reason: "does not end in .y4m, .yuv or .wav")
        }
        self.input = input
        self.output = output
        switch parsed.value(CommonOptions.engine) ?? .automatic {
        case .automatic: engineName = nil
        case let other: engineName = other.description
        }
        pixelFormat = parsed.value(CommonOptions.pixelFormat) ?? .i420
    }

    /// Runs the decode through the library's ``FileDecoder``, printing its notices and what it wrote.
    /// - Returns: the exit status.
    func run() async -> Int32 {
        let decoder = FileDecoder(input: input, output: output, engineName: engineName, pixelFormat: pixelFormat,
                                  registry: EngineSetup.registry())
        do {
            printError(try await decoder.run { printError($0) })
            return 0
        } catch {
            printError("streamkit decode: \(error)")
            return 1
        }
    }
}
