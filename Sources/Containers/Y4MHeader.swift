import MediaCore

/// The stream header of a YUV4MPEG2 (`.y4m`) file: `YUV4MPEG2` followed by space-separated
/// parameters, each a one-letter tag and a value, ended by `\n`:
///
/// ```
/// YUV4MPEG2 W352 H288 F30000:1001 Ip A128:117 C420jpeg XYSCSS=420JPEG
/// ```
///
/// `W` and `H` are required; `F` frame rate, `I` interlacing, `A` pixel aspect ratio, `C` colour
/// space and `X` extensions are optional. Unknown tags are ignored, as the format asks.
public struct Y4MHeader: Sendable, Hashable {
    /// The signature every stream starts with.
    public static let signature: [UInt8] = Array("YUV4MPEG2".utf8)
    /// The largest width or height accepted (frames up to 16384 × 16384, 384 MiB).
    public static let maximumDimension = 16384

    /// `W`: the width in luma samples.
    public var width: Int
    /// `H`: the height in luma samples.
    public var height: Int
    /// `F`: frames per second as a ratio (`30000:1001`), or `nil` when absent or `0:0` (unknown).
    public var frameRate: Y4MRatio?
    /// `I`: the scan type, or `nil` when absent.
    public var interlacing: Y4MInterlacing?
    /// `A`: the pixel aspect ratio, or `nil` when absent or `0:0` (unknown).
    public var pixelAspectRatio: Y4MRatio?
    /// `C`: the chroma layout; `420jpeg` when absent.
    public var colorSpace: Y4MColorSpace
    /// `XCOLORRANGE=FULL|LIMITED` (as FFmpeg writes it), or `nil` when absent.
    public var colorRange: ColorRange?
    /// The other `X` parameters, without the leading `X` (for example `YSCSS=420JPEG`); kept, not interpreted.
    public var extensions: [String]

