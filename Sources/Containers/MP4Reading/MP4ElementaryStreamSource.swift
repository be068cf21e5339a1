/// A ``ByteSource`` that reads one track of an ``MP4File`` as its elementary stream (Annex B or ADTS, as
/// ``MP4File/writeElementaryStream(of:to:)`` writes it), one sample at a time: what lets every reader of
/// `.h264` / `.h265` / `.aac` streams (the stream inspector, a decompression session fed Annex B) read an MP4.
///
/// Memory stays at one framed sample whatever the file's size.
public struct MP4ElementaryStreamSource: ByteSource {
    /// The file.
    public let file: MP4File
    /// The track read.
    public let track: MP4Track
    private let samples: MP4TrackSamples
    private var framer: MP4ElementaryStreamFramer
    private var next = 0
    private var pending = ScratchSink()
    private var pendingOffset = 0
    private var remainingEstimate: Int

    /// A source over `track`.
    /// - Parameters:
    ///   - file: the file.
    ///   - track: an H.264, H.265 or AAC track of it.
    /// - Throws: ``ContainerWriteError/invalidConfiguration(_:)`` for a track of another format.
    public init(file: MP4File, track: MP4Track) throws(ContainerWriteError) {
        self.file = file
        self.track = track
        self.samples = file.samples(of: track)
        self.framer = try MP4ElementaryStreamFramer(track: track)
        self.remainingEstimate = track.totalSampleBytes
    }

    /// Reads the next bytes of the stream.
    /// - Parameter buffer: where to put them.
    /// - Returns: the number of bytes written; 0 at the end of the track.
    /// - Throws: ``ContainerIOError`` (operation `read`, `EILSEQ`) when a sample's length prefixes do not fit it.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ContainerIOError) -> Int {
        var written = 0
        while written < buffer.count {
            if pendingOffset == pending.bytes.count {
                guard next < samples.endIndex else { break }
                pending.bytes.removeAll(keepingCapacity: true)
                pendingOffset = 0
                do { try framer.write(samples[next], to: &pending) } catch {
                    throw ContainerIOError(operation: .read, path: "track \(track.id) sample \(next)", code: 84)  // EILSEQ
                }
                remainingEstimate -= Int(samples[next].data.count)
                next += 1
                continue
            }
            let count = min(buffer.count - written, pending.bytes.count - pendingOffset)
            pending.bytes.withUnsafeBytes { source in
                buffer.baseAddress!.advanced(by: written)
                    .copyMemory(from: source.baseAddress!.advanced(by: pendingOffset), byteCount: count)
            }
            written += count
            pendingOffset += count
        }
        return written
    }

    /// About how many bytes remain: the samples not yet read plus what is pending (start codes and headers
    /// still to come are not counted).
    public var remainingByteCount: Int? { max(0, remainingEstimate) + pending.bytes.count - pendingOffset }

    /// A growable in-memory sink reused for each sample.
    private struct ScratchSink: ByteSink {
        var bytes: [UInt8] = []
        mutating func write(_ buffer: UnsafeRawBufferPointer) { bytes.append(contentsOf: buffer) }
        mutating func overwrite(_ bytes: [UInt8], at offset: Int) {}
        mutating func flush() {}
        mutating func close() {}
    }
}
