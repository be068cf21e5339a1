// The library example of README.md ("## The library"), compiled and run by ReadmeExampleTests.
// Between the two markers this file and the README's code block are the same text, byte for byte.
// README example begins
import Capture
import Codecs
import Containers

/// Films 60 frames of the synthetic camera into an H.264 Annex B file, then decodes the file again.
/// - Parameter path: where the `.h264` file goes.
/// - Returns: how many pictures the decoder gave back.
func recordAndPlayBack(to path: String) async throws -> Int {
    let camera = try SyntheticCamera(width: 320, height: 240, frameRate: 30, realTime: false)
    let encoder = try CompressionSession(configuration: CompressionConfiguration(codec: .h264, width: 320, height: 240))
    let writing = Task {  // the one way out: read the outputs while the camera feeds the session
        var file = try AnnexBWriter(path: path)
        for await output in encoder.outputs {
            if case let .frame(frame) = output { try file.write(frame) }
        }
        try file.finish()
    }
    for _ in 0..<60 {
        guard let frame = try await camera.nextFrame() else { break }
        try await encoder.encode(frame.pixelBuffer, pts: frame.pts, duration: frame.duration)
    }
    _ = try await encoder.close()  // drains the encoder and ends `outputs`
    try await writing.value

    let decoder = try DecompressionSession(annexBStreamOf: .h264)
    let counting = Task {
        var pictures = 0
        for await output in decoder.outputs { if case .picture = output { pictures += 1 } }
        return pictures
    }
    let file = try FileByteSource(path: path)
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while case let count = try chunk.withUnsafeMutableBytes({ try file.read(into: $0) }), count > 0 {
        try await decoder.decode(annexB: chunk[..<count])
    }
    let report = try await decoder.close()  // every failure, if any, is in the report
    return report.isComplete ? await counting.value : 0
}
// README example ends
