import Bitstream
import H264
import HEVC
import MediaCore

/// Turns an H.264 or H.265 Annex B byte stream, arriving in chunks split anywhere, into
/// ``EncodedFrame``s: one access unit each, in AVCC form, with a ``FormatDescription`` built from the
/// parameter sets seen so far — what the seeds' decoder does by hand before it creates a
/// `VTDecompressionSession` (`../shared/seeds/001_…`: collect SPS/PPS, start at the first key frame,
/// ignore what comes before).
///
/// Access units are found with the rules of ITU-T H.264 §7.4.1.2.3 / H.265 §7.4.2.4.4. Frames get
/// decode timestamps `index / frameRate` in a 90 kHz timescale (the rate from the SPS VUI, else 25 fps);
/// Annex B carries no time of its own. H.264 frames get their presentation times from the slices' picture
/// order counts (§8.2.1) through a ``PresentationOrderTimer`` with the SPS's `max_num_reorder_frames`, so
/// B-frames keep their composition times (a frame then comes out up to that many frames late); H.265 frames
/// get pts = dts.
///
/// The NAL units of an access unit are kept as views into the scanner's buffer until the access unit is
/// complete; each frame then gets its own bytes in one copy (a frame owns its data). Nothing else is
/// allocated per NAL unit.
public struct AnnexBFrameAssembler: Sendable {
    /// Why data did not become a frame.
    public enum Skip: Sendable, Hashable, CustomStringConvertible {
        /// Access units before the first key frame with its parameter sets (normal when joining a stream).
        case beforeFirstKeyFrame(accessUnits: Int)
        /// A NAL unit that could not be read; the text is the parser's error.
        case unreadableNALUnit(index: Int, message: String)

        /// What was skipped and why.
        public var description: String {
            switch self {
            case let .beforeFirstKeyFrame(count): return "skipped \(count) access units before the first key frame"
            case let .unreadableNALUnit(index, message): return "NAL unit #\(index) skipped: \(message)"
            }
        }
    }

    /// One thing the assembler found, in stream order.
    public enum Event: Sendable, Hashable {
        /// A complete access unit.
        case frame(EncodedFrame)
        /// Data that did not become a frame.
        case skipped(Skip)
    }

    /// The codec of the stream.
    public let codec: CodecType
    /// How many bytes were appended so far.
    public private(set) var byteCount = 0
    /// How many frames were completed so far.
    public var frameCount: Int { Int(frameIndex) }
    /// What was skipped so far.
    public private(set) var skips: [Skip] = []

    private var scanner = AnnexBStreamScanner()
    private var h264 = H264AccessUnitDetector()
    private var hevcDetector = HEVCAccessUnitDetector()
    private var hevcParameterSets = HEVCParameterSets()
    /// The NAL units of the access unit being collected, as views into the scanner's buffer.
    private var pending: [ByteView] = []
    /// The NAL units one chunk completed, kept between chunks only for its capacity (empty then).
    private var scanned: [ByteView] = []
    private var pendingIsKey = false
    /// The picture order count of the access unit being collected and whether it resets the order (H.264).
    private var pendingOrder: (count: Int, resets: Bool)?
    private var timer: PresentationOrderTimer?
    /// The order of the picture the NAL unit being processed starts, until it is known which access unit it joins.
    private var pendingOrderOfNextUnit: (count: Int, resets: Bool)?
    private var started = false
    private var skippedBeforeKey = 0
    private var nalIndex = 0
    private var frameIndex: Int64 = 0
    private var parameterSets: [Int: [UInt8]] = [:]  // latest VPS (32) / SPS / PPS by NAL type
    private var format: FormatDescription?
    /// The duration of one frame: from the SPS VUI timing once known, else 1/25 s.
    public private(set) var frameDuration = MediaTime(value: 3600, timescale: 90_000)

    /// Creates an assembler.
    /// - Parameter codec: ``CodecType/h264`` or ``CodecType/hevc``.
    public init(codec: CodecType) {
        self.codec = codec
    }

    /// Adds bytes of the stream.
    /// - Parameter chunk: the next bytes, of any length.
    /// - Returns: the frames completed by them.
    public mutating func append<Bytes: Sequence>(_ chunk: Bytes) -> [EncodedFrame] where Bytes.Element == UInt8 {
        Self.frames(in: events(appending: chunk))
    }

