import MediaCore

/// One finished movie fragment (ISO/IEC 14496-12 §8.8): an optional `sidx`, a `moof` and its `mdat`,
/// as a ``FragmentedMP4Muxer`` hands it out — a CMAF chunk, or an HLS media segment (RFC 8216 §3.3).
///
/// The sample bytes are not copied into one buffer until ``bytes()`` asks for it; ``write(to:)``
/// writes the header and the samples as they are.
public struct MP4Fragment: Sendable {
    /// The `mfhd` sequence number, from 1.
    public let sequenceNumber: Int
    /// The decode time of the fragment's first sample of the main track (the video track if there is
    /// one, else the first track), on that track's clock from its first sample.
    public let startTime: MediaTime
    /// The duration of the main track's samples in this fragment.
    public let duration: MediaTime
    /// Whether the main track's first sample is a key frame (the fragment can be decoded alone).
    public let startsWithKeyFrame: Bool
    /// The number of samples of every track in the fragment.
    public let sampleCount: Int
    /// `sidx` (if asked for), `moof` and the `mdat` header.
    let header: [UInt8]
    /// The `mdat` payload, sample by sample.
    let payloads: [[UInt8]]

    init(sequenceNumber: Int, startTime: MediaTime, duration: MediaTime, startsWithKeyFrame: Bool, sampleCount: Int,
         header: [UInt8], payloads: [[UInt8]]) {
        self.sequenceNumber = sequenceNumber
        self.startTime = startTime
        self.duration = duration
        self.startsWithKeyFrame = startsWithKeyFrame
        self.sampleCount = sampleCount
        self.header = header
        self.payloads = payloads
    }

    /// The fragment's size in bytes.
    public var byteCount: Int { payloads.reduce(header.count) { $0 + $1.count } }

    /// The fragment as one byte array (for a segment file or an HTTP response).
    /// - Returns: `sidx` + `moof` + `mdat`.
    public func bytes() -> [UInt8] {
        var out = header
        out.reserveCapacity(byteCount)
        for payload in payloads { out += payload }
        return out
    }

    /// Writes the fragment to a sink without gathering it first.
    /// - Parameter sink: where it goes.
    /// - Throws: ``ContainerIOError`` from the sink.
    public func write<Sink: ByteSink>(to sink: inout Sink) throws(ContainerIOError) {
        try sink.write(header)
        for payload in payloads { try sink.write(payload) }
    }
}
