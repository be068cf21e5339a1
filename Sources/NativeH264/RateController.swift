import CodecInterface

/// The one-pass rate control behind ``NativeH264Encoder/RateControl``: picks each picture's QP
/// before it is coded and learns from its size afterwards. No look-ahead, no frame delay.
///
/// - **Average bit rate.** A rate factor relates bits to quantiser steps: each coded P picture adds
///   `bits · qscale / c^(1−qcomp)` to a decaying sum (c: the short-term blurred complexity,
///   qcomp 0.6), the wanted bits add to another, and the next P picture takes
///   `qscale = c^(1−qcomp) · Σcost / Σwanted` — so, had every picture been coded at the steps the
///   model gives, they would have spent what was wanted. The steps are then scaled by how far the
///   stream is over or under its target so far (at most ×2 or ×½, two seconds of bits giving the
///   full swing), and kept within 4 QP of the previous P picture. IDR pictures take the running mean
///   QP of the P pictures less 3 (the usual I/P quality step) and count in the sums like P pictures.
/// - **Data-rate limits.** One ``RateControlBuffer`` per limit. A picture's QP is raised until its
///   predicted size (a per-type `bits ≈ k · cost / qscale` model, `k` learned from each picture)
///   fits a share of every bucket's room; after coding, a picture that would overflow a bucket is
///   coded again at the QP the model says fits (up to three times, the last at QP 51).
struct RateController: Sendable {
    /// The configuration.
    private(set) var control: NativeH264Encoder.RateControl
    /// The nominal frame rate: the duration of a frame given no time.
    let framesPerSecond: Double
    /// Luma samples per picture (the starting QP is guessed from bits per sample).
    let samplesPerPicture: Int

    private static let qcompress = 0.6
    /// The QP by which IDR pictures are finer than P pictures.
    private static let keyFrameQPOffset = 3.0

    private var buffers: [RateControlBuffer] = []
    /// The sizes and times of recent pictures (the longest limit's window), so that new limits
    /// start from what the stream already holds.
    private var history: [(time: Double, bytes: Int)] = []
    private var lastTime: Double?
    /// Decaying sums of the rate factor.
    private var costSum = 0.0, wantedSum = 0.0
    /// Bits spent and wanted since the start.
    private var spentBits = 0.0, wantedBits = 0.0
    private var blurredComplexity = 0.0, blurredWeight = 0.0
    private var lastPredictedQP: Double?
    private var lastKeyFrameQP: Double?
    private var meanPredictedQP: Double?
    /// `bits · qscale / cost` of IDR pictures ([0]) and P pictures ([1]); nil before the first.
    private var sizeModel: [Double?] = [nil, nil]
    /// bits·qscale of IDR pictures coded before the first P picture (no complexity to scale by yet).
    private var pendingKeyFrameCost = 0.0, pendingKeyFrameWanted = 0.0

    /// What the controller decided for one picture.
    struct Plan {
        /// The slice QP.
        var qp: Int
        /// The picture's time in seconds.
        var time: Double
        /// The most bytes the picture may take (the data-rate limits), nil without limits.
        var maximumBytes: Int?
    }

    /// Creates a controller.
    /// - Parameters:
    ///   - control: the configuration (already validated).
    ///   - framesPerSecond: the nominal frame rate.
    ///   - samplesPerPicture: luma samples per picture.
    init(control: NativeH264Encoder.RateControl, framesPerSecond: Double, samplesPerPicture: Int) {
        self.control = control
        self.framesPerSecond = max(framesPerSecond, 1)
        self.samplesPerPicture = max(samplesPerPicture, 1)
        rebuildBuffers()
    }

    /// The average the stream aims at, bits per second: the configured one, kept below the drain of
    /// the tightest limit.
    var targetBitsPerSecond: Double? {
        guard case let .averageBitRate(rate) = control.mode else { return nil }
        let drain = buffers.map { $0.rate * 8 * 0.95 }.min() ?? .infinity
        return min(Double(rate), drain)
    }

    /// Changes the average bit rate from the next picture (switching a constant-QP encoder to it).
    /// - Parameter bitsPerSecond: the new target, positive.
    mutating func setAverageBitRate(_ bitsPerSecond: Int) {
        let previous = targetBitsPerSecond
        control.mode = .averageBitRate(bitsPerSecond)
        rebuildBuffers()
        // A new budget from here: the bits over or under the old target are not made up at the new
        // one (a stream under 200 kbit/s that drops to 50 kbit/s would otherwise spend its old
        // savings), and the rate factor's wanted bits are restated at the new rate.
        if let previous, let target = targetBitsPerSecond, previous > 0 { wantedSum *= target / previous }
        spentBits = 0
        wantedBits = 0
    }

