import Containers
import MediaCore

/// What one RTMP audio, video or data message meant, as ``RTMPMediaReader`` reads it.
public enum RTMPMediaEvent: Sendable {
    /// `onMetaData` (the publisher's `@setDataFrame` with that name removed): width, height, codec ids, rates.
    case metadata(FLVScriptData)
    /// A video sequence start: the format of the coded frames that follow (parameter sets, size, profile).
    case videoFormat(FormatDescription)
    /// One picture as Annex B (parameter sets before key frames as FFmpeg's `mp4toannexb` puts them).
    /// `timestamp` is the dts in milliseconds, `compositionTime` pts − dts.
    case video(annexB: [UInt8], timestamp: UInt32, compositionTime: Int32, isKeyFrame: Bool)
    /// An AAC sequence header: the format of the audio frames that follow.
    case audioFormat(AudioFormatDescription)
    /// One AAC access unit (no ADTS header), its pts from the message's timestamp.
    case audio(EncodedAudioFrame)
    /// A message that carries nothing to record (a video sequence end, a command frame, audio other than AAC,
    /// a data message other than `onMetaData`), with why.
    case ignored(String)
}
