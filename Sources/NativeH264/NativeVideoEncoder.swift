import Bitstream
import CodecInterface
import H264
import MediaCore

/// ``NativeH264Encoder`` behind ``VideoEncoder``: each picture comes out at once (no reordering, no
/// look-ahead) as one AVCC frame with 4-byte lengths; IDR pictures carry the SPS and PPS in band, and
/// every frame carries a ``FormatDescription`` built from them.
///
/// A class because the protocol asks for one; sessions serialise calls.
final class NativeVideoEncoder: VideoEncoder {
    private var encoder: NativeH264Encoder
    private let format: FormatDescription
    private let engineName: String
    private let reconstructionHandler: NativeCodecEngine.ReconstructionHandler?
    /// Whether the configuration had a bit rate (a constant-QP session may not turn one on, as with x264).
    private let hasBitRate: Bool

    /// Opens an encoder.
    /// - Parameters:
    ///   - configuration: the session's properties (checked by ``NativeEngineSettings``).
    ///   - engineName: the engine's name, for errors.
    ///   - reconstructionHandler: receives each reconstructed picture.
    ///   - sliceLayout: how each picture is cut into slices.
    ///   - threadCount: the most threads a picture is coded on.
    /// - Throws: ``CodecError/unsupportedProperty(_:reason:engine:)`` when the encoder refuses a value.
    init(configuration: CompressionConfiguration, engineName: String,
         reconstructionHandler: NativeCodecEngine.ReconstructionHandler?,
         sliceLayout: NativeH264Encoder.SliceLayout = .single, threadCount: Int = NativeH264Encoder.availableProcessorCount) throws(CodecError) {
        let settings = NativeEngineSettings(configuration: configuration, engineName: engineName)
        do {
            encoder = try NativeH264Encoder(width: configuration.width, height: configuration.height, rateControl: settings.rateControl,
                                            framesPerSecond: settings.framesPerSecond, keyFrameInterval: settings.keyFrameInterval,
                                            sliceLayout: sliceLayout, threadCount: threadCount,
                                            preset: configuration.preset ?? NativeH264Encoder.defaultPreset)
        } catch {
            throw .unsupportedProperty(.size, reason: error.description, engine: engineName)
        }
        let sps = encoder.sequenceParameterSet
        format = FormatDescription(codec: .h264, width: configuration.width, height: configuration.height,
                                   profileLevel: ProfileLevel(codec: .h264, profileNamed: sps.profileName, level: sps.levelName),
                                   parameterSets: [sps.nalUnit(), encoder.pictureParameterSet.nalUnit()], nalUnitLengthSize: 4)
        self.engineName = engineName
        self.reconstructionHandler = reconstructionHandler
        hasBitRate = configuration.averageBitRate != nil
    }

    /// Encodes one picture.
    /// - Parameters:
    ///   - picture: the picture, any 4:2:0 layout, of the configured size.
    ///   - pts: its presentation time (also the clock of the data-rate windows).
    ///   - duration: its display duration.
    ///   - forceKeyFrame: make it an IDR picture.
    /// - Returns: the one frame it becomes.
    /// - Throws: ``CodecError/inputMismatch(_:)`` for a picture of another size.
    func encode(_ picture: PixelBuffer, pts: MediaTime, duration: MediaTime, forceKeyFrame: Bool) throws(CodecError) -> [EncodedFrame] {
        let coded: NativeH264Encoder.EncodedPicture
        do {
            coded = try encoder.encode(picture, forcingKeyFrame: forceKeyFrame, presentationTime: pts)
        } catch {
            throw .inputMismatch(error.description)
        }
        reconstructionHandler?(coded.reconstruction, pts)
        var data = [UInt8]()
        data.reserveCapacity(coded.nalUnits.reduce(0) { $0 + 4 + $1.count })
        for unit in coded.nalUnits {
            let length = UInt32(unit.count)
            data += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            data += unit
        }
        return [EncodedFrame(data: data, isKeyFrame: coded.isKeyFrame, pts: pts, dts: pts, duration: duration, format: format)]
    }

    /// Nothing is held: every picture came out when it went in.
    /// - Returns: no frames.
    func flush() throws(CodecError) -> [EncodedFrame] { [] }

    /// Changes the average bit rate and the data-rate limits from the next picture.
    /// - Parameters:
    ///   - averageBitRate: the new average, bits per second.
    ///   - dataRateLimits: the new limits (empty: none).
    /// - Throws: ``CodecError/unsupportedProperty(_:reason:engine:)`` when a bit rate is turned on or off
    ///   on a running session, or a value is out of range.
    func setRateControl(averageBitRate: Int?, dataRateLimits: [DataRateLimit]) throws(CodecError) {
        guard (averageBitRate != nil) == hasBitRate else {
            throw .unsupportedProperty(.averageBitRate, reason: "turned \(averageBitRate == nil ? "off" : "on") on a running session "
                + "(set it when the session is created)", engine: engineName)
        }
        do {
            if let averageBitRate { try encoder.setAverageBitRate(averageBitRate) }
            try encoder.setDataRateLimits(dataRateLimits)
        } catch {
            throw .unsupportedProperty(averageBitRate != nil ? .averageBitRate : .dataRateLimits, reason: error.description, engine: engineName)
        }
    }
}