    /// Changes the data-rate limits from the next picture; the new buckets start from the recent pictures.
    /// - Parameter limits: the limits (already validated).
    mutating func setDataRateLimits(_ limits: [DataRateLimit]) {
        control.dataRateLimits = limits
        rebuildBuffers()
    }

    private mutating func rebuildBuffers() {
        let average: Double?
        if case let .averageBitRate(rate) = control.mode { average = Double(rate) / 8 } else { average = nil }
        buffers = control.dataRateLimits.map { RateControlBuffer(limit: $0, averageBytesPerSecond: average) }
        for entry in history { for i in buffers.indices { buffers[i].add(entry.bytes, at: entry.time) } }
    }

    /// Chooses the QP of the next picture.
    /// - Parameters:
    ///   - isKeyFrame: whether it is an IDR picture.
    ///   - analysis: its costs.
    ///   - time: its time in seconds, nil for one frame after the previous one.
    /// - Returns: the plan.
    mutating func plan(isKeyFrame: Bool, analysis: RateControlAnalysis, time: Double?) -> Plan {
        let time = time ?? (lastTime.map { $0 + 1 / framesPerSecond } ?? 0)
        var qp: Double
        switch control.mode {
        case let .constantQuantisationParameter(constant):
            qp = Double(constant)
        case .averageBitRate:
            qp = averageBitRateQP(isKeyFrame: isKeyFrame, cost: Double(isKeyFrame ? analysis.intraCost : analysis.predictedCost))
        }
        var chosen = min(max(Int(qp.rounded()), 0), 51)
        var maximumBytes: Int?
        if !buffers.isEmpty {
            let room = buffers.map { $0.room(at: time) }.min() ?? 0
            maximumBytes = max(0, Int(room))
            let share = room * (isKeyFrame ? 0.9 : 0.6)
            while chosen < 51, predictedBytes(isKeyFrame: isKeyFrame, analysis: analysis, qp: chosen) > share { chosen += 1 }
        }
        return Plan(qp: chosen, time: time, maximumBytes: maximumBytes)
    }

    /// After a picture came out larger than its plan allows: the QP to code it again at, nil when
    /// there is none higher. The size model learns from the attempt.
    /// - Parameters:
    ///   - plan: the plan the picture was coded with.
    ///   - bytes: the size it came out at.
    ///   - isKeyFrame: whether it is an IDR picture.
    ///   - analysis: its costs.
    /// - Returns: a higher QP, or nil.
    mutating func retryQP(for plan: Plan, bytes: Int, isKeyFrame: Bool, analysis: RateControlAnalysis) -> Int? {
        guard let maximum = plan.maximumBytes, bytes > maximum, plan.qp < 51 else { return nil }
        learn(bits: Double(bytes * 8), qp: plan.qp, isKeyFrame: isKeyFrame, analysis: analysis)
        let ratio = Double(bytes) / Double(max(maximum, 1) ) / 0.85
        let step = max(1, Int((6 * RateControlMath.log2(ratio)).rounded(.up)))
        return min(51, plan.qp + step)
    }

    /// Accounts for a coded picture.
    /// - Parameters:
    ///   - plan: its plan (the QP it was finally coded at).
    ///   - bytes: its size.
    ///   - isKeyFrame: whether it is an IDR picture.
    ///   - analysis: its costs.
    mutating func finish(_ plan: Plan, bytes: Int, isKeyFrame: Bool, analysis: RateControlAnalysis) {
        let bits = Double(bytes * 8)
        learn(bits: bits, qp: plan.qp, isKeyFrame: isKeyFrame, analysis: analysis)
        let duration = lastTime.map { min(max(plan.time - $0, 0.25 / framesPerSecond), 4 / framesPerSecond) } ?? 1 / framesPerSecond
        lastTime = max(plan.time, lastTime ?? plan.time)
        for i in buffers.indices { buffers[i].add(bytes, at: plan.time) }
        let longest = control.dataRateLimits.map(\.seconds).max() ?? 0
        history.append((plan.time, bytes))
        if let first = history.firstIndex(where: { $0.time > plan.time - longest }), first > 0 { history.removeFirst(first) }
        if longest == 0 || history.count > 100_000 { history.removeAll() }

        guard let target = targetBitsPerSecond else { return }
        let wanted = target * duration
        spentBits += bits
        wantedBits += wanted
        let qscale = RateControlMath.qscale(Double(plan.qp))
        if isKeyFrame {
            lastKeyFrameQP = Double(plan.qp)
            // Counted as the P picture it stands for: at the P picture's steps.
            let equivalent = bits * qscale * RateControlMath.exp2(Self.keyFrameQPOffset / 6)
            if blurredWeight == 0 {
                pendingKeyFrameCost += equivalent
                pendingKeyFrameWanted += wanted
            } else {
                costSum += equivalent / rateEquation
                wantedSum += wanted
            }
            return
        }
        costSum = costSum * decay + bits * qscale / rateEquation
        wantedSum = wantedSum * decay + wanted
        lastPredictedQP = Double(plan.qp)
        meanPredictedQP = meanPredictedQP.map { 0.8 * $0 + 0.2 * Double(plan.qp) } ?? Double(plan.qp)
    }

