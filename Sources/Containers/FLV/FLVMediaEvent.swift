import MediaCore

/// What ``FLVMediaReader/next()`` found, in file order: a picture, an audio frame, the file's `onMetaData`,
/// the end, or a file cut off inside a tag (a normal outcome, apart from malformed-input errors).
public enum FLVMediaEvent: Sendable, Hashable {
    /// A picture (AVCC, in decode order), with the format of the sequence start in force.
    case video(EncodedFrame)
    /// An AAC access unit, with the format of the sequence header in force.
    case audio(EncodedAudioFrame)
    /// The `onMetaData` properties of a script-data tag.
    case metadata(AMF0Object)
    /// The file ended after a complete tag.
    case end
    /// The file ended inside a tag: where that tag starts and the field that was cut off (then `end` forever).
    case truncated(offset: Int, field: String)
}
