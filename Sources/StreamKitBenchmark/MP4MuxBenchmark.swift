// streamkit-benchmark mp4-mux: MP4 and fragmented MP4 muxing of an H.264 stream against a plain copy
// of the same sample bytes.
import Bitstream
import Containers
import Foundation
import MediaCore

/// A sink that copies into one buffer reserved up front, so the mux and the copy pay the same.
private struct ReservedSink: ByteSink {
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

/// Times, in the same run, a copy of every sample's bytes, the classic MP4 writer and the fragmented
/// MP4 writer (both into memory), and prints the best time of each and the ratios.
/// - Parameters:
///   - file: an H.264 Annex B stream with one slice per picture (as x264 writes by default).
///   - path: its path (for the report).
///   - megabytes: the pictures are repeated up to this size.
///   - rounds: timings per measurement (the best is kept).
func benchmarkMP4Mux(file: [UInt8], path: String, megabytes: Int, rounds: Int) throws {
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
    let format = FormatDescription(codec: .h264, width: 1280, height: 720, profileLevel: .h264High,
                                   parameterSets: parameterSets)
    var samples: [MP4Sample] = []
    var total = 0
    while total < megabytes << 20 {
        for picture in pictures {
            let time = MediaTime(value: Int64(samples.count), timescale: 30)
            samples.append(MP4Sample(data: picture.data, dts: time, pts: time, duration: MediaTime(value: 1, timescale: 30),
                                     isKeyFrame: picture.isKey || samples.isEmpty))
            total += picture.data.count
        }
    }
    let capacity = total + total / 8 + (1 << 20)
    let copyTime = best(rounds, clock: threadCPUTime) {
        var out = [UInt8]()
        out.reserveCapacity(capacity)
        for sample in samples { out.append(contentsOf: sample.data) }
        sink &+= out.count
    }
    let classicTime = try best(rounds, clock: threadCPUTime) {
        var writer = try MP4Writer(sink: ReservedSink(capacity: capacity), tracks: [.video(format)])
        for sample in samples { try writer.append(sample, toTrack: 0) }
        try writer.finish()
        sink &+= writer.sink.bytes.count
    }
    let fragmentedTime = try best(rounds, clock: threadCPUTime) {
        var writer = try FragmentedMP4Writer(sink: ReservedSink(capacity: capacity), tracks: [.video(format)],
                                             options: FragmentedMP4Options(fragmentDuration: MediaTime(value: 1, timescale: 1)))
        for sample in samples { try writer.append(sample, toTrack: 0) }
        try writer.finish()
        sink &+= writer.sink.bytes.count
    }
    let megabytesPerSecond = { (seconds: Double) in Double(total) / seconds / 1e6 }
    print(String(format: "input: %.1f MB in %d samples (%@ repeated)", Double(total) / 1e6, samples.count, path))
    print(String(format: "copy of the samples:  %8.2f ms  %8.0f MB/s", copyTime * 1e3, megabytesPerSecond(copyTime)))
    print(String(format: "MP4Writer:            %8.2f ms  %8.0f MB/s", classicTime * 1e3, megabytesPerSecond(classicTime)))
    print(String(format: "FragmentedMP4Writer:  %8.2f ms  %8.0f MB/s", fragmentedTime * 1e3, megabytesPerSecond(fragmentedTime)))
    print(String(format: "ratio MP4Writer / copy: %.2fx the time; FragmentedMP4Writer / copy: %.2fx",
                 classicTime / copyTime, fragmentedTime / copyTime))
}
