import Bitstream
import MediaCore

/// Turns a video stream's FLV tag bodies back into an Annex B elementary stream the way FFmpeg's
/// `h264_mp4toannexb` and `hevc_mp4toannexb` bitstream filters do, so that what we extract from an FLV
/// equals `ffmpeg -i x.flv -c copy -bsf:v h264_mp4toannexb -f h264` byte for byte:
///
/// - H.264: the record's SPS and PPS (4-byte start codes) go before the first IDR slice of a frame that
///   carries neither itself (only the PPS when it carries an SPS alone); a frame's first NAL unit and every
///   SPS/PPS get a 4-byte start code, the others 3 (H.264 Annex B.1).
/// - H.265: every NAL unit of the record goes before the first IRAP NAL unit of each frame; every start
///   code has 4 bytes.
///
/// ```swift
/// var framer = FLVAnnexBFramer()
/// for body in videoBodies {  // FLVVideoTagBody values, from an FLV file or RTMP messages
///     try framer.append(body, to: &annexB)
/// }
/// ```
public struct FLVAnnexBFramer: Sendable {
    /// The format of the last sequence start, `nil` before the first.
    public private(set) var format: FormatDescription?
    private var configuration: [[UInt8]] = []
    private var pictureParameterSets: [[UInt8]] = []
    private var isHEVC = false
    private var lengthSize = 4
    /// FFmpeg's `new_idr`: the next IDR slice starts a new IDR picture.
    private var newIDR = true

    /// Creates a framer that waits for a sequence start.
    public init() {}

    /// Takes a sequence start (new parameter sets) or appends a coded frame's NAL units; sequence ends,
    /// metadata and command frames add nothing.
    /// - Parameters:
    ///   - body: the tag body.
    ///   - buffer: where the Annex B bytes go.
    /// - Returns: whether anything was appended.
    /// - Throws: ``FLVError`` for a sequence start that does not parse, coded frames before any sequence start
    ///   or of another codec (``FLVError/Reason/invalidDecoderConfiguration(_:)``), or bad NAL unit lengths.
    @discardableResult
    public mutating func append(_ body: FLVVideoTagBody, to buffer: inout [UInt8]) throws(FLVError) -> Bool {
        if body.packetType == .sequenceStart, let codec = body.codec.codecType {
            let (format, units) = try FLVDecoderConfiguration.format(from: body.payload, codec: codec)
            self.format = format
            isHEVC = codec == .hevc
            lengthSize = format.nalUnitLengthSize
            configuration = isHEVC ? units : format.parameterSets.filter { ($0.first ?? 0) & 0x1F == 7 }
                + format.parameterSets.filter { ($0.first ?? 0) & 0x1F == 8 }
            pictureParameterSets = isHEVC ? [] : format.parameterSets.filter { ($0.first ?? 0) & 0x1F == 8 }
            return false
        }
        guard body.isCodedFrames else { return false }
        guard let format, format.codec == body.codec.codecType else {
            throw FLVError(.invalidDecoderConfiguration("coded frames of \(body.codec) before its sequence start"), offset: 0)
        }
        let start = buffer.count
        if isHEVC { try appendHEVC(body, to: &buffer) } else { try appendH264(body, to: &buffer) }
        return buffer.count > start
    }

    private static func appendUnit(_ unit: ByteView, startCodeSize: Int, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: startCodeSize == 4 ? [0, 0, 0, 1] : [0, 0, 1])
        unit.withUnsafeBytes { buffer.append(contentsOf: $0) }
    }

    private static func appendUnits(_ units: [[UInt8]], to buffer: inout [UInt8]) {
        for unit in units {
            buffer.append(contentsOf: [0, 0, 0, 1])
            buffer.append(contentsOf: unit)
        }
    }

    private func appendHEVC(_ body: FLVVideoTagBody, to buffer: inout [UInt8]) throws(FLVError) {
        var gotIRAP = false
        let configuration = self.configuration
        do {
            try AVCC.forEachNALUnit(in: body.payload, lengthSize: lengthSize) { unit in
                let type = ((unit.getByte(at: 0) ?? 0) >> 1) & 0x3F
                // H.265 §7.4.2.2: 16 (BLA_W_LP) through 23 (RSV_IRAP_VCL23) are IRAP.
                let isIRAP = (16...23).contains(type)
                if isIRAP, !gotIRAP { Self.appendUnits(configuration, to: &buffer) }
                gotIRAP = gotIRAP || isIRAP
                Self.appendUnit(unit, startCodeSize: 4, to: &buffer)
            }
        } catch {
            throw FLVError(.invalidNALUnitFraming("\(error)"), offset: body.headerByteCount)
        }
    }

    private mutating func appendH264(_ body: FLVVideoTagBody, to buffer: inout [UInt8]) throws(FLVError) {
        var sawSPS = false, sawPPS = false, newIDR = self.newIDR
        let start = buffer.count
        let spss = configuration.filter { ($0.first ?? 0) & 0x1F == 7 }
        let ppss = pictureParameterSets
        do {
            try AVCC.forEachNALUnit(in: body.payload, lengthSize: lengthSize) { unit in
                let first = unit.getByte(at: 0) ?? 0
                let type = first & 0x1F
                // H.264 Table 7-1: 7 SPS, 8 PPS, 5 IDR slice, 1 non-IDR slice.
                if type == 7 {
                    sawSPS = true; newIDR = true
                } else if type == 8 {
                    sawPPS = true; newIDR = true
                    if !sawSPS, !spss.isEmpty { Self.appendUnits(spss, to: &buffer); sawSPS = true }
                }
                // first_mb_in_slice 0 (the first bit of the slice header set) starts a new IDR picture.
                if !newIDR, type == 5, (unit.getByte(at: 1) ?? 0) & 0x80 != 0 { newIDR = true }
                if newIDR, type == 5, !sawSPS, !sawPPS {
                    Self.appendUnits(configuration, to: &buffer)
                    newIDR = false
                } else if newIDR, type == 5, sawSPS, !sawPPS {
                    Self.appendUnits(ppss, to: &buffer)
                }
                Self.appendUnit(unit, startCodeSize: buffer.count == start || type == 7 || type == 8 ? 4 : 3, to: &buffer)
                if !newIDR, type == 1 { newIDR = true; sawSPS = false; sawPPS = false }
            }
        } catch {
            self.newIDR = newIDR
            throw FLVError(.invalidNALUnitFraming("\(error)"), offset: body.headerByteCount)
        }
        self.newIDR = newIDR
    }
}
