/// What a ``LivePipeline`` does when a destination falls behind.
public enum Delivery: Sendable, Hashable {
    /// Live: the destination's queue drops what nothing depends on (each drop reported), and the encoder and the
    /// other destinations go on — a camera, a paced file.
    case dropWhenBehind
    /// Every frame reaches every destination: the slowest one sets the pace of the whole pipeline, as `ffmpeg`'s
    /// `tee` does — a transcode into files, a file sent as fast as the link takes it.
    case waitForSlowest
}

extension Delivery {
    /// What a paced source goes with: a source at its own pace is live (``dropWhenBehind``); one as fast as possible
    /// waits for its slowest destination (``waitForSlowest``), so a transcode keeps every frame.
    /// - Parameter pacing: the source's pacing.
    public init(for pacing: Pacing) {
        self = pacing == .realTime ? .dropWhenBehind : .waitForSlowest
    }
}