    /// Creates a header.
    /// - Parameters:
    ///   - width: `W`, the width in luma samples.
    ///   - height: `H`, the height in luma samples.
    ///   - frameRate: `F`, frames per second as a ratio.
    ///   - interlacing: `I`; progressive by default.
    ///   - pixelAspectRatio: `A`, or `nil` to leave it out.
    ///   - colorSpace: `C`; `420jpeg` by default, as FFmpeg writes for yuv420p.
    ///   - colorRange: written as `XCOLORRANGE=` when given.
    ///   - extensions: further `X` parameters, without the `X`.
    public init(width: Int, height: Int, frameRate: Y4MRatio?, interlacing: Y4MInterlacing? = .progressive,
                pixelAspectRatio: Y4MRatio? = nil, colorSpace: Y4MColorSpace = .yuv420jpeg,
                colorRange: ColorRange? = nil, extensions: [String] = []) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.interlacing = interlacing
        self.pixelAspectRatio = pixelAspectRatio
        self.colorSpace = colorSpace
        self.colorRange = colorRange
        self.extensions = extensions
    }

    /// The bytes of one frame's samples (I420: `W·H` luma, then two chroma planes of ⌈W/2⌉·⌈H/2⌉).
    public var frameByteCount: Int {
        PackedFrameLayout(width: width, height: height, format: .i420)?.frameByteCount ?? 0
    }

    /// Parses the parameters of a stream header (YUV4MPEG2 stream header as documented by mjpegtools'
    /// `yuv4mpeg.h` and FFmpeg's `yuv4mpegdec.c`: `W`, `H`, `F`, `I`, `A`, `C`, `X`).
    /// - Parameters:
    ///   - line: the header line without its final `\n`, starting with `YUV4MPEG2`.
    ///   - byteOffset: the stream offset of the line's first byte, for errors.
    /// - Returns: the header.
    /// - Throws: ``Y4MError`` naming the parameter that is wrong and its byte offset.
    public static func parse(_ line: [UInt8], byteOffset: Int = 0) throws(Y4MError) -> Y4MHeader {
        guard line.starts(with: signature), line.count == signature.count || line[signature.count] == 0x20 else {
            throw .missingSignature
        }
        var width: Int?
        var height: Int?
        var header = Y4MHeader(width: 0, height: 0, frameRate: nil, interlacing: nil)
        for (tag, value, offset) in tokens(of: line, from: signature.count, byteOffset: byteOffset) {
            switch tag {
            case "W": width = try dimension(tag, value, offset)
            case "H": height = try dimension(tag, value, offset)
            case "F": header.frameRate = try ratio(tag, value, offset)
            case "A": header.pixelAspectRatio = try ratio(tag, value, offset)
            case "I":
                guard let mode = Y4MInterlacing(rawValue: value) else {
                    throw .invalidParameter(tag: tag, value: value, byteOffset: offset, reason: "expected p, t, b, m or ?")
                }
                header.interlacing = mode
            case "C":
                guard let space = Y4MColorSpace(rawValue: value) else {
                    throw .unsupportedColorSpace(value, byteOffset: offset)
                }
                header.colorSpace = space
            case "X":
                switch value {
                case "COLORRANGE=FULL": header.colorRange = .full
                case "COLORRANGE=LIMITED": header.colorRange = .video
                default: header.extensions.append(value)
                }
            default:
                continue  // unknown tags are ignored
            }
        }
        guard let width else { throw .missingParameter(tag: "W") }
        guard let height else { throw .missingParameter(tag: "H") }
        header.width = width
        header.height = height
        return header
    }

    /// The header line, `\n` included.
    /// - Returns: the bytes to put at the start of a `.y4m` file.
    public func serialized() -> [UInt8] {
        var text = "YUV4MPEG2 W\(width) H\(height)"
        if let frameRate { text += " F\(frameRate)" }
        if let interlacing { text += " I\(interlacing.rawValue)" }
        if let pixelAspectRatio { text += " A\(pixelAspectRatio)" }
        text += " C\(colorSpace.rawValue)"
        switch colorRange {
        case .full?: text += " XCOLORRANGE=FULL"
        case .video?: text += " XCOLORRANGE=LIMITED"
        case nil: break
        }
        for item in extensions { text += " X\(item)" }
        return Array((text + "\n").utf8)
    }

    /// The parameters after the signature: tag, value and stream offset of each.
    private static func tokens(of line: [UInt8], from start: Int, byteOffset: Int) -> [(Character, String, Int)] {
        var result: [(Character, String, Int)] = []
        var index = start
        while index < line.count {
            if line[index] == 0x20 { index += 1; continue }
            let tokenStart = index
            while index < line.count && line[index] != 0x20 { index += 1 }
            let tag = Character(Unicode.Scalar(line[tokenStart]))
            let value = String(decoding: line[(tokenStart + 1)..<index], as: UTF8.self)
            result.append((tag, value, byteOffset + tokenStart))
        }
        return result
    }

    /// A decimal number of at most nine digits (no sign, no spaces).
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    private static func dimension(_ tag: Character, _ value: String, _ offset: Int) throws(Y4MError) -> Int {
        guard let number = number(Substring(value)), (1...maximumDimension).contains(number) else {
            throw .invalidParameter(tag: tag, value: value, byteOffset: offset, reason: "expected an integer in 1...\(maximumDimension)")
        }
        return number
    }

    /// `n:d` with both terms positive, or `0:0` for unknown (`nil`).
    private static func ratio(_ tag: Character, _ value: String, _ offset: Int) throws(Y4MError) -> Y4MRatio? {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let numerator = number(parts[0]), let denominator = number(parts[1]) else {
            throw .invalidParameter(tag: tag, value: value, byteOffset: offset, reason: "expected two integers n:d")
        }
        if numerator == 0 && denominator == 0 { return nil }
        guard numerator > 0, denominator > 0 else {
            throw .invalidParameter(tag: tag, value: value, byteOffset: offset, reason: "both terms must be positive (or 0:0 for unknown)")
        }
        return Y4MRatio(numerator, denominator)
    }
}
