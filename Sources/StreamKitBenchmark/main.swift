// streamkit-benchmark: in-process speed of the bitstream layer against its floor and its former self.
//
//   streamkit-benchmark annexb-to-avcc FILE [--megabytes 100] [--rounds 5]
//   streamkit-benchmark bits FILE [--megabytes 100] [--rounds 5] [--elements 2000000]
//   streamkit-benchmark mp4-demux FILE [--rounds 5]
//
// annexb-to-avcc: Annex B → AVCC conversion and a memcpy of the same bytes (FILE repeated to the size).
// bits: slice headers of an H.264 stream read with the legacy and the current BitReader, and a stream
// of random u(n)/ue/se writes and reads with the legacy and current BitWriter/BitReader against a memcpy
// of the written bytes. Prints the best time of each and the ratios. Speed is measured here, never
// asserted in a test.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let usage = """
    usage: streamkit-benchmark annexb-to-avcc FILE [--megabytes N] [--rounds N]
           streamkit-benchmark bits FILE [--megabytes N] [--rounds N] [--elements N]
           streamkit-benchmark mp4-demux FILE [--rounds N]
    """
guard let command = arguments.first, ["annexb-to-avcc", "bits", "mp4-demux"].contains(command), arguments.count >= 2 else {
    fail(usage, code: 2)
}
let path = arguments[arguments.startIndex + 1]
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.endIndex,
          let parsed = Int(arguments[index + 1]) else { return value }
    return parsed
}
guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { fail("cannot read \(path)") }
let file = [UInt8](data)
let megabytes = option("--megabytes", default: 100)
let rounds = option("--rounds", default: 5)

switch command {
case "mp4-demux":
    try benchmarkMP4Demux(file: file, path: path, rounds: rounds)
case "annexb-to-avcc":
    try benchmarkAnnexBToAVCC(file: file, path: path, megabytes: megabytes, rounds: rounds)
default:
    benchmarkSliceHeaders(file: file, path: path, megabytes: megabytes, rounds: rounds)
    print("")
    benchmarkBitStream(elementCount: option("--elements", default: 2_000_000), rounds: rounds)
}
if sink == 42 { print("") }  // keeps the work observable
