// streamkit-benchmark native-slices FILE.y4m [--qp 26] [--frames 30] [--keyint 30] [--slices 4] [--bytes 1200] [--rounds 2]:
// the native encoder's slice layouts on the same frames in one run: one slice, --slices slices and
// slices of at most --bytes bytes, each on one thread, and --slices slices on 2 threads (slice
// threading). Prints fps (wall clock), bytes and slices per picture of each, the size of each layout
// against one slice, and the speed-up of 2 threads against 1 (on a loaded machine, a lower bound).
import Containers
import Foundation
import MediaCore
import NativeH264

/// Runs the comparison.
/// - Parameters:
///   - path: a Y4M file (4:2:0).
///   - qp: the fixed QP.
///   - frameLimit: at most this many frames.
///   - keyFrameInterval: the GOP length.
///   - sliceCount: the slice count of the counted layout.
///   - maximumBytes: the byte limit of the size-limited layout.
///   - rounds: timing rounds (the best is kept).
func benchmarkNativeSlices(path: String, qp: Int, frameLimit: Int, keyFrameInterval: Int, sliceCount: Int, maximumBytes: Int, rounds: Int) throws {
    var reader = try Y4MReader(path: path)
    var frames = [PixelBuffer]()
    while frames.count < frameLimit, let frame = try reader.nextFrame() { frames.append(frame) }
    guard let first = frames.first else { fail("no frames in \(path)") }
    print("native-slices: \(frames.count) frames of \(first.width)x\(first.height) from \(path), QP \(qp), GOP \(keyFrameInterval)")
    let configurations: [(String, NativeH264Encoder.SliceLayout, Int)] = [
        ("1 slice, 1 thread", .single, 1),
        ("\(sliceCount) slices, 1 thread", .count(sliceCount), 1),
        ("≤ \(maximumBytes) B, 1 thread", .maximumBytes(maximumBytes), 1),
        ("\(sliceCount) slices, 2 threads", .count(sliceCount), 2),
    ]
    var results = [(name: String, seconds: Double, bytes: Int, slices: Int, stream: [UInt8])]()
    for (name, layout, threads) in configurations {
        var bytes = 0, slices = 0
        var stream = [UInt8]()
        let seconds = try best(rounds) {
            var encoder = try NativeH264Encoder(width: first.width, height: first.height, quantisationParameter: qp,
                                                keyFrameInterval: keyFrameInterval, sliceLayout: layout, threadCount: threads)
            bytes = 0; slices = 0; stream = []
            for frame in frames {
                let picture = try encoder.encode(frame)
                bytes += picture.nalUnits.reduce(0) { $0 + $1.count + 4 }
                slices += picture.nalUnits.filter { [1, 5].contains($0[0] & 0x1F) }.count
                stream += picture.annexB
            }
        }
        results.append((name, seconds, bytes, slices, stream))
    }
    for result in results {
        print("  \(result.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(String(format: "%7.2f", Double(frames.count) / result.seconds)) fps  "
              + "\(String(format: "%9d", result.bytes)) bytes (\(String(format: "%.3f", Double(result.bytes) / Double(results[0].bytes)))x one slice)  "
              + "\(String(format: "%.1f", Double(result.slices) / Double(frames.count))) slices/picture")
    }
    let identical = results[3].stream == results[1].stream
    print("  2 threads / 1 thread (\(sliceCount) slices): \(String(format: "%.2f", results[1].seconds / results[3].seconds))x faster, output identical: \(identical)")
    if !identical { fail("threaded output differs from the single-thread output") }
}
