/// The one line a command prints when it carries on without the audio it would have sent.
enum AudioNotice {
    /// A build without an AAC encoder (the pure-Swift build) given the microphone beside the camera.
    static let videoAlone = "audio: this build has no AAC encoder (build with --traits FFmpeg for one): carrying on with video alone"
}
