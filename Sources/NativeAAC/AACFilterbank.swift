/// The filterbank of one channel (ISO/IEC 14496-3 §4.6.11): IMDCT of the frame's spectrum (one 2048
/// transform or eight 256 transforms), windowing by sequence and shape — the left half with the
/// previous frame's shape, the right half with this frame's — and overlap-add with the previous frame.
///
/// Holds the overlap (the right half of the last frame) and the last window shape; the first frame
/// overlaps with silence.
struct AACFilterbank: Sendable {
    /// The output scale: the specification's 2/N, and 1/32768 to bring 16-bit full scale to 1.0.
    static let longScale: Float = 2.0 / 2048 / 32768
    static let shortScale: Float = 2.0 / 256 / 32768
    static let longTransform = AACIMDCT(length: 2048)
    static let shortTransform = AACIMDCT(length: 256)

    /// The second half of the last frame's windowed output.
    private var overlap = [Float](repeating: 0, count: 1024)
    /// The last frame's window shape.
    private(set) var previousShape: AACWindowShape = .sine
    private var buffer = [Float](repeating: 0, count: 2048)
    private var shortBuffer = [Float](repeating: 0, count: 256)
    private var scratch = [Float](repeating: 0, count: 2048)

    /// Turns one frame's spectrum into 1024 output samples.
    /// - Parameters:
    ///   - spectrum: 1024 coefficients (8 × 128 for short windows).
    ///   - sequence: the frame's window sequence.
    ///   - shape: the frame's window shape.
    ///   - output: receives 1024 samples.
    mutating func synthesize(_ spectrum: [Float], sequence: AACWindowSequence, shape: AACWindowShape,
                             into output: UnsafeMutablePointer<Float>) {
        let previousLong = AACWindows.rising(previousShape, short: false)
        let previousShort = AACWindows.rising(previousShape, short: true)
        let currentLong = AACWindows.rising(shape, short: false)
        let currentShort = AACWindows.rising(shape, short: true)
        buffer.withUnsafeMutableBufferPointer { bufferPointer in
            scratch.withUnsafeMutableBufferPointer { scratchPointer in
                shortBuffer.withUnsafeMutableBufferPointer { shortPointer in
                    spectrum.withUnsafeBufferPointer { spectrumPointer in
                        guard let buffer = bufferPointer.baseAddress, let scratch = scratchPointer.baseAddress,
                              let short = shortPointer.baseAddress, let input = spectrumPointer.baseAddress else { return }
                        if sequence == .eightShort {
                            for index in 0..<2048 { buffer[index] = 0 }
                            for window in 0..<8 {
                                Self.shortTransform.inverse(input + window * 128, into: short, scale: Self.shortScale, scratch: scratch)
                                let rising = window == 0 ? previousShort : currentShort
                                let base = 448 + window * 128
                                for n in 0..<128 {
                                    buffer[base + n] += short[n] * rising[n]
                                    buffer[base + 128 + n] += short[128 + n] * currentShort[127 - n]
                                }
                            }
                        } else {
                            Self.longTransform.inverse(input, into: buffer, scale: Self.longScale, scratch: scratch)
                            if sequence == .longStop {
                                for n in 0..<448 { buffer[n] = 0 }
                                for n in 0..<128 { buffer[448 + n] *= previousShort[n] }
                            } else {
                                for n in 0..<1024 { buffer[n] *= previousLong[n] }
                            }
                            if sequence == .longStart {
                                for n in 0..<128 { buffer[1472 + n] *= currentShort[127 - n] }
                                for n in 1600..<2048 { buffer[n] = 0 }
                            } else {
                                for n in 0..<1024 { buffer[1024 + n] *= currentLong[1023 - n] }
                            }
                        }
                    }
                }
                overlap.withUnsafeMutableBufferPointer { overlapPointer in
                    guard let buffer = bufferPointer.baseAddress, let overlap = overlapPointer.baseAddress else { return }
                    for n in 0..<1024 {
                        output[n] = overlap[n] + buffer[n]
                        overlap[n] = buffer[1024 + n]
                    }
                }
            }
        }
        previousShape = shape
    }

    /// Forgets the overlap (a new stream, or after a reset).
    mutating func reset() {
        for index in 0..<1024 { overlap[index] = 0 }
        previousShape = .sine
    }
}
