/// Attack detection for window switching (the encoder's side of ISO/IEC 14496-3 §4.6.11's block
/// switching; the method is the usual one of the informative encoders): the input is high-passed
/// (first difference), cut into sub-blocks of 128 samples, and a sub-block whose energy is more than ten
/// times the mean of the eight before it, and audible, is an attack.
struct AACTransientDetector: Sendable {
    /// The energies of the last eight sub-blocks.
    private var history = [Float](repeating: 0, count: 8)
    private var last: Float = 0
    /// Whether a block has been seen: the first block of a stream has no past to stand out from (and
    /// whatever precedes the first sample is priming the decoder drops).
    private var primed = false

    /// The energy ratio that counts as an attack.
    static let ratio: Float = 10
    /// The smallest sub-block energy (full scale 1.0, high-passed) that can be an attack: about −60 dBFS.
    static let floor: Float = 128 * 1e-6

    /// Looks for an attack in the next block of 1024 samples.
    /// - Parameter block: the samples (full scale ±1.0).
    /// - Returns: the offset in the block of the first sub-block with an attack, or `nil`.
    mutating func attack(in block: ArraySlice<Float>) -> Int? {
        var found: Int?
        var index = block.startIndex
        for sub in 0..<8 {
            var energy: Float = 0
            for _ in 0..<128 {
                let sample = block[index]
                let difference = sample - last
                energy += difference * difference
                last = sample
                index += 1
            }
            let mean = history.reduce(0, +) / 8
            if primed, found == nil, energy > Self.floor, energy > Self.ratio * mean { found = sub * 128 }
            history.removeFirst()
            history.append(energy)
        }
        primed = true
        return found
    }

    /// Forgets the past (a new stream).
    mutating func reset() {
        for index in history.indices { history[index] = 0 }
        last = 0
        primed = false
    }
}
