/// Inspects an elementary stream from a ``ByteSource`` in fixed-size chunks: detects the format from
/// the first chunk, then hands every chunk to ``VideoStreamAnalyzer`` or ``ADTSStreamAnalyzer``.
/// Memory stays flat whatever the size of the stream (one chunk, one NAL unit, one frame).
///
/// ```swift
/// var file = try FileByteSource(path: "recording.h264")
/// let summary = try StreamInspector.inspect(&file) { event in
///     if case let .frame(frame) = event { print(frame.index, frame.type, frame.size) }
/// }
/// ```
public enum StreamInspector {
    /// The default chunk size: 1 MiB.
    public static let defaultChunkSize = 1 << 20

    /// Reads a whole stream and analyses it.
    /// - Parameters:
    ///   - source: where the bytes come from; read to its end.
    ///   - chunkSize: how many bytes each read asks for (at least 64 KiB, so that detection sees enough).
    ///   - reportsNALUnits: whether video events include every NAL unit.
    ///   - handle: receives video events as they are found (audio has none).
    /// - Returns: the summary of the stream.
    /// - Throws: ``StreamInspectionError``: the stream is empty or of no known format, or a read failed.
    public static func inspect<Source: ByteSource>(_ source: inout Source, chunkSize: Int = defaultChunkSize,
                                                   reportsNALUnits: Bool = false,
                                                   _ handle: (VideoStreamEvent) -> Void = { _ in }) throws(StreamInspectionError) -> StreamSummary {
        let chunkSize = max(1 << 16, chunkSize)
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var count = try fill(&buffer, from: &source)
        guard count > 0 else { throw .empty }
        guard let format = ElementaryStreamFormat.detect(Array(buffer[0..<count])) else { throw .unrecognizedFormat }
        switch format {
        case .adts:
            var analyzer = ADTSStreamAnalyzer()
            while count > 0 {
                buffer.withUnsafeBytes { analyzer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                count = try fill(&buffer, from: &source)
            }
            return .audio(analyzer.finish())
        case .h264AnnexB, .hevcAnnexB:
            var analyzer = VideoStreamAnalyzer(format: format, reportsNALUnits: reportsNALUnits)
            buffer.withUnsafeBytes { analyzer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count]), handle) }
            buffer = []
            // The rest is read straight into the analyser's buffer: no copy, no allocation per chunk.
            do throws(ContainerIOError) {
                while try analyzer.append(readingUpTo: chunkSize, using: { (room) throws(ContainerIOError) in
                    try source.read(into: room)
                }, handle) > 0 {}
            } catch {
                throw .readFailed(error)
            }
            return .video(analyzer.finish(handle))
        }
    }

    /// Reads until `buffer` is full or the source ends.
    private static func fill<Source: ByteSource>(_ buffer: inout [UInt8], from source: inout Source) throws(StreamInspectionError) -> Int {
        var filled = 0
        var failure: ContainerIOError?
        let capacity = buffer.count
        buffer.withUnsafeMutableBytes { raw in
            while filled < capacity {
                do throws(ContainerIOError) {
                    let got = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                    if got == 0 { return }
                    filled += got
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw .readFailed(failure) }
        return filled
    }
}