    /// Ends the stream.
    /// - Returns: the last frames.
    public mutating func finish() -> [EncodedFrame] {
        Self.frames(in: finishEvents())
    }

    /// Adds bytes of the stream.
    /// - Parameter chunk: the next bytes, of any length.
    /// - Returns: the frames completed by them and what was skipped, in stream order.
    public mutating func events<Bytes: Sequence>(appending chunk: Bytes) -> [Event] where Bytes.Element == UInt8 {
        var events: [Event] = []
        byteCount += chunk.withContiguousStorageIfAvailable(\.count) ?? chunk.reduce(0) { count, _ in count + 1 }
        var units = takeScannedUnits()
        scanner.append(chunk) { units.append($0) }
        process(&units, into: &events)
        return events
    }

    /// Ends the stream.
    /// - Returns: the last frames and what was skipped, in stream order.
    public mutating func finishEvents() -> [Event] {
        var events: [Event] = []
        var units = takeScannedUnits()
        scanner.finish { units.append($0) }
        process(&units, into: &events)
        completeAccessUnit(into: &events)
        for ready in timer?.finish() ?? [] { events.append(.frame(ready)) }
        if skippedBeforeKey > 0 {
            let skip = Skip.beforeFirstKeyFrame(accessUnits: skippedBeforeKey)
            skips.insert(skip, at: 0)
            events.append(.skipped(skip))
            skippedBeforeKey = 0
        }
        return events
    }

    private static func frames(in events: [Event]) -> [EncodedFrame] {
        events.compactMap { event in
            if case let .frame(frame) = event { return frame }
            return nil
        }
    }

    /// The reusable array for the units of one chunk, taken out of `self` so the scanner can fill it.
    private mutating func takeScannedUnits() -> [ByteView] {
        var units: [ByteView] = []
        swap(&units, &scanned)
        return units
    }

    /// Reads the NAL units one chunk completed, then gives the array back for the next chunk.
    private mutating func process(_ units: inout [ByteView], into events: inout [Event]) {
        for unit in units { process(unit, into: &events) }
        units.removeAll(keepingCapacity: true)
        swap(&units, &scanned)
    }

    private mutating func process(_ unit: ByteView, into frames: inout [Event]) {
        defer { nalIndex += 1 }
        let starts: Bool
        let isKey: Bool
        var parameterSetType: Int?
        do {
            switch codec {
            case .hevc:
                let header = try HEVCNALUnitHeader(parsing: unit)
                starts = try hevcDetector.startsNewAccessUnit(unit)
                isKey = header.type.isIRAP
                if (32...34).contains(Int(header.type.rawValue)) {
                    _ = try hevcParameterSets.insert(nalUnit: unit)
                    parameterSetType = Int(header.type.rawValue)
                }
            default:
                let result = try h264.process(unit)
                starts = result.startsAccessUnit
                isKey = result.picture?.isIDR ?? false
                // The detector describes a picture with its first VCL NAL unit.
                if let picture = result.picture {
                    pendingOrderOfNextUnit = (picture.pictureOrderCount.value, picture.resetsPictureOrder)
                }
                let type = result.nalUnitHeader.nalUnitType
                if type == .sequenceParameterSet || type == .pictureParameterSet { parameterSetType = Int(type.rawValue) }
            }
        } catch {
            if !started {
                // Joining a running stream: slices whose parameter sets have not arrived yet are not
                // malformed, they are what comes before the first key frame.
                if isVCL(unit) && startsPicture(unit) { skippedBeforeKey += 1 }
                return
            }
            // What was gathered so far is a frame of its own: the unreadable unit belongs to the next one.
            if isVCL(unit) { completeAccessUnit(into: &frames) }
            let skip = Skip.unreadableNALUnit(index: nalIndex, message: "\(error)")
            skips.append(skip)
            frames.append(.skipped(skip))
            return
        }
        if starts { completeAccessUnit(into: &frames) }
        if let order = pendingOrderOfNextUnit, pendingOrder == nil { pendingOrder = order }
        pendingOrderOfNextUnit = nil
        if let parameterSetType { parameterSets[parameterSetType] = Array(unit); format = nil }
        pending.append(unit)
        if isKey { pendingIsKey = true }
    }

