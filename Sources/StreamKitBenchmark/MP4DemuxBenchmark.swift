// streamkit-benchmark mp4-demux: opening an MP4 and walking every sample against a plain memcpy of the file.
import Bitstream
import Containers
import Foundation

/// Times, in the same run, (1) opening the file (the box walk and the sample index) and walking every sample
/// of every track in decode-time order as views, (2) the same walk reading every byte of every sample (a
/// word-wise sum, what any consumer of the samples must at least do), and (3) a memcpy of the whole file.
/// Prints the best time of each and the ratios to the copy.
/// - Parameters:
///   - file: an MP4 file's bytes.
///   - path: its path (for the report).
///   - rounds: timings per measurement (the best is kept).
func benchmarkMP4Demux(file: [UInt8], path: String, rounds: Int) throws {
    let bytes = ByteView(file)
    let copyTime = best(rounds) {
        let copy = [UInt8](unsafeUninitializedCapacity: file.count) { buffer, count in
            file.withUnsafeBytes { source in
                if let destination = buffer.baseAddress, let from = source.baseAddress { memcpy(destination, from, source.count) }
            }
            count = file.count
        }
        sink &+= Int(copy[copy.count / 2])
    }
    var sampleCount = 0
    var sampleBytes = 0
    let demuxTime = try best(rounds) {
        let mp4 = try MP4File(bytes: bytes)
        sampleCount = 0
        sampleBytes = 0
        for sample in mp4.interleavedSamples() {
            sampleCount += 1
            sampleBytes += sample.data.count
        }
        sink &+= sampleCount
    }
    let readTime = try best(rounds) {
        let mp4 = try MP4File(bytes: bytes)
        var sum: UInt64 = 0
        for sample in mp4.interleavedSamples() {
            sample.data.withUnsafeBytes { buffer in
                let words = buffer.count / 8
                for index in 0..<words { sum &+= buffer.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) }
                for index in (words * 8)..<buffer.count { sum &+= UInt64(buffer[index]) }
            }
        }
        sink &+= Int(truncatingIfNeeded: sum)
    }
    let rate = { (seconds: Double) in Double(file.count) / seconds / 1e6 }
    print(String(format: "input: %.1f MB (%@), %d samples, %.1f MB of sample data", Double(file.count) / 1e6, path,
                 sampleCount, Double(sampleBytes) / 1e6))
    print(String(format: "memcpy of the file:           %9.2f ms  %8.0f MB/s", copyTime * 1e3, rate(copyTime)))
    print(String(format: "open + walk (views):          %9.2f ms  %8.0f MB/s", demuxTime * 1e3, rate(demuxTime)))
    print(String(format: "open + walk + read each byte: %9.2f ms  %8.0f MB/s", readTime * 1e3, rate(readTime)))
    print(String(format: "ratio demux (views) / memcpy: %.3fx the time of a plain copy", demuxTime / copyTime))
    print(String(format: "ratio demux reading every byte / memcpy: %.2fx", readTime / copyTime))
}
