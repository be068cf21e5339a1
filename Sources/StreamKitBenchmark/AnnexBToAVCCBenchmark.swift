// streamkit-benchmark annexb-to-avcc: Annex B scan and Annex B → AVCC conversion against a plain memcpy.
import Bitstream
import Foundation

/// Times, in the same run, Annex B → AVCC conversion and a memcpy of the same bytes, and prints the
/// best time of each and their ratio.
/// - Parameters:
///   - file: an Annex B stream.
///   - path: its path (for the report).
///   - megabytes: the stream is repeated up to this size.
///   - rounds: timings per measurement (the best is kept).
func benchmarkAnnexBToAVCC(file: [UInt8], path: String, megabytes: Int, rounds: Int) throws {
    var input = [UInt8]()
    input.reserveCapacity(megabytes << 20)
    while input.count < megabytes << 20 { input.append(contentsOf: file) }

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
}
