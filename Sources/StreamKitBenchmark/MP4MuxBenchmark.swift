// streamkit-benchmark mp4-mux: MP4 and fragmented MP4 muxing of an H.264 stream against a plain copy
// of the same sample bytes.
import Bitstream
import Containers
import Foundation
import MediaCore

/// Times, in the same run, a copy of every sample's bytes, the classic MP4 writer and the fragmented
/// MP4 writer (both into memory), and prints the best time of each and the ratios.
/// - Parameters:
///   - file: an H.264 Annex B stream with one slice per picture (as x264 writes by default).
///   - path: its path (for the report).
///   - megabytes: the pictures are repeated up to this size.
///   - rounds: timings per measurement (the best is kept).
func benchmarkMP4Mux(file: [UInt8], path: String, megabytes: Int, rounds: Int) throws {
    let input = AVCCPictures(annexB: file, path: path, megabytes: megabytes)
    let format = input.format, capacity = input.outputCapacity, total = input.byteCount
    let samples = input.pictures.map { picture in
        MP4Sample(data: picture.data, dts: picture.time, pts: picture.time, duration: AVCCPictures.Picture.duration, isKeyFrame: picture.isKeyFrame)
    }
    let copyTime = input.bestCopyTime(rounds: rounds)
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
