import Foundation
import Live

/// The file a `receive` writes, added to its pipeline: decoded pictures for `.y4m` (through the engine's decoder),
/// else the library's destination for the file's extension (``LiveDestinations/destination(for:options:)``); and,
/// once the pipeline has run, what the recording says about itself.
struct ReceiveRecording {
    /// The `.y4m` destination, when the output decodes.
    let pictures: Y4MFileDestination?

    /// Adds the destination for `output` to `pipeline`, with the recording's options (it waits for nothing).
    /// - Parameters:
    ///   - output: the output file.
    ///   - pipeline: the receive's pipeline.
    /// - Throws: ``LiveDestinationError`` for an extension no destination writes.
    init(_ output: String, into pipeline: LivePipeline) throws {
        if (output as NSString).pathExtension.lowercased() == "y4m" {
            let decoded = Y4MFileDestination(path: output, registry: EngineSetup.registry())
            pictures = decoded
            pipeline.add(decoded, options: .recording())
        } else {
            pictures = nil
            pipeline.add(try LiveDestinations.destination(for: output), options: .recording())
        }
    }

    /// Prints the decoded picture count and each destination's summary, and gives the exit status.
    /// - Parameter report: the pipeline's report.
    /// - Returns: 0 when a frame was written, else 1.
    /// - Throws: ``CommandLineError/conflict(_:)`` with a destination's failure.
    func conclude(_ report: LiveReport) throws -> Int32 {
        if let pictures { printError("decoded \(pictures.picturesWritten) pictures") }
        for destination in report.destinations {
            if let failure = destination.failure { throw CommandLineError.conflict("\(destination.name): \(failure)") }
            printError(destination.description)
        }
        let written = report.destinations.reduce(0) { $0 + $1.videoFramesSent + $1.audioFramesSent }
        return written > 0 ? 0 : 1
    }
}
