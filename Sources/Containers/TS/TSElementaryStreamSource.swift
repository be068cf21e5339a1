/// The elementary stream of one kind carried in a transport stream, read as bytes: the PES payloads (ISO/IEC
/// 13818-1 §2.4.3.6) of the first H.264/H.265 stream (Annex B) or of the first ADTS AAC stream — what
/// `ffmpeg -i x.ts -c copy -f h264|hevc|adts` writes. `inspect` and `decode` read a `.ts` through it.
public struct TSElementaryStreamSource<Source: ByteSource>: ByteSource {
    /// Which stream to read.
    public enum Stream: Sendable, Hashable {
        /// The first H.264 or H.265 stream.
        case video
        /// The first ADTS AAC stream.
        case audio
    }

    /// The stream read.
    public let stream: Stream
    /// The `stream_type` of the stream chosen, once the program map has named it.
    public private(set) var streamType: TSStreamType?
    /// What went wrong in the transport stream so far.
    public private(set) var issues: [TSStreamIssue] = []

    private var source: Source
    private var demuxer = TSDemuxer()
    private var pid: UInt16?
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var isAtEnd = false

    /// Reads a transport stream's elementary stream.
    /// - Parameters:
    ///   - source: the transport stream's bytes.
    ///   - stream: video or audio.
    public init(source: Source, stream: Stream) {
        self.source = source
        self.stream = stream
    }

    /// Reads the next bytes of the elementary stream.
    /// - Parameter buffer: where they go.
    /// - Returns: how many were read; 0 at the end.
    /// - Throws: ``ContainerIOError`` when the transport stream cannot be read.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ContainerIOError) -> Int {
        while pendingStart == pending.count, !isAtEnd { try fill() }
        let count = min(buffer.count, pending.count - pendingStart)
        guard count > 0, let base = buffer.baseAddress else { return 0 }
        pending.withUnsafeBytes { bytes in
            if let from = bytes.baseAddress { base.copyMemory(from: from + pendingStart, byteCount: count) }
        }
        pendingStart += count
        return count
    }

    /// Unknown ahead of time.
    public var remainingByteCount: Int? { nil }

    /// Demuxes one chunk (or the end) and keeps the payloads of the chosen stream.
    private mutating func fill() throws(ContainerIOError) {
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        var buffer: [UInt8] = []
        swap(&buffer, &chunk)
        defer { swap(&buffer, &chunk) }
        var failure: ContainerIOError?
        var count = 0
        buffer.withUnsafeMutableBytes { raw in
            do throws(ContainerIOError) { count = try source.read(into: raw) } catch { failure = error }
        }
        if let failure { throw failure }
        let events: [TSDemuxer.Event]
        if count == 0 {
            isAtEnd = true
            events = demuxer.finish()
        } else {
            events = demuxer.append(buffer[..<count])
        }
        for event in events {
            switch event {
            case let .pes(packet):
                let wanted = stream == .video ? packet.streamType.isVideo : packet.streamType == .adtsAAC
                guard wanted else { continue }
                if pid == nil { pid = packet.pid; streamType = packet.streamType }
                if packet.pid == pid { pending += packet.payload }
            case let .issue(issue):
                if issues.count < 100 { issues.append(issue) }
            case .programMap:
                continue
            }
        }
    }
}
