import Containers
import MediaCore

/// Where a command puts the compressed pictures it gets: an Annex B file, or the video track of an MP4.
protocol EncodedFrameOutput {
    /// Writes one picture.
    mutating func write(_ frame: EncodedFrame) throws
    /// Ends the output (the file is complete afterwards).
    mutating func finish() throws
}

/// Where a command puts the AAC frames it gets: an ADTS file, or the audio track of an MP4.
protocol EncodedAudioFrameOutput {
    /// Writes one AAC frame.
    mutating func write(_ frame: EncodedAudioFrame) throws
    /// Ends the output.
    mutating func finish() throws
}

extension AnnexBWriter: EncodedFrameOutput {}

extension ADTSWriter: EncodedAudioFrameOutput {}
