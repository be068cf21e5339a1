import Bitstream
import Foundation
import H264
import TestSupport
import Testing

/// Streams the x264 command-line encoder generates, checked against ffprobe.
@Suite("x264-generated streams", .enabled(if: ExternalTool.isRunnable("x264", "ffmpeg", "ffprobe")))
struct H264X264Tests {
    /// A short real-content source (8 frames of Foreman, QCIF).
    static let foreman = MediaFiles.url("sequences/foreman_qcif8.y4m").path

    /// Parses every SPS/PPS and slice header, checks write-back and ffprobe agreement, and returns
    /// the access units.
    @discardableResult
    static func check(_ stream: [UInt8], path: String, frames: Int, countFrames: Bool = false) throws -> (H264SequenceParameterSet, [DetectedAccessUnit]) {
        var sps: H264SequenceParameterSet?
        var sets = H264ParameterSets()
        for nal in AnnexB.nalUnitRanges(in: stream).map({ stream[$0] }) {
            switch H264NALUnitType(headerByte: nal.first ?? 0) {
            case .sequenceParameterSet:
                let parsed = try H264SequenceParameterSet(nalUnit: nal)
                #expect(parsed.nalUnit() == Array(nal), "SPS round trip")
                sps = sps ?? parsed
                sets.insert(parsed)
            case .pictureParameterSet:
                let parsed = try H264PictureParameterSet(nalUnit: nal, parameterSets: sets)
                #expect(parsed.nalUnit() == Array(nal), "PPS round trip")
                sets.insert(parsed)
            default:
                break
            }
        }
        let first = try #require(sps)
        let probed = try H264TestSupport.probe(path, countPackets: true, countFrames: countFrames)
        #expect(first.width == probed.width)
        #expect(first.height == probed.height)
        #expect(first.profileName == probed.profile)
        #expect(Int(first.levelIDC) == probed.level)
        let units = try H264TestSupport.accessUnits(in: stream)
        #expect(units.count == frames, "one access unit per encoded frame")
        #expect(String(units.count) == probed.nbReadPackets)
        if countFrames { #expect(String(units.count) == probed.nbReadFrames, "access units vs ffprobe -count_frames") }
        return (first, units)
    }

    @Test("Baseline profile", .requiresMedia)
    func baseline() throws {
        let (stream, path) = try H264TestSupport.x264(["--profile", "baseline", "--preset", "ultrafast"], y4m: Self.foreman)
        let (sps, _) = try Self.check(stream, path: path, frames: 8, countFrames: true)
        #expect(sps.profileIDC == 66)
        #expect(sps.profileName == "Constrained Baseline")
    }

    @Test("Main profile", .requiresMedia)
    func main() throws {
        let (stream, path) = try H264TestSupport.x264(["--profile", "main", "--preset", "veryfast"], y4m: Self.foreman)
        let (sps, _) = try Self.check(stream, path: path, frames: 8, countFrames: true)
        #expect(sps.profileIDC == 77)
    }

    @Test("High profile with timing information", .requiresMedia)
    func high() throws {
        let (stream, path) = try H264TestSupport.x264(["--profile", "high", "--preset", "veryfast", "--fps", "30000/1001"],
                                                      y4m: Self.foreman)
        let (sps, _) = try Self.check(stream, path: path, frames: 8)
        #expect(sps.profileIDC == 100)
        // x264 writes time_scale = 2 · fps numerator, num_units_in_tick = fps denominator.
        let rate = try #require(sps.frameRate)
        #expect(abs(rate - 30000.0 / 1001.0) < 1e-9)
    }

    @Test("odd size 1918x1078 is cropped from 1920x1088")
    func oddSizeWithCropping() throws {
        let (stream, path) = try H264TestSupport.x264(["--preset", "ultrafast"], size: (1918, 1078), frames: 2)
        let (sps, _) = try Self.check(stream, path: path, frames: 2)
        #expect(sps.codedWidth == 1920)
        #expect(sps.codedHeight == 1088)
        #expect(sps.width == 1918)
        #expect(sps.height == 1078)
        // 4:2:0 frames: CropUnitX = CropUnitY = 2 (§7.4.2.1.1).
        #expect(sps.frameCropping == .init(left: 0, right: 1, top: 0, bottom: 5))
    }

    @Test("four slices per picture stay one access unit", .requiresMedia)
    func slices() throws {
        let (stream, path) = try H264TestSupport.x264(["--preset", "veryfast", "--slices", "4"], y4m: Self.foreman)
        let (_, units) = try Self.check(stream, path: path, frames: 8, countFrames: true)
        for unit in units {
            #expect(unit.sliceHeaders.count == 4)
            #expect(unit.sliceHeaders.first?.firstMbInSlice == 0)
        }
    }

    @Test("B-frames with a pyramid: display order from the picture order count equals ffprobe's", .requiresMedia)
    func bFrames() throws {
        let (stream, path) = try H264TestSupport.x264(["--preset", "veryfast", "--bframes", "3", "--b-adapt", "0",
                                                       "--b-pyramid", "normal"], y4m: Self.foreman)
        let (_, units) = try Self.check(stream, path: path, frames: 8, countFrames: true)
        #expect(units.contains { $0.picture?.firstSliceType == .b })
        try H264AccessUnitTests.expectDisplayOrderMatchesFFprobe(units: units, path: path)
    }

    @Test("interlaced (MBAFF) 176x144 is coded as 176x160 and cropped in units of 4 rows", .requiresMedia)
    func interlaced() throws {
        let (stream, path) = try H264TestSupport.x264(["--preset", "veryfast", "--tff"], y4m: Self.foreman)
        let (sps, _) = try Self.check(stream, path: path, frames: 8)
        #expect(!sps.frameMbsOnlyFlag)
        #expect(sps.mbAdaptiveFrameFieldFlag)
        #expect(sps.codedHeight == 160)
        #expect(sps.cropUnitY == 4)
    }

    @Test("High 10, High 4:2:2 and High 4:4:4 Predictive", .requiresMedia, arguments: [
        (["--output-depth", "10"], 110, 1, 2),
        (["--output-csp", "i422"], 122, 2, 1),
        (["--output-csp", "i444"], 244, 3, 1),
    ])
    func highBitDepthAndChroma(options: [String], profile: Int, chromaFormat: Int, cropUnitY: Int) throws {
        let (stream, path) = try H264TestSupport.x264(["--preset", "veryfast"] + options, y4m: Self.foreman)
        let (sps, _) = try Self.check(stream, path: path, frames: 8)
        #expect(Int(sps.profileIDC) == profile)
        #expect(Int(sps.chromaFormatIDC) == chromaFormat)
        #expect(sps.cropUnitY == cropUnitY)
    }

    @Test("an SPS we rewrite (Extended_SAR, full range, BT.709) is what ffprobe reads back", .requiresMedia)
    func rewrittenSPS() throws {
        let (stream, _) = try H264TestSupport.x264(["--preset", "ultrafast"], y4m: Self.foreman)
        var rewritten: [UInt8] = []
        for nal in AnnexB.nalUnitRanges(in: stream).map({ stream[$0] }) {
            var unit = Array(nal)
            if H264NALUnitType(headerByte: unit.first ?? 0) == .sequenceParameterSet {
                var sps = try H264SequenceParameterSet(nalUnit: unit)
                var vui = sps.vuiParameters ?? H264VUIParameters()
                vui.aspectRatio = .init(idc: 255, sarWidth: 4, sarHeight: 3)
                vui.videoSignalType = .init(videoFormat: 5, videoFullRangeFlag: true,
                                            colourDescription: .init(colourPrimaries: 1, transferCharacteristics: 1, matrixCoefficients: 1))
                sps.vuiParameters = vui
                unit = sps.nalUnit()
                #expect(try H264SequenceParameterSet(nalUnit: unit) == sps)
            }
            rewritten += [0, 0, 0, 1] + unit
        }
        let directory = try ExternalTool.temporaryDirectory()
        let path = directory.appendingPathComponent("rewritten.264").path
        try Data(rewritten).write(to: URL(fileURLWithPath: path))
        let probed = try H264TestSupport.probe(path, countFrames: true)
        #expect(probed.sampleAspectRatio == "4:3")
        #expect(probed.colorRange == "pc")
        #expect(probed.colorPrimaries == "bt709")
        #expect(probed.nbReadFrames == "8")
    }
}
