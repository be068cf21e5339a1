// streamkit-benchmark flv: FLV muxing (FLVWriter) and demuxing (FLVReader + tag body parsing) of an H.264
// stream against a plain copy of the same picture bytes.
import Bitstream
import Containers
import Foundation
import MediaCore

/// Times, in the same run, a copy of every picture's bytes, the FLV writer (into memory) and the FLV reader
/// (tags, then each video body parsed), and prints the best time of each and the ratios.
/// - Parameters:
///   - file: an H.264 Annex B stream with one slice per picture.
///   - path: its path (for the report).
///   - megabytes: the pictures are repeated up to this size.
///   - rounds: timings per measurement (the best is kept).
func benchmarkFLV(file: [UInt8], path: String, megabytes: Int, rounds: Int) throws {
    let input = AVCCPictures(annexB: file, path: path, megabytes: megabytes)
    let format = input.format, capacity = input.outputCapacity, total = input.byteCount
    let frames = input.pictures.map { picture in
        EncodedFrame(data: picture.data, isKeyFrame: picture.isKeyFrame, pts: picture.time, dts: picture.time,
                     duration: AVCCPictures.Picture.duration, format: format)
    }
    let copyTime = input.bestCopyTime(rounds: rounds)
    var written: [UInt8] = []
    let muxTime = try best(rounds, clock: threadCPUTime) {
        var writer = try FLVWriter(sink: ReservedSink(capacity: capacity), configuration: .init(video: format, audio: nil, frameRate: 30))
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
