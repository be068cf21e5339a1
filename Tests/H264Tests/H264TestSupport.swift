import Bitstream
import H264
import Foundation
import TestSupport

/// H.264-specific helpers of the tests: ffprobe's view of a stream, x264 encodes, access units and
/// display order. Media paths, tools and NAL unit splitting come from `TestSupport` and `Bitstream`.
enum H264TestSupport {
    // MARK: - ffprobe

    /// What ffprobe reports for the first video stream of a file.
    struct ProbedStream: Decodable {
        var width: Int
        var height: Int
        var profile: String?
        var level: Int?
        var nbReadPackets: String?
        var nbReadFrames: String?
        var sampleAspectRatio: String?
        var colorRange: String?
        var colorPrimaries: String?

        enum CodingKeys: String, CodingKey {
            case width, height, profile, level
            case sampleAspectRatio = "sample_aspect_ratio"
            case colorRange = "color_range"
            case colorPrimaries = "color_primaries"
            case nbReadPackets = "nb_read_packets"
            case nbReadFrames = "nb_read_frames"
        }
    }

    private struct ProbeOutput: Decodable {
        var streams: [ProbedStream]
    }

    /// Runs `ffprobe -show_streams` (and `-count_packets`) on a file.
    static func probe(_ path: String, countPackets: Bool = false, countFrames: Bool = false) throws -> ProbedStream {
        var arguments = ["-v", "error", "-select_streams", "v:0"]
        if countPackets { arguments.append("-count_packets") }
        if countFrames { arguments.append("-count_frames") }
        arguments += ["-show_entries", "stream=width,height,profile,level,nb_read_packets,nb_read_frames,sample_aspect_ratio,color_range,color_primaries", "-of", "json", path]
        let output = try ExternalTool.check("ffprobe", arguments).standardOutput
        let decoded = try JSONDecoder().decode(ProbeOutput.self, from: output)
        guard let stream = decoded.streams.first else { throw TestFailure("ffprobe found no video stream in \(path)") }
        return stream
    }

    // MARK: - x264

    /// Encodes a few frames with the x264 command-line tool and returns the Annex B stream.
    /// - Parameters:
    ///   - arguments: x264 options (profile, preset, slices …).
    ///   - size: the picture size; the source is ffmpeg's `testsrc` unless `y4m` is given.
    ///   - frames: how many frames.
    ///   - y4m: a y4m file to encode instead of a generated source.
    static func x264(_ arguments: [String], size: (Int, Int) = (176, 144), frames: Int = 8, y4m: String? = nil) throws -> (stream: [UInt8], path: String) {
        let directory = try ExternalTool.temporaryDirectory()
        var source = y4m ?? ""
        if y4m == nil {
            source = directory.appendingPathComponent("source.y4m").path
            try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=\(size.0)x\(size.1):rate=25",
                                              "-frames:v", "\(frames)", "-pix_fmt", "yuv420p", source])
        }
        let output = directory.appendingPathComponent("out.264").path
        try ExternalTool.check("x264", ["--quiet", "--frames", "\(frames)"] + arguments + ["-o", output, source])
        return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: output))), output)
    }
}

// MARK: - Access units

/// One access unit as the tests see it.
struct DetectedAccessUnit {
    /// The primary picture (nil for an access unit without one).
    var picture: H264Picture?
    /// The NAL unit types, in order.
    var nalUnitTypes: [H264NALUnitType] = []
    /// The slice headers of the primary and redundant pictures.
    var sliceHeaders: [H264SliceHeader] = []
    /// The NAL units themselves.
    var nalUnits: [ArraySlice<UInt8>] = []
}

extension H264TestSupport {
    /// Groups the NAL units of an Annex B stream into access units with ``H264AccessUnitDetector``.
    static func accessUnits(in stream: [UInt8]) throws -> [DetectedAccessUnit] {
        var detector = H264AccessUnitDetector()
        var units: [DetectedAccessUnit] = []
        for range in AnnexB.nalUnitRanges(in: stream) {
            let nal = stream[range]
            let result = try detector.process(nal)
            if result.startsAccessUnit || units.isEmpty { units.append(DetectedAccessUnit()) }
            units[units.count - 1].nalUnitTypes.append(result.nalUnitHeader.nalUnitType)
            units[units.count - 1].nalUnits.append(nal)
            if let slice = result.sliceHeader { units[units.count - 1].sliceHeaders.append(slice) }
            if let picture = result.picture { units[units.count - 1].picture = picture }
        }
        return units
    }

    /// The decoding-order indices of pictures, rearranged into display order: pictures are sorted by
    /// picture order count between pictures that reset the order (IDR, MMCO 5).
    static func displayOrder(of pictures: [H264Picture]) -> [Int] {
        displayOrder(of: pictures.map { ($0.pictureOrderCount.value, $0.resetsPictureOrder) })
    }

    /// The indices of (order count, resets order) entries rearranged into display order.
    static func displayOrder(of entries: [(count: Int, resets: Bool)]) -> [Int] {
        var order: [Int] = []
        var group: [(index: Int, count: Int)] = []
        for (index, entry) in entries.enumerated() {
            if entry.resets && !group.isEmpty {
                order += group.sorted { ($0.count, $0.index) < ($1.count, $1.index) }.map(\.index)
                group = []
            }
            group.append((index, entry.count))
        }
        order += group.sorted { ($0.count, $0.index) < ($1.count, $1.index) }.map(\.index)
        return order
    }
}
