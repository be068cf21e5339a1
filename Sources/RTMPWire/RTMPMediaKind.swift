import Bitstream

/// What an audio or video message's first bytes say (the FLV tag body header, FLV 10.1 §E.4.2–E.4.3, and the
/// Enhanced RTMP `IsExHeader` form): enough for a server to keep the sequence headers and start late players at a
/// key frame, without parsing the codec data.
package enum RTMPMediaKind {
    /// Whether a video body is a key frame (frame type 1), legacy or Enhanced RTMP.
    package static func isKeyFrame(video payload: ByteView) -> Bool {
        guard let first = payload.getByte(at: 0) else { return false }
        return (first >> 4) & 0x7 == 1
    }

    /// Whether a video body is a sequence header: AVC/HEVC packet type 0, or Enhanced RTMP SequenceStart.
    package static func isSequenceHeader(video payload: ByteView) -> Bool {
        guard let first = payload.getByte(at: 0) else { return false }
        if first & 0x80 != 0 { return first & 0x0F == 0 }
        guard let packetType = payload.getByte(at: 1) else { return false }
        let codec = first & 0x0F
        return (codec == 7 || codec == 12) && packetType == 0
    }

    /// Whether an audio body is an AAC sequence header (AudioSpecificConfig).
    package static func isSequenceHeader(audio payload: ByteView) -> Bool {
        guard let first = payload.getByte(at: 0), let packetType = payload.getByte(at: 1) else { return false }
        return first >> 4 == 10 && packetType == 0
    }
}
