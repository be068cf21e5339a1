import AAC
import Containers
import Foundation
import H264
import HEVC
import MediaCore
import Testing
import TestSupport

/// RFC 6381 codec strings against the `CODECS` attribute FFmpeg's own HLS muxer writes for the same
/// stream (read from its init segment's avcC/hvcC/esds).
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct CodecStringTests {
    /// Encodes with FFmpeg's HLS muxer and returns its multivariant CODECS values and the init segment.
    private func ffmpegHLS(_ ffmpeg: String, _ encoder: [String], audio: Bool = false) throws -> (codecs: [String], initSegment: [UInt8]) {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25"]
        if audio { arguments += ["-f", "lavfi", "-i", "sine=r=48000", "-c:a", "aac"] }
        arguments += ["-t", "1"] + encoder + ["-f", "hls", "-hls_segment_type", "fmp4", "-master_pl_name", "m.m3u8",
                                              folder.appendingPathComponent("s.m3u8").path]
        try ExternalTool.check(ffmpeg, arguments)
        let master = try String(contentsOf: folder.appendingPathComponent("m.m3u8"), encoding: .utf8)
        guard let range = master.range(of: "CODECS=\"") , let end = master[range.upperBound...].firstIndex(of: "\"") else {
            throw TestFailure("no CODECS in \(master)")
        }
        let codecs = master[range.upperBound..<end].split(separator: ",").map(String.init)
        return (codecs, [UInt8](try Data(contentsOf: folder.appendingPathComponent("init.mp4"))))
    }

    @Test("avc1.PPCCLL from the SPS equals FFmpeg's, for Baseline, Main, High and High 4:2:2 at several levels",
          arguments: [["-profile:v", "baseline", "-level", "3.0"], ["-profile:v", "main", "-level", "3.1"],
                      ["-profile:v", "high", "-level", "4.1"], ["-profile:v", "high422", "-pix_fmt", "yuv422p"]])
    func h264(_ options: [String]) throws {
        // FFmpeg 5.1 writes CODECS only when the stream has audio too.
        let (codecs, initSegment) = try ffmpegHLS("ffmpeg", ["-c:v", "libx264"] + options, audio: true)
        guard let avcC = MP4Boxes.payloads(of: "avcC", in: initSegment).first else { throw TestFailure("no avcC") }
        let record = try AVCDecoderConfigurationRecord(bytes: avcC)
        let format = FormatDescription(codec: .h264, width: 320, height: 240, profileLevel: .h264High,
                                       parameterSets: record.sequenceParameterSets + record.pictureParameterSets)
        let ours = try CodecString.video(format)
        #expect(ours.lowercased() == codecs.first?.lowercased())
        #expect(ours.hasPrefix("avc1."))
        #expect(try CodecString.video(format, parameterSetsInBand: true).hasPrefix("avc3."))
    }

    @Test("mp4a.40.2 for AAC-LC from the AudioSpecificConfig equals FFmpeg's")
    func aac() throws {
        let (codecs, initSegment) = try ffmpegHLS("ffmpeg", ["-c:v", "libx264"], audio: true)
        guard let esds = MP4Boxes.payloads(of: "esds", in: initSegment).first, let config = Self.decoderSpecificInfo(inESDS: esds) else {
            throw TestFailure("no DecoderSpecificInfo")
        }
        let format = AudioFormatDescription(codec: .aac, sampleRate: 48_000, channelCount: 1, profile: "LC", audioSpecificConfig: config)
        #expect(codecs.count == 2)
        #expect(try CodecString.audio(format) == codecs.last)
    }

    @Test("hvc1.… from the HEVC SPS equals the modern FFmpeg's, Main and Main 10, Main and High tier",
          .enabled(if: ModernFFmpeg.isRunnable),
          arguments: [["-x265-params", "log-level=error"], ["-pix_fmt", "yuv420p10le", "-x265-params", "log-level=error"],
                      ["-x265-params", "log-level=error:level-idc=5.1:high-tier=1"]])
    func hevc(_ options: [String]) throws {
        let (codecs, initSegment) = try ffmpegHLS(try ModernFFmpeg.path(), ["-c:v", "libx265", "-tag:v", "hvc1"] + options)
        guard let hvcC = MP4Boxes.payloads(of: "hvcC", in: initSegment).first else { throw TestFailure("no hvcC") }
        let record = try HEVCDecoderConfigurationRecord(bytes: hvcC)
        let format = FormatDescription(codec: .hevc, width: 320, height: 240, profileLevel: .hevcMain,
                                       parameterSets: record.nalUnits(ofType: .vps) + record.nalUnits(ofType: .sps) + record.nalUnits(ofType: .pps))
        let ours = try CodecString.video(format)
        #expect(ours.lowercased() == codecs.first?.lowercased())
        #expect(try CodecString.video(format, parameterSetsInBand: true).hasPrefix("hev1."))
    }

    @Test("A format without an SPS is a typed error")
    func missingSPS() {
        let format = FormatDescription(codec: .h264, width: 2, height: 2, profileLevel: .h264High, parameterSets: [[0x68, 0xCE]])
        #expect(throws: HLSError.self) { try CodecString.video(format) }
        let hevc = FormatDescription(codec: .hevc, width: 2, height: 2, profileLevel: .hevcMain, parameterSets: [[0x42, 0x01, 0xFF]])
        #expect(throws: HLSError.self) { try CodecString.video(hevc) }
        #expect(throws: HLSError.self) {
            try CodecString.audio(AudioFormatDescription(codec: .aac, sampleRate: 48_000, channelCount: 2, profile: "LC", audioSpecificConfig: []))
        }
    }

    /// The payload of the DecoderSpecificInfo descriptor (tag 5) inside an `esds` payload.
    static func decoderSpecificInfo(inESDS esds: [UInt8]) -> [UInt8]? {
        var index = 4 // version and flags
        while index < esds.count {
            let tag = esds[index]
            index += 1
            var length = 0
            for _ in 0..<4 where index < esds.count {
                let byte = esds[index]
                index += 1
                length = length << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            switch tag {
            case 0x03: index += 3 // ES_ID, flags: children follow
            case 0x04: index += 13 // objectTypeIndication … avgBitrate: children follow
            case 0x05: return index + length <= esds.count ? Array(esds[index..<(index + length)]) : nil
            default: index += length
            }
        }
        return nil
    }
}