    private mutating func completeAccessUnit(into frames: inout [Event]) {
        defer { pending.removeAll(keepingCapacity: true); pendingIsKey = false; pendingOrder = nil }
        guard !pending.isEmpty else { return }
        if !started {
            guard pendingIsKey, let description = currentFormat() else {
                if pending.contains(where: isVCL) { skippedBeforeKey += 1 }
                return
            }
            started = true
            format = description
        }
        guard pending.contains(where: isVCL), let description = currentFormat() else { return }
        var data: [UInt8] = []
        data.reserveCapacity(pending.reduce(0) { $0 + $1.count + 4 })
        for unit in pending { try? AVCC.append(unit, lengthSize: 4, to: &data) }
        let time = MediaTime(value: frameIndex * frameDuration.value, timescale: frameDuration.timescale)
        let frame = EncodedFrame(data: data, isKeyFrame: pendingIsKey, pts: time, dts: time, duration: frameDuration, format: description)
        frameIndex += 1
        // Optional chaining mutates the timer in place (no copy of its buffers per frame).
        if codec == .h264, let order = pendingOrder,
           let ready = timer?.append(frame, pictureOrderCount: order.count, resetsOrder: order.resets) {
            for frame in ready { frames.append(.frame(frame)) }
        } else {
            frames.append(.frame(frame))
        }
    }

    /// Whether a slice is the first of its picture (`first_mb_in_slice` = 0 / `first_slice_segment_in_pic_flag`).
    private func startsPicture(_ unit: ByteView) -> Bool {
        let offset = codec == .hevc ? 2 : 1
        return unit.count > offset && unit[offset] & 0x80 != 0
    }

    private func isVCL(_ unit: ByteView) -> Bool {
        guard let first = unit.first else { return false }
        return codec == .hevc ? (first >> 1) & 0x3F < 32 : (1...5).contains(first & 0x1F)
    }

    /// The format from the latest parameter sets, or `nil` while one is missing.
    private mutating func currentFormat() -> FormatDescription? {
        if let format { return format }
        switch codec {
        case .hevc:
            guard let vps = parameterSets[32], let spsBytes = parameterSets[33], let pps = parameterSets[34],
                  let sps = try? HEVCSequenceParameterSet(nalUnit: spsBytes) else { return nil }
            setFrameRate(sps.frameRate)
            format = FormatDescription(codec: .hevc, width: sps.width, height: sps.height, profileLevel: ProfileLevel(codec: .hevc, profileNamed: sps.profileName ?? "unknown", level: sps.levelName),
                                       parameterSets: [vps, spsBytes, pps])
        default:
            guard let spsBytes = parameterSets[7], let pps = parameterSets[8],
                  let sps = try? H264SequenceParameterSet(nalUnit: spsBytes) else { return nil }
            setFrameRate(sps.frameRate)
            if timer == nil { timer = PresentationOrderTimer(reorderDepth: Self.reorderDepth(of: sps)) }
            format = FormatDescription(codec: .h264, width: sps.width, height: sps.height, profileLevel: ProfileLevel(codec: .h264, profileNamed: sps.profileName, level: sps.levelName),
                                       parameterSets: [spsBytes, pps])
        }
        return format
    }

    /// `max_num_reorder_frames` of the VUI (E.2.1); without it 0 for picture order count type 2 (output order is
    /// decode order, §8.2.1.3), else `max_num_ref_frames` — a guess: a stream that reorders more than that gets
    /// presentation times out of display order, but never one before its decode time.
    private static func reorderDepth(of sps: H264SequenceParameterSet) -> Int {
        if let restriction = sps.vuiParameters?.bitstreamRestriction { return Int(restriction.maxNumReorderFrames) }
        return sps.picOrderCntType == 2 ? 0 : Int(sps.maxNumRefFrames)
    }

    private mutating func setFrameRate(_ rate: Double?) {
        guard frameIndex == 0, let rate, rate > 0, rate < 1000 else { return }
        frameDuration = MediaTime(value: Int64((90_000 / rate).rounded()), timescale: 90_000)
    }
}
