#if FFmpeg
import Codecs
import FFmpegEngine
import Foundation
import MediaCore
import Testing
import TestSupport

/// Shared helpers of the FFmpeg engine tests: engines, synthetic pictures, Annex B / ADTS writing,
/// access-unit splitting of real streams, and the ffprobe/ffmpeg oracles.
enum FFmpegTestSupport {
    /// Whether the oracle tests run: ffmpeg and ffprobe are installed, or CI=true (then a missing tool fails).
    static let toolsAvailable = ExternalTool.isRunnable("ffmpeg", "ffprobe")

    /// The probed engine with this name.
    static func engine(_ name: String) throws -> any CodecEngine {
        let engines = FFmpegEngines.probe()
        return try #require(engines.first { $0.name == name }, "engine \(name) not found in \(engines.map(\.name))")
    }

    // MARK: - Synthetic video

    /// A noise texture larger than the picture; panning across it gives the encoder motion and detail.
    struct Texture {
        let width: Int
        let height: Int
        let luma: [UInt8]
        let cb: [UInt8]
        let cr: [UInt8]

        init(width: Int = 1024, height: Int = 768) {
            self.width = width
            self.height = height
            var state: UInt32 = 0x1234_5678
            func next() -> UInt8 {
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            }
            var luma = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width {
                    let base = 40 + (x * 150 / width) + ((y / 48) % 2) * 30
                    luma[y * width + x] = UInt8(min(235, base + Int(next() % 24)))
                }
            }
            let chromaWidth = width / 2, chromaHeight = height / 2
            var cb = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
            var cr = cb
            for y in 0..<chromaHeight {
                for x in 0..<chromaWidth {
                    cb[y * chromaWidth + x] = UInt8(60 + (x * 120 / chromaWidth))
                    cr[y * chromaWidth + x] = UInt8(190 - (y * 120 / chromaHeight))
                }
            }
            self.luma = luma
            self.cb = cb
            self.cr = cr
        }
    }

    static let texture = Texture()

    /// Frame `index` of a panning picture: luma, U and V as packed planes.
    static func planes(index: Int, width: Int, height: Int) -> (y: [UInt8], u: [UInt8], v: [UInt8]) {
        let texture = texture
        let dx = (index * 3) % (texture.width - width), dy = (index * 2) % (texture.height - height)
        var y = [UInt8](repeating: 0, count: width * height)
        for row in 0..<height {
            let source = (row + dy) * texture.width + dx
            y.replaceSubrange(row * width..<(row + 1) * width, with: texture.luma[source..<(source + width)])
        }
        // A bright box moving across the picture.
        let boxX = (index * 5) % max(1, width - 64), boxY = (index * 3) % max(1, height - 64)
        for row in boxY..<(boxY + 64) where row < height {
            for column in boxX..<(boxX + 64) where column < width { y[row * width + column] = 220 }
        }
        let chromaWidth = width / 2, chromaHeight = height / 2
        var u = [UInt8](repeating: 0, count: chromaWidth * chromaHeight), v = u
        let cdx = dx / 2, cdy = dy / 2, textureChroma = texture.width / 2
        for row in 0..<chromaHeight {
            let source = (row + cdy) * textureChroma + cdx
            u.replaceSubrange(row * chromaWidth..<(row + 1) * chromaWidth, with: texture.cb[source..<(source + chromaWidth)])
            v.replaceSubrange(row * chromaWidth..<(row + 1) * chromaWidth, with: texture.cr[source..<(source + chromaWidth)])
        }
        return (y, u, v)
    }

    /// Frame `index` of the panning picture in any layout, with `padding` extra bytes per row.
    static func picture(index: Int, width: Int, height: Int, format: PixelFormat = .i420, padding: Int = 0) throws -> PixelBuffer {
        let (y, u, v) = planes(index: index, width: width, height: height)
        let chromaWidth = width / 2, chromaHeight = height / 2
        func padded(_ packed: [UInt8], rowLength: Int, rows: Int) -> PixelBuffer.Plane {
            let stride = rowLength + padding
            var bytes = [UInt8](repeating: 0xEE, count: stride * rows)
            for row in 0..<rows {
                bytes.replaceSubrange(row * stride..<(row * stride + rowLength), with: packed[(row * rowLength)..<((row + 1) * rowLength)])
            }
            return PixelBuffer.Plane(bytes: bytes, bytesPerRow: stride, rowLength: rowLength, rowCount: rows)
        }
        let luma = padded(y, rowLength: width, rows: height)
        switch format {
        case .i420, .yv12:
            let uPlane = padded(u, rowLength: chromaWidth, rows: chromaHeight)
            let vPlane = padded(v, rowLength: chromaWidth, rows: chromaHeight)
            return try PixelBuffer(width: width, height: height, format: format,
                                   planes: format == .i420 ? [luma, uPlane, vPlane] : [luma, vPlane, uPlane])
        case .nv12, .nv21:
            var pairs = [UInt8](repeating: 0, count: 2 * chromaWidth * chromaHeight)
            for index in 0..<(chromaWidth * chromaHeight) {
                pairs[2 * index] = format == .nv12 ? u[index] : v[index]
                pairs[2 * index + 1] = format == .nv12 ? v[index] : u[index]
            }
            return try PixelBuffer(width: width, height: height, format: format,
                                   planes: [luma, padded(pairs, rowLength: 2 * chromaWidth, rows: chromaHeight)])
        }
    }

    /// Encodes `count` panning pictures at `fps`, pts = index × 3000/90000 s-style ticks of `timescale`.
    static func encode(_ configuration: CompressionConfiguration, engine: String, count: Int,
                       format: PixelFormat = .i420, forceKeyFrameAt: Set<Int> = [],
                       timescale: Int32 = 90000) throws -> [EncodedFrame] {
        let encoder = try FFmpegTestSupport.engine(engine).makeVideoEncoder(configuration)
        let tick = Int64((Double(timescale) / configuration.expectedFrameRate).rounded())
        var frames: [EncodedFrame] = []
        for index in 0..<count {
            let picture = try picture(index: index, width: configuration.width, height: configuration.height, format: format)
            frames += try encoder.encode(picture, pts: MediaTime(value: Int64(index) * tick, timescale: timescale),
                                         duration: MediaTime(value: tick, timescale: timescale),
                                         forceKeyFrame: forceKeyFrameAt.contains(index))
        }
        frames += try encoder.flush()
        return frames
    }

    // MARK: - Annex B

    /// The frames as an Annex B byte stream (4-byte start code before every NAL unit).
    static func annexB(_ frames: [EncodedFrame]) -> [UInt8] {
        var bytes: [UInt8] = []
        for frame in frames {
            for range in frame.nalUnitRanges {
                bytes += [0, 0, 0, 1]
                bytes += frame.data[range]
            }
        }
        return bytes
    }

    /// The NAL units of an Annex B stream (start codes and trailing zero bytes removed).
    static func nalUnits(inAnnexB bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var starts: [Int] = []  // first byte after each start code
        var index = 2
        while index < bytes.count {
            if bytes[index] == 1, bytes[index - 1] == 0, bytes[index - 2] == 0 {
                starts.append(index + 1)
                index += 3
            } else {
                index += 1
            }
        }
        var units: [ArraySlice<UInt8>] = []
        for (number, start) in starts.enumerated() {
            var end = number + 1 < starts.count ? starts[number + 1] - 3 : bytes.count
            while end > start, bytes[end - 1] == 0 { end -= 1 }
            if end > start { units.append(bytes[start..<end]) }
        }
        return units
    }

    /// Splits an Annex B stream into access units (ITU-T H.264 §7.4.1.2.3, H.265 §7.4.2.4.4): a new one
    /// starts at the first VCL NAL unit of a picture (first_mb_in_slice = 0 /
    /// first_slice_segment_in_pic_flag = 1) or at a parameter set, SEI or delimiter after a picture.
    static func accessUnits(inAnnexB bytes: [UInt8], codec: CodecType) -> [[ArraySlice<UInt8>]] {
        var units: [[ArraySlice<UInt8>]] = []
        var current: [ArraySlice<UInt8>] = []
        var hasPicture = false
        for nal in nalUnits(inAnnexB: bytes) {
            let first = nal[nal.startIndex]
            let startsPicture: Bool
            let isVCL: Bool
            let isPrefix: Bool
            if codec == .hevc {
                let type = (first >> 1) & 0x3F
                isVCL = type < 32
                startsPicture = isVCL && nal.count > 2 && nal[nal.startIndex + 2] & 0x80 != 0
                isPrefix = (32...35).contains(type) || type == 39 || (41...44).contains(type) || (48...55).contains(type)
            } else {
                let type = first & 0x1F
                isVCL = type == 1 || type == 5
                startsPicture = isVCL && nal.count > 1 && nal[nal.startIndex + 1] & 0x80 != 0
                isPrefix = [6, 7, 8, 9, 14, 15, 16, 17, 18].contains(type)
            }
            if hasPicture && (startsPicture || isPrefix) {
                units.append(current)
                current = []
                hasPicture = false
            }
            current.append(nal)
            if isVCL { hasPicture = true }
        }
        if !current.isEmpty { units.append(current) }
        return units
    }

    /// Access units of an Annex B file as AVCC frames (pts = index / 25 s), ready for a decoder.
    static func encodedFrames(annexB bytes: [UInt8], codec: CodecType) -> [EncodedFrame] {
        let format = FormatDescription(codec: codec, width: 0, height: 0,
                                   profileLevel: ProfileLevel(codec: codec, profileNamed: "", level: nil), parameterSets: [])
        return accessUnits(inAnnexB: bytes, codec: codec).enumerated().map { index, unit in
            var data: [UInt8] = []
            for nal in unit {
                let size = nal.count
                data += [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                data += nal
            }
            let pts = MediaTime(value: Int64(index), timescale: 25)
            return EncodedFrame(data: data, isKeyFrame: false, pts: pts, dts: pts,
                                duration: MediaTime(value: 1, timescale: 25), format: format)
        }
    }

    // MARK: - Files and oracles

    /// Writes bytes into a fresh temporary directory.
    static func write(_ bytes: [UInt8], name: String) throws -> URL {
        let url = try ExternalTool.temporaryDirectory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// `ffprobe -show_entries stream=…` of the first stream of `kind` ("v" or "a"), as key → value.
    static func streamInfo(_ url: URL, kind: String = "v", entries: String) throws -> [String: String] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "\(kind):0",
                                                        "-show_entries", "stream=\(entries)", "-of", "default=nw=1", url.path])
        var info: [String: String] = [:]
        for line in output.text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { info[String(parts[0])] = String(parts[1]) }
        }
        return info
    }

    /// `ffprobe -show_frames`: (key_frame, pict_type) of every decoded picture, in display order.
    static func frameTypes(_ url: URL) throws -> [(key: Bool, type: String)] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                        "frame=key_frame,pict_type", "-of", "csv=p=0", url.path])
        return output.text.split(separator: "\n").map { line in
            let fields = line.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            return (fields.first == "1", fields.count > 1 ? fields[1] : "")
        }
    }

    /// Runs `ffmpeg -v error -err_detect explode -i url -f null -` and returns its complaints (empty when clean).
    static func decodeErrors(_ url: URL) throws -> String {
        let output = try ExternalTool.run("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", url.path, "-f", "null", "-"])
        return output.status == 0 ? output.standardError : "exit \(output.status): \(output.standardError)"
    }

    /// The MD5 column of an `ffmpeg -f framemd5` run on `arguments` (input options and input).
    static func frameMD5s(_ arguments: [String]) throws -> [String] {
        let output = try ExternalTool.check("ffmpeg", ["-v", "error"] + arguments + ["-f", "framemd5", "-"])
        return output.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            line.split(separator: ",").last.map { String($0).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The framemd5 hashes ffmpeg computes for our decoded pictures (written as raw I420).
    static func frameMD5s(of pictures: [PixelBuffer]) throws -> [String] {
        guard let first = pictures.first else { return [] }
        var raw: [UInt8] = []
        for picture in pictures { raw += picture.packedBytes }
        let url = try write(raw, name: "decoded.yuv")
        return try frameMD5s(["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(first.width)x\(first.height)", "-i", url.path])
    }
}
#endif
