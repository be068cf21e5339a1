// streamkit-benchmark flv: FLV muxing (FLVWriter) and demuxing (FLVReader + tag body parsing) of an H.264
// stream against a plain copy of the same picture bytes.
import Bitstream
import Containers
import Foundation
import MediaCore

/// A sink that copies into one buffer reserved up front, so the mux and the copy pay the same.
private struct FLVBenchmarkSink: ByteSink {
    var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ buffer: UnsafeRawBufferPointer) { bytes.append(contentsOf: buffer) }

    mutating func overwrite(_ newBytes: [UInt8], at offset: Int) {
        bytes.replaceSubrange(offset..<(offset + newBytes.count), with: newBytes)
    }

    func flush() {}

    func close() {}
}

/// Times, in the same run, a copy of every picture's bytes, the FLV writer (into memory) and the FLV reader
/// (tags, then each video body parsed), and prints the best time of each and the ratios.
/// - Parameters:
///   - file: an H.264 Annex B stream with one slice per picture.
///   - path: its path (for the report).
///   - megabytes: the pictures are repeated up to this size.
///   - rounds: timings per measurement (the best is kept).
func benchmarkFLV(file: [UInt8], path: String, megabytes: Int, rounds: Int) throws {
    var parameterSets: [[UInt8]] = []
    var pictures: [(data: [UInt8], isKey: Bool)] = []
    for range in AnnexB.nalUnitRanges(in: file) {
        let unit = Array(file[range])
        guard let header = unit.first else { continue }
        switch header & 0x1F {
        case 7, 8: if parameterSets.count < 2 { parameterSets.append(unit) }
        case 1, 5:
            let length = UInt32(unit.count)
            let prefixed = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + unit
            pictures.append((prefixed, header & 0x1F == 5))
        default: break
        }
    }
    guard parameterSets.count == 2, !pictures.isEmpty else { fail("\(path): no SPS, PPS and slices found") }
    let format = FormatDescription(codec: .h264, width: 1280, height: 720, profileLevel: .h264High, parameterSets: parameterSets)
    var frames: [EncodedFrame] = []
    var total = 0
    while total < megabytes << 20 {
        for picture in pictures {
            let time = MediaTime(value: Int64(frames.count), timescale: 30)
            frames.append(EncodedFrame(data: picture.data, isKeyFrame: picture.isKey || frames.isEmpty, pts: time, dts: time,
                                       duration: MediaTime(value: 1, timescale: 30), format: format))
            total += picture.data.count
        }
    }
    let capacity = total + total / 8 + (1 << 20)
    let copyTime = best(rounds, clock: threadCPUTime) {
        var out = [UInt8]()
        out.reserveCapacity(capacity)
        for frame in frames { out.append(contentsOf: frame.data) }
        sink &+= out.count
    }
    var written: [UInt8] = []
    let muxTime = try best(rounds, clock: threadCPUTime) {
        var writer = try FLVWriter(sink: FLVBenchmarkSink(capacity: capacity), configuration: .init(video: format, audio: nil, frameRate: 30))
        for frame in frames { try writer.append(frame) }
        try writer.finish()
        written = writer.sink.bytes
        sink &+= written.count
    }
    let demuxTime = try best(rounds, clock: threadCPUTime) {
        var reader = try FLVReader(source: MemoryByteSource(written))
        var payloadBytes = 0
        while case let .tag(tag, _) = try reader.next() {
            guard tag.type == .video else { continue }
            payloadBytes &+= try tag.videoBody().payload.count
        }
        sink &+= payloadBytes
    }
    let megabytesMoved = Double(total) / 1e6
    print("flv: \(path), \(frames.count) pictures, \(String(format: "%.1f", megabytesMoved)) MB of picture data, best of \(rounds) (thread CPU time)")
    print(String(format: "  memory copy   %8.1f MB/s", megabytesMoved / copyTime))
    print(String(format: "  FLV mux       %8.1f MB/s   %.2fx the copy's time", megabytesMoved / muxTime, muxTime / copyTime))
    print(String(format: "  FLV demux     %8.1f MB/s   %.2fx the copy's time", megabytesMoved / demuxTime, demuxTime / copyTime))
}
