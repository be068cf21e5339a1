#if FFmpeg
import CodecInterface
import H264
import HEVC
import MediaCore

/// Builds an encoder's ``FormatDescription`` from the parameter sets it writes in-band with every key
/// frame, the way VideoToolbox fills `CMVideoFormatDescription` from the encoder's SPS/PPS (VPS).
///
/// Width, height, profile and level come from the SPS (parsed by the `H264`/`HEVC` modules); a new
/// description is made only when a key frame carries parameter sets that differ from the current ones.
struct FFmpegFormatTracker: Sendable {
    /// The description frames carry now.
    private(set) var current: FormatDescription

    /// Creates a tracker whose first description comes from the configuration (no parameter sets yet).
    /// - Parameter configuration: the session's properties.
    init(configuration: CompressionConfiguration) {
        current = FormatDescription(codec: configuration.codec, width: configuration.width, height: configuration.height,
                                    profileLevel: configuration.profileLevel, parameterSets: [])
    }

    /// Looks at a key frame's NAL units and adopts its parameter sets if they are new. The type is
    /// `nal_unit_type` of the NAL unit header: ITU-T H.264 §7.3.1 (low 5 bits of the first byte: 7 SPS,
    /// 8 PPS), ITU-T H.265 §7.3.1.2 (bits 1–6 of the first byte: 32 VPS, 33 SPS, 34 PPS).
    /// - Parameters:
    ///   - annexB: the packet as the encoder wrote it (read in place; only parameter sets are copied).
    ///   - ranges: the NAL units in `annexB`.
    mutating func update(withKeyFrame annexB: UnsafeRawBufferPointer, nalUnits ranges: [Range<Int>]) {
        let order: [UInt8] = current.codec == .hevc ? [32, 33, 34] : [7, 8]  // VPS, SPS, PPS / SPS, PPS
        var found: [[[UInt8]]] = Array(repeating: [], count: order.count)
        for range in ranges where !range.isEmpty {
            let header = annexB[range.lowerBound]
            let type = current.codec == .hevc ? (header >> 1) & 0x3F : header & 0x1F
            if let slot = order.firstIndex(of: type) { found[slot].append([UInt8](annexB[range])) }
        }
        let sequenceSlot = current.codec == .hevc ? 1 : 0
        guard let sps = found[sequenceSlot].first, !found[order.count - 1].isEmpty else { return }
        let sets = found.flatMap { $0 }
        guard sets != current.parameterSets else { return }
        var description = current
        description.parameterSets = sets
        description.nalUnitLengthSize = 4
        if current.codec == .hevc {
            if let parsed = try? HEVCSequenceParameterSet(nalUnit: sps) {
                description.width = parsed.width
                description.height = parsed.height
                description.profileLevel = ProfileLevel(codec: .hevc, profileNamed: parsed.profileName ?? "unknown",
                                                        level: parsed.levelName)
            }
        } else if let parsed = try? H264SequenceParameterSet(nalUnit: sps) {
            description.width = parsed.width
            description.height = parsed.height
            description.profileLevel = ProfileLevel(codec: .h264, profileNamed: parsed.profileName, level: parsed.levelName)
        }
        current = description
    }
}
#endif
