import Bitstream
import Containers

extension FuzzTargets {
    /// The MP4 reader: the input as a whole file (classic or fragmented), then every sample of every track walked
    /// in interleaved order and checked to lie inside the input, and each H.264/H.265/AAC track framed as its
    /// elementary stream, then the file remuxed (``MP4Remuxer``) into memory. Opening must return a file or throw an
    /// ``MP4ReadError``, the remux a file or a ``ContainerWriteError``; nothing may trap.
    /// - Parameter bytes: arbitrary bytes.
    static func mp4(_ bytes: [UInt8]) {
        guard let file = try? MP4File(bytes: bytes) else { return }
        for sample in file.interleavedSamples() {
            precondition(sample.offset >= 0 && sample.offset + sample.data.count <= bytes.count, "sample outside the file")
        }
        for track in file.tracks where track.codec != nil {
            guard var source = try? MP4ElementaryStreamSource(file: file, track: track) else { continue }
            while let chunk = try? source.read(upToCount: 4096), !chunk.isEmpty {}
        }
        // The remux of whatever was read: a file or a ContainerWriteError, never a trap.
        _ = try? MP4Remuxer.remux(file) { (tracks) throws(ContainerWriteError) in try MP4Writer(sink: MemoryByteSink(), tracks: tracks) }
    }
}
