// streamkit-benchmark: in-process speed of the framing layer against the plain-memory-copy floor.
//
//   streamkit-benchmark annexb-to-avcc FILE [--megabytes 100] [--rounds 5]
//
// Loads FILE (an Annex B stream), repeats it up to the given size, then times, in the same run,
// Annex B → AVCC conversion and a memcpy of the same bytes, and prints the best time of each and
// their ratio. Speed is measured here, never asserted in a test.
import Bitstream
import Foundation

/// Monotonic seconds.
func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// The best of `rounds` timings of `body`.
func best(_ rounds: Int, _ body: () throws -> Void) rethrows -> Double {
    var fastest = Double.infinity
    for _ in 0..<rounds {
        let start = now()
        try body()
        fastest = min(fastest, now() - start)
    }
    return fastest
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.first == "annexb-to-avcc", arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: streamkit-benchmark annexb-to-avcc FILE [--megabytes N] [--rounds N]\n".utf8))
    exit(2)
}
let path = arguments[arguments.startIndex + 1]
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.endIndex,
          let parsed = Int(arguments[index + 1]) else { return value }
    return parsed
}
let megabytes = option("--megabytes", default: 100)
let rounds = option("--rounds", default: 5)

guard let file = FileManager.default.contents(atPath: path), !file.isEmpty else {
    FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
    exit(1)
}
var input = [UInt8]()
input.reserveCapacity(megabytes << 20)
while input.count < megabytes << 20 { input.append(contentsOf: file) }

var sink = 0
let copyTime = best(rounds) {
    let copy = [UInt8](unsafeUninitializedCapacity: input.count) { buffer, count in
        input.withUnsafeBytes { source in
            if let destination = buffer.baseAddress, let from = source.baseAddress {
                memcpy(destination, from, source.count)
            }
        }
        count = input.count
    }
    sink &+= Int(copy[copy.count / 2])
}
let scanTime = best(rounds) {
    sink &+= AnnexB.nalUnitRanges(in: input).count
}
let convertTime = try best(rounds) {
    let avcc = try AVCC.avcc(fromAnnexB: input)
    sink &+= avcc.count
}
let megabytesPerSecond = { (seconds: Double) in Double(input.count) / seconds / 1e6 }
print(String(format: "input: %.1f MB (%@ repeated)", Double(input.count) / 1e6, path))
print(String(format: "memcpy:             %8.2f ms  %8.0f MB/s", copyTime * 1e3, megabytesPerSecond(copyTime)))
print(String(format: "Annex B scan:       %8.2f ms  %8.0f MB/s", scanTime * 1e3, megabytesPerSecond(scanTime)))
print(String(format: "Annex B → AVCC:     %8.2f ms  %8.0f MB/s", convertTime * 1e3, megabytesPerSecond(convertTime)))
print(String(format: "ratio AVCC conversion / memcpy: %.2fx the time of a plain copy", convertTime / copyTime))
if sink == 42 { print("") }  // keeps the work observable
