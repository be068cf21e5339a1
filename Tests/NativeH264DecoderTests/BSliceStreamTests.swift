import Bitstream
import Foundation
import H264
import NativeH264Decoder
import Testing
import TestSupport

/// B slices with CAVLC from x264 (Main profile, `--no-cabac --no-8x8dct`): B-pyramids, spatial and
/// temporal direct prediction, implicit and explicit weighted prediction, several references, slices,
/// odd sizes and open GOPs (x264 weights B pictures implicitly unless `--no-weightb`: some sets turn it off
/// for the default average). Every frame must hash like ffmpeg's (`-f framemd5`), in display order.
@Suite("Native H.264 decoder: x264 B-frame streams (CAVLC) against ffmpeg", .enabled(if: ExternalTool.isRunnable("ffmpeg", "x264")))
struct BSliceStreamTests {
    /// Encodes `frames` frames of a moving lavfi source (with an optional filter, e.g. a fade for weighted
    /// prediction) with x264 in Main profile with CAVLC and no 8x8 transform, plus the given options.
    static func x264MainStream(size: String, frames: Int = 24, filter: String? = nil, options: [String]) throws -> String {
        let directory = try ExternalTool.temporaryDirectory()
        let y4m = directory.appendingPathComponent("source.y4m").path
        var arguments = ["-hide_banner", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25"]
        if let filter { arguments += ["-vf", filter] }
        try ExternalTool.check("ffmpeg", arguments + ["-frames:v", "\(frames)", "-pix_fmt", "yuv420p", "-y", y4m])
        let out = directory.appendingPathComponent("x264.264").path
        try ExternalTool.check("x264", ["--quiet", "--profile", "main", "--no-cabac", "--no-8x8dct", "--threads", "1"] + options + ["-o", out, y4m])
        return out
    }

    /// (size, source filter, x264 options).
    static let optionSets: [(String, String?, [String])] = [
        ("176x144", nil, ["--bframes", "1", "--b-pyramid", "none", "--direct", "spatial", "--ref", "1", "--no-weightb"]),
        ("176x144", nil, ["--bframes", "2", "--b-pyramid", "none", "--direct", "temporal", "--ref", "2", "--no-weightb"]),
        ("176x144", nil, ["--bframes", "3", "--b-pyramid", "strict", "--direct", "spatial", "--ref", "3"]),
        ("176x144", nil, ["--bframes", "3", "--b-pyramid", "normal", "--direct", "temporal", "--ref", "4", "--b-adapt", "2"]),
        ("200x120", nil, ["--bframes", "3", "--b-pyramid", "normal", "--direct", "auto", "--weightb", "--ref", "3"]),
        ("176x144", "fade=in:0:20", ["--bframes", "2", "--weightb", "--weightp", "1", "--ref", "5", "--slices", "3"]),
        ("200x120", "fade=in:0:20", ["--bframes", "3", "--b-pyramid", "normal", "--weightb", "--weightp", "2", "--ref", "3",
                                     "--direct", "temporal"]),
        ("176x144", nil, ["--bframes", "3", "--b-pyramid", "normal", "--open-gop", "--keyint", "12", "--ref", "2", "--no-weightb"]),
        ("98x66", nil, ["--bframes", "2", "--direct", "temporal", "--weightb", "--keyint", "8", "--ref", "2"]),
        ("320x240", nil, ["--bframes", "3", "--b-pyramid", "normal", "--direct", "spatial", "--partitions", "all", "--subme", "7",
                          "--slices", "3", "--qp", "35"]),
        ("176x144", nil, ["--bframes", "3", "--b-pyramid", "strict", "--ref", "1", "--direct", "temporal", "--partitions", "all",
                          "--no-deblock", "--no-weightb"]),
        ("176x144", "fade=out:8:16", ["--bframes", "2", "--b-adapt", "2", "--weightp", "2", "--weightb", "--ref", "4",
                                      "--direct", "auto", "--deblock", "-2:1", "--crf", "20"]),
        ("200x120", nil, ["--bframes", "3", "--b-adapt", "2", "--b-pyramid", "normal", "--direct", "spatial", "--ref", "5",
                          "--slices", "3", "--partitions", "all", "--me", "umh", "--subme", "8"]),
        ("176x144", "fade=in:0:12", ["--bframes", "3", "--b-pyramid", "strict", "--weightp", "2", "--weightb", "--direct", "temporal",
                                     "--keyint", "6", "--min-keyint", "1", "--ref", "3", "--chroma-qp-offset", "-3"]),
        ("112x64", nil, ["--bframes", "1", "--direct", "auto", "--ref", "2", "--open-gop", "--keyint", "10", "--qp", "20", "--no-weightb"]),
    ]

    @Test("x264 --profile main --no-cabac with B-frames: every frame equals ffmpeg's, in display order", arguments: optionSets.indices)
    func x264BFrames(_ index: Int) throws {
        let (size, filter, options) = Self.optionSets[index]
        let path = try Self.x264MainStream(size: size, filter: filter, options: options)
        let reference = try PeerStreamTests.ffmpegHashes(path)
        let result = DecoderRun.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(result.errors.isEmpty, "\(options): \(result.errors)")
        let ours = result.frames.map(DecoderRun.md5)
        let firstBad = zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(ours.count == 24 && ours == reference, "\(size) \(options): \(ours.count) frames; first differing \(String(describing: firstBad))")
        #expect(result.frames.allSatisfy { $0.concealedMacroblocks == 0 && $0.problems.isEmpty })
        // Display order: each access unit comes out once (its timestamp), the picture order counts rising between IDRs.
        #expect(Set(result.frames.map(\.timestamp)).count == result.frames.count)
    }

    @Test("openh264-extra's Cisco_Men_whisper CAVLC B-frame stream equals ffmpeg's", .requiresMedia)
    func ciscoBFrames() throws {
        let path = "h264-conformance/openh264-extra/Cisco_Men_whisper_640x320_CAVLC_Bframe_9.264"
        let reference = try PeerStreamTests.ffmpegHashes(MediaFiles.url(path).path)
        let result = DecoderRun.decode(try MediaFiles.bytes(path))
        #expect(result.errors.isEmpty, "\(result.errors)")
        let ours = result.frames.map(DecoderRun.md5)
        #expect(!ours.isEmpty && ours == reference, "\(ours.count) frames of \(reference.count)")
    }

    /// An x264 stream whose B slices are rewritten to explicit weighted bi-prediction (`weighted_bipred_idc` 1,
    /// §7.3.3.2): the PPS says so and each B slice header gets a `pred_weight_table( )` with weights and offsets of
    /// its own (the slice data is kept bit for bit). x264 writes no such stream; the B pictures are not references
    /// (no pyramid), so only they change, and ffmpeg's decoding of the rewritten stream is the oracle.
    static func explicitBStream() throws -> (original: String, rewritten: [UInt8]) {
        let path = try x264MainStream(size: "176x144", options: ["--bframes", "2", "--b-pyramid", "none", "--ref", "2", "--weightb",
                                                                  "--direct", "spatial"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var original = H264ParameterSets(), output: [UInt8] = [], bSlices = 0
        for range in AnnexB.nalUnitRanges(in: bytes) {
            var unit = Array(bytes[range])
            switch unit[0] & 0x1F {
            case 7:
                original.insert(try H264SequenceParameterSet(nalUnit: unit))
            case 8:
                let pps = try H264PictureParameterSet(nalUnit: unit, parameterSets: original)
                original.insert(pps)
                var explicit = pps
                explicit.weightedBipredIDC = 1
                unit = explicit.nalUnit()
            case 1:
                var header = try H264SliceHeader(nalUnit: unit, parameterSets: original)
                guard header.sliceType == .b, let pps = original.pictureParameterSet(id: header.picParameterSetID),
                      let sps = original.sequenceParameterSet(id: pps.seqParameterSetID) else { break }
                bSlices += 1
                let counts = (Int(header.numRefIdxL0ActiveMinus1) + 1, Int(header.numRefIdxL1ActiveMinus1) + 1)
                func entry(_ list: Int, _ index: Int) -> H264PredWeightTable.Entry {
                    let seed = Int32(list * 7 + index * 3 + bSlices % 5)
                    return .init(luma: index == 1 ? nil : .init(weight: 24 + seed * 3, offset: seed - 6),
                                 chroma: [.init(weight: 40 - seed, offset: 3 - seed), .init(weight: 28 + seed, offset: seed % 4)])
                }
                header.predWeightTable = H264PredWeightTable(lumaLog2WeightDenom: 5, chromaLog2WeightDenom: 5,
                                                             list0: (0..<counts.0).map { entry(0, $0) }, list1: (0..<counts.1).map { entry(1, $0) })
                var explicit = pps
                explicit.weightedBipredIDC = 1
                let rbsp = EmulationPrevention.rbsp(fromEBSP: unit.dropFirst())
                var last = rbsp.count - 1
                while last > 0 && rbsp[last] == 0 { last -= 1 }
                let dataEnd = last * 8 + 7 - rbsp[last].trailingZeroBitCount
                var writer = BitWriter()
                header.write(to: &writer, sequenceParameterSet: sps, pictureParameterSet: explicit)
                for bit in header.bitCount..<dataEnd { writer.flag(rbsp[bit / 8] >> (7 - bit % 8) & 1 == 1) }
                writer.rbspTrailingBits()
                unit = [unit[0]] + EmulationPrevention.ebsp(fromRBSP: writer.bytes)
            default:
                break
            }
            output += [0, 0, 0, 1] + unit
        }
        #expect(bSlices > 4)
        return (path, output)
    }

    @Test("explicit weighted bi-prediction (weighted_bipred_idc 1) equals ffmpeg's on a rewritten x264 stream")
    func explicitBiPrediction() throws {
        let (original, stream) = try Self.explicitBStream()
        let path = try ExternalTool.temporaryDirectory().appendingPathComponent("explicit-b.264").path
        try Data(stream).write(to: URL(fileURLWithPath: path))
        let reference = try PeerStreamTests.ffmpegHashes(path)
        // The weights take effect: the B pictures (and only they) differ from the original stream's.
        let unweighted = try PeerStreamTests.ffmpegHashes(original)
        let changed = zip(reference, unweighted).filter { $0 != $1 }.count
        #expect(changed >= 8 && changed <= 16, "\(changed) pictures changed by the weights")
        let result = DecoderRun.decode(stream)
        #expect(result.errors.isEmpty, "\(result.errors)")
        let ours = result.frames.map(DecoderRun.md5)
        let firstBad = zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(ours.count == 24 && ours == reference, "\(ours.count) frames; first differing \(String(describing: firstBad))")
    }

    @Test("direct prediction per 4x4 block (direct_8x8_inference_flag 0) equals ffmpeg's on x264 streams with that SPS flag cleared",
          arguments: ["spatial", "temporal"])
    func directWithoutInference(_ mode: String) throws {
        // The flag changes no syntax, only which co-located blocks direct prediction reads (§8.4.1.2.1): the stream
        // stays decodable, and ffmpeg's decoding of it is the oracle.
        let path = try Self.x264MainStream(size: "176x144", options: ["--bframes", "3", "--b-pyramid", "normal", "--direct", mode,
                                                                       "--ref", "3", "--partitions", "all", "--no-weightb"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var stream: [UInt8] = []
        for range in AnnexB.nalUnitRanges(in: bytes) {
            var unit = Array(bytes[range])
            if unit[0] & 0x1F == 7 {
                var sps = try H264SequenceParameterSet(nalUnit: unit)
                #expect(sps.direct8x8InferenceFlag)
                sps.direct8x8InferenceFlag = false
                unit = sps.nalUnit()
            }
            stream += [0, 0, 0, 1] + unit
        }
        let rewritten = try ExternalTool.temporaryDirectory().appendingPathComponent("no-inference.264").path
        try Data(stream).write(to: URL(fileURLWithPath: rewritten))
        let reference = try PeerStreamTests.ffmpegHashes(rewritten)
        #expect(reference != (try PeerStreamTests.ffmpegHashes(path)), "clearing the flag changes the pictures")
        let result = DecoderRun.decode(stream)
        #expect(result.errors.isEmpty, "\(result.errors)")
        let ours = result.frames.map(DecoderRun.md5)
        let firstBad = zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(ours.count == 24 && ours == reference, "\(mode): \(ours.count) frames; first differing \(String(describing: firstBad))")
    }

    @Test("B-pyramid pictures come out in display order with their own pts (x264's Matroska pts the oracle)",
          arguments: ["normal", "strict"])
    func displayOrderTimestamps(_ pyramid: String) throws {
        let options = ["--bframes", "3", "--b-pyramid", pyramid, "--ref", "3", "--keyint", "10", "--open-gop"]
        let path = try Self.x264MainStream(size: "176x144", options: options)
        // The same encode (one thread: deterministic) into Matroska, whose packets carry each access unit's pts.
        let mkv = path + ".mkv"
        try ExternalTool.check("x264", ["--quiet", "--profile", "main", "--no-cabac", "--no-8x8dct", "--threads", "1"] + options
                                   + ["-o", mkv, URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("source.y4m").path])
        let pts = try ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "packet=pts", "-of", "csv=p=0", mkv]).text
            .split(whereSeparator: \.isNewline).compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        #expect(pts.count == 24)
        // Access units in decoding order: a slice with first_mb_in_slice 0 (its first RBSP bit 1) starts one;
        // the NAL units before it (parameter sets, SEI) belong to it.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let decoder = NativeH264Decoder()
        var frames: [NativeH264DecodedFrame] = [], pending: [[UInt8]] = [], unit = -1
        for range in AnnexB.nalUnitRanges(in: bytes) {
            let nal = Array(bytes[range])
            let type = nal[0] & 0x1F
            pending.append(nal)
            guard type == 1 || type == 5 else { continue }
            if nal.count > 1 && nal[1] & 0x80 != 0 { unit += 1 }
            let timestamp = unit >= 0 && unit < pts.count ? pts[unit] : -1
            for queued in pending { frames += try decoder.decode(nalUnit: queued, timestamp: timestamp) }
            pending.removeAll()
        }
        frames += decoder.flush()
        #expect(unit + 1 == pts.count)
        #expect(frames.map(\.timestamp) == pts.sorted(), "\(frames.map(\.timestamp))")
    }
}
