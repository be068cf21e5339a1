import MediaCore

/// What an ``RTPSessionReceiver`` hands on: an access unit or an audio frame with its time on the session's common
/// clock, or the report of a frame that could not be handed on as good.
public enum RTPSessionEvent: Sendable {
    /// A whole, undamaged video access unit (RFC 6184 §5.8 / RFC 7798 §4.4.3 rebuilt) and its presentation time on
    /// a 90 kHz timescale, counted from the session's start (see ``RTPSessionReceiver/Timing``).
    case video(RTPAccessUnit, pts: MediaTime)
    /// A whole raw AAC access unit (RFC 3640 §3.2) and its presentation time on the audio's own timescale (its
    /// sample rate), on the same clock as the video's.
    case audio(RTPAudioFrame, pts: MediaTime)
    /// A video frame that lost packets or had a malformed one.
    case videoLost(RTPFrameLoss)
    /// A whole video frame withheld because an earlier one was lost (or the stream was joined mid-way): frames are
    /// withheld until the next key frame, so nothing that would decode damaged is handed on.
    case videoWithheld(RTPFrameLoss)
    /// An audio access unit that could not be rebuilt.
    case audioLost(RTPFrameLoss)
}
