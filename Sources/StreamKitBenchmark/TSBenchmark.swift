// streamkit-benchmark ts: MPEG-TS demuxing and muxing of a recording against a plain copy of the same bytes.
import Containers
import Foundation
import MediaCore

/// Times, in the same run, (1) a memcpy of the whole file, (2) demuxing it into frames (``TSMediaReader``: packets,
/// tables, PES reassembly, the access units and ADTS frames with their times, in 64 KiB chunks as a reader gets them),
/// and (3) muxing those frames again (``TSWriter`` into memory: tables, PES headers, PCR, continuity counters). Prints
/// the best CPU time of each and the ratios to the copy.
/// - Parameters:
///   - file: an MPEG-TS file's bytes (H.264 or H.265, with or without AAC).
///   - path: its path (for the report).
///   - rounds: timings per measurement (the best is kept).
func benchmarkTS(file: [UInt8], path: String, rounds: Int) throws {
    let copyTime = best(rounds, clock: threadCPUTime) {
        let copy = [UInt8](unsafeUninitializedCapacity: file.count) { buffer, count in
            file.withUnsafeBytes { source in
                if let destination = buffer.baseAddress, let from = source.baseAddress { memcpy(destination, from, source.count) }
            }
            count = file.count
        }
        sink &+= Int(copy[copy.count / 2])
    }
    var pictures: [EncodedFrame] = [], audio: [EncodedAudioFrame] = [], issues = 0
    let demuxTime = best(rounds, clock: threadCPUTime) {
        var reader = TSMediaReader()
        var videoCount = 0, audioCount = 0
        var keep: (pictures: [EncodedFrame], audio: [EncodedAudioFrame]) = ([], [])
        let keepsFrames = pictures.isEmpty
        var offset = 0
        issues = 0
        while true {
            let end = min(file.count, offset + 65_536)
            let events = offset == file.count ? reader.finish() : reader.append(file[offset..<end])
            for event in events {
                switch event {
                case let .video(frame, _):
                    videoCount += 1
                    if keepsFrames { keep.pictures.append(frame) }
                case let .audio(frame, _):
                    audioCount += 1
                    if keepsFrames { keep.audio.append(frame) }
                case .issue: issues += 1
                case .programMap: break
                }
            }
            if offset == file.count { break }
            offset = end
        }
        if keepsFrames { (pictures, audio) = keep }
        sink &+= videoCount + audioCount
    }
    guard let videoFormat = pictures.first?.format else { fail("\(path): no picture in the stream") }
    // Interleave by decode time, as a muxer is fed.
    var order: [(time: Double, isVideo: Bool, index: Int)] = pictures.indices.map { (pictures[$0].dts.seconds, true, $0) }
    order += audio.indices.map { (audio[$0].pts.seconds, false, $0) }
    order.sort { $0.time < $1.time || ($0.time == $1.time && $0.isVideo && !$1.isVideo) }
    let configuration = TSWriter<ReservedSink>.Configuration(video: videoFormat, audio: audio.first?.format)
    var written = 0
    let muxTime = try best(rounds, clock: threadCPUTime) {
        var writer = try TSWriter(sink: ReservedSink(capacity: file.count + file.count / 8), configuration: configuration)
        for entry in order {
            if entry.isVideo { try writer.append(pictures[entry.index]) } else { try writer.append(audio[entry.index]) }
        }
        try writer.finish()
        written = writer.sink.bytes.count
        sink &+= written
    }
    let rate = { (seconds: Double) in Double(file.count) / seconds / 1e6 }
    print(String(format: "input: %.1f MB (%@): %d pictures, %d audio frames, %d issues; muxed again: %.1f MB",
                 Double(file.count) / 1e6, path, pictures.count, audio.count, issues, Double(written) / 1e6))
    print(String(format: "memcpy of the file:      %9.2f ms  %8.0f MB/s", copyTime * 1e3, rate(copyTime)))
    print(String(format: "demux (TSMediaReader):   %9.2f ms  %8.0f MB/s", demuxTime * 1e3, rate(demuxTime)))
    print(String(format: "mux (TSWriter):          %9.2f ms  %8.0f MB/s", muxTime * 1e3, rate(muxTime)))
    print(String(format: "ratio demux / memcpy: %.2fx the time of a plain copy; mux / memcpy: %.2fx", demuxTime / copyTime, muxTime / copyTime))
}
