/// What a video tag body holds: the Enhanced RTMP `VideoPacketType` (veovera enhanced-rtmp v1), which
/// also stands for the legacy `AVCPacketType` (E.4.3.2: 0 sequence header, 1 NALU, 2 end of sequence).
public enum FLVVideoPacketType: UInt8, Sendable, Hashable, CaseIterable {
    /// 0: the decoder configuration record (`avcC`, `hvcC` …); legacy AVC sequence header.
    case sequenceStart = 0
    /// 1: coded frames with a composition time (for `avc1`/`hvc1`); legacy AVC NALU.
    case codedFrames = 1
    /// 2: the end of the sequence; legacy AVC end of sequence.
    case sequenceEnd = 2
    /// 3: coded frames whose composition time is 0 and left out (Enhanced RTMP only).
    case codedFramesX = 3
    /// 4: AMF0-encoded metadata such as `colorInfo` (Enhanced RTMP only).
    case metadata = 4
    /// 5: an MPEG-2 TS sequence start (Enhanced RTMP only; carried, not interpreted, here).
    case mpeg2TSSequenceStart = 5
}