    // MARK: - Average bit rate

    /// Per-picture decay of the rate factor's sums: a memory of about two seconds.
    private var decay: Double { max(0.9, 1 - 1 / (2 * framesPerSecond)) }

    /// c^(1−qcomp) of the blurred complexity.
    private var rateEquation: Double {
        RateControlMath.exp2((1 - Self.qcompress) * RateControlMath.log2(max(blurredComplexity, 1)))
    }

    /// The QP the average-bit-rate model gives the next picture.
    private mutating func averageBitRateQP(isKeyFrame: Bool, cost: Double) -> Double {
        guard let target = targetBitsPerSecond else { return 26 }
        // How far over (above 1) or under the stream is, two seconds of bits giving the full swing.
        let overflow = min(max(1 + (spentBits - wantedBits) / (2 * target), 0.5), 2)
        let overflowQP = 6 * RateControlMath.log2(overflow)
        if isKeyFrame {
            let base = (meanPredictedQP ?? initialQP(bitsPerSecond: target)) - Self.keyFrameQPOffset
            return min(max(base + overflowQP, 1), 51)
        }
        // The short-term blurred complexity of P pictures.
        blurredComplexity = (blurredComplexity * blurredWeight * 0.5 + cost) / (blurredWeight * 0.5 + 1)
        blurredWeight = blurredWeight * 0.5 + 1
        if lastPredictedQP == nil {
            // The first P picture: a prior of a few pictures at the step after the IDR picture's,
            // then the IDR pictures coded so far.
            let start = lastKeyFrameQP.map { $0 + Self.keyFrameQPOffset } ?? initialQP(bitsPerSecond: target)
            let prior = 5 * target / framesPerSecond
            wantedSum = prior + pendingKeyFrameWanted
            costSum = (prior * RateControlMath.qscale(start) + pendingKeyFrameCost) / rateEquation
            lastPredictedQP = start
        }
        let rateFactor = wantedSum / max(costSum, 1e-9)
        let qscale = rateEquation / rateFactor * overflow
        var qp = RateControlMath.qp(qscale)
        if let last = lastPredictedQP { qp = min(max(qp, last - 4), last + 4) }
        return min(max(qp, 1), 51)
    }

    /// A first guess from bits per luma sample per picture, before anything was coded.
    private func initialQP(bitsPerSecond: Double) -> Double {
        let bitsPerSample = bitsPerSecond / framesPerSecond / Double(samplesPerPicture)
        return min(max(30 - 6 * RateControlMath.log2(bitsPerSample / 0.15), 12), 46)
    }

    // MARK: - Size model

    private func predictedBytes(isKeyFrame: Bool, analysis: RateControlAnalysis, qp: Int) -> Double {
        let cost = Double(max(isKeyFrame ? analysis.intraCost : analysis.predictedCost, 1))
        let k = sizeModel[isKeyFrame ? 0 : 1] ?? 1
        return k * cost / RateControlMath.qscale(Double(qp)) / 8
    }

    private mutating func learn(bits: Double, qp: Int, isKeyFrame: Bool, analysis: RateControlAnalysis) {
        let cost = Double(max(isKeyFrame ? analysis.intraCost : analysis.predictedCost, 1))
        let observed = bits * RateControlMath.qscale(Double(qp)) / cost
        let slot = isKeyFrame ? 0 : 1
        sizeModel[slot] = sizeModel[slot].map { 0.5 * $0 + 0.5 * observed } ?? observed
    }
}
