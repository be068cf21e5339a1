extension AudioBuffer {
    /// The first `frameCount` samples of every channel (the whole buffer if it is shorter).
    /// - Parameter frameCount: the number of samples per channel to keep.
    /// - Returns: a buffer with the same rate, channels and layout.
    /// - Throws: ``AudioBufferError`` (never for a buffer that was valid).
    public func prefix(frameCount: Int) throws(AudioBufferError) -> AudioBuffer {
        let keep = max(0, min(frameCount, self.frameCount))
        guard keep < self.frameCount else { return self }
        let bytesPerFrame = format.byteCount * (isInterleaved ? channelCount : 1)
        return try AudioBuffer(sampleRate: sampleRate, channelCount: channelCount, format: format, isInterleaved: isInterleaved,
                               channelData: channelData.map { Array($0.prefix(keep * bytesPerFrame)) })
    }
}
