import Bitstream
import Foundation
import H264
@testable import NativeH264Decoder
import Testing
import TestSupport

/// The interlaced streams of the JVT FRExt conformance suite (field pictures, PAFF; MBAFF frames, some mixed with field
/// pictures), decoded by the native decoder and compared with the official decoded MD5s and per-frame MD5s, and without
/// the loop filter with ffmpeg's (`-skip_loop_filter all`: prediction and residual apart from the deblocking).
@Suite("Native H.264 decoder: interlaced conformance")
struct InterlacedConformanceTests {
    /// The streams whose SPS says frame_mbs_only_flag 0 (MANIFEST.md: "interlaced(field/PAFF)" and "MBAFF").
    static let fieldPictureStreams = ["HCAFF1_HHI.264", "freh6.264", "freh4.264", "Freh7_B.264", "freh10.264", "freh11.264"]
    static let mbaffStreams = ["freh5.264", "FREXT01_JVC_D.264", "FREXT02_JVC_C.264", "HCAMFF1_HHI.264",
                               "FRExt2_Panasonic.avc", "FRExt4_Panasonic.avc"]

    @Test("field-picture (PAFF) and MBAFF streams decode to the official MD5", .requiresMedia)
    func fieldPictures() throws {
        let official = try ConformanceTests.officialMD5s("JVT-FR-EXT_decoded_md5.tsv")
        var passed: [String] = [], lines: [String] = []
        for name in Self.fieldPictureStreams + Self.mbaffStreams {
            let result = DecoderRun.decode(try MediaFiles.bytes("h264-conformance/jvt-frext/\(name)"))
            if let error = result.errors.first {
                lines.append("\(name): refused or failed: \(error)")
                Issue.record("\(name): \(error)")
                continue
            }
            // Field order as `inspect` reports it (the stream's first picture), on the first frame out.
            let announced = H264FieldOrder.of(annexBStream: try MediaFiles.bytes("h264-conformance/jvt-frext/\(name)"))
            #expect(result.frames.first?.fieldOrder == announced, "\(name): \(String(describing: result.frames.first?.fieldOrder)) vs \(String(describing: announced))")
            if DecoderRun.md5(result.frames) == official[name] {
                passed.append(name)
                continue
            }
            let reference = FrameMD5.hashes((try? String(contentsOf: MediaFiles.url("references/framemd5/\(name).framemd5"), encoding: .utf8)) ?? "")
            let ours = result.frames.map(DecoderRun.md5)
            let firstBad = zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            lines.append("\(name): \(ours.count) frames (reference \(reference.count)), first differing frame \(firstBad.map(String.init) ?? "none")")
            Issue.record("\(name) differs")
        }
        print("jvt-frext interlaced: \(passed.count) of \(Self.fieldPictureStreams.count + Self.mbaffStreams.count) decode to the official MD5 (\(passed))")
        for line in lines { print("  \(line)") }
    }

    @Test("MBAFF streams without the loop filter (I, P and B slices, MBAFF and field pictures mixed): every frame equals ffmpeg's",
          .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func mbaffReconstruction() throws {
        var lines: [String] = []
        for name in Self.mbaffStreams {
            let path = MediaFiles.url("h264-conformance/jvt-frext/\(name)").path
            let bytes = try MediaFiles.bytes("h264-conformance/jvt-frext/\(name)")
            let decoder = NativeH264Decoder()
            decoder.skipsInterlacedDeblockingForTesting = true
            var frames: [NativeH264DecodedFrame] = []
            var errors: [NativeH264DecoderError] = []
            for (index, range) in AnnexB.nalUnitRanges(in: bytes).enumerated() {
                do { frames += try decoder.decode(nalUnit: bytes[range], timestamp: Int64(index)) } catch { errors.append(error) }
            }
            frames += decoder.flush()
            let output = try ExternalTool.check("ffmpeg", ["-hide_banner", "-v", "error", "-skip_loop_filter", "all", "-i", path,
                                                           "-pix_fmt", "yuv420p", "-f", "framemd5", "-"])
            let reference = FrameMD5.hashes(output.text)
            let ours = frames.map(DecoderRun.md5)
            let equal = zip(ours, reference).filter { $0.0 == $0.1 }.count
            let firstBad = zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            lines.append("\(name): \(ours.count) frames, \(equal) equal to ffmpeg's (reference \(reference.count))")
            #expect(errors.isEmpty, "\(name): \(errors.prefix(2))")
            #expect(!ours.isEmpty && ours == reference, "\(name): first differing frame \(String(describing: firstBad))")
            #expect(frames.allSatisfy { $0.concealedMacroblocks == 0 && $0.problems.isEmpty }, "\(name)")
        }
        for line in lines { print("  MBAFF no loop filter \(line)") }
    }

    @Test("damaged field-picture streams (NAL units dropped or cut short): no crash, frames out, damage reported", .requiresMedia)
    func damagedFieldPictures() throws {
        for name in ["HCAFF1_HHI.264", "freh6.264"] {
            let bytes = try MediaFiles.bytes("h264-conformance/jvt-frext/\(name)")
            let ranges = Array(AnnexB.nalUnitRanges(in: bytes))
            for damage in 0..<3 {
                let decoder = NativeH264Decoder()
                var frames: [NativeH264DecodedFrame] = []
                for (index, range) in ranges.enumerated() {
                    var nal = Array(bytes[range])
                    let isSlice = nal.first.map { $0 & 0x1F == 1 || $0 & 0x1F == 5 } ?? false
                    if isSlice && index % 5 == 3 {
                        if damage == 0 { continue }
                        if damage == 1 { nal = Array(nal.prefix(max(nal.count / 3, 2))) }
                        if damage == 2 { for i in stride(from: 8, to: nal.count, by: 97) { nal[i] ^= 0x5A } }
                    }
                    frames += (try? decoder.decode(nalUnit: nal, timestamp: Int64(index))) ?? []
                }
                frames += decoder.flush()
                #expect(!frames.isEmpty, "\(name) damage \(damage)")
                #expect(frames.contains { $0.concealedMacroblocks > 0 || !$0.problems.isEmpty }, "\(name) damage \(damage): nothing reported")
            }
        }
    }
}
