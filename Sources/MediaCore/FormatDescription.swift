/// What a decoder needs to know about a video stream — StreamKit's `CMVideoFormatDescription`.
///
/// ``parameterSets`` holds the NAL units without start codes or length prefixes, in the order
/// VideoToolbox hands them out: SPS, PPS for H.264; VPS, SPS, PPS for H.265
/// (`CMVideoFormatDescriptionGetH264ParameterSetAtIndex`).
public struct FormatDescription: Sendable, Hashable {
    /// The codec (``CodecType/h264`` or ``CodecType/hevc``).
    public var codec: CodecType
    /// The display width in pixels (after cropping).
    public var width: Int
    /// The display height in pixels (after cropping).
    public var height: Int
    /// The profile and level the stream's SPS names (``ProfileLevel/level`` is `nil` while unknown).
    public var profileLevel: ProfileLevel
    /// The parameter-set NAL units: SPS, PPS (H.264) or VPS, SPS, PPS (H.265).
    public var parameterSets: [[UInt8]]
    /// The size of each NAL unit's length prefix in ``EncodedFrame/data``: 1, 2 or 4.
    public var nalUnitLengthSize: Int

    /// Creates a description.
    /// - Parameters:
    ///   - codec: H.264 or H.265.
    ///   - width: display width in pixels.
    ///   - height: display height in pixels.
    ///   - profileLevel: the profile and level.
    ///   - parameterSets: SPS, PPS (H.264) or VPS, SPS, PPS (H.265), without start codes.
    ///   - nalUnitLengthSize: the AVCC length size, 4 by default as VideoToolbox uses.
    public init(codec: CodecType, width: Int, height: Int, profileLevel: ProfileLevel,
                parameterSets: [[UInt8]], nalUnitLengthSize: Int = 4) {
        self.codec = codec
        self.width = width
        self.height = height
        self.profileLevel = profileLevel
        self.parameterSets = parameterSets
        self.nalUnitLengthSize = nalUnitLengthSize
    }
}

/// What a decoder needs to know about an audio stream — StreamKit's `AudioStreamBasicDescription` plus
/// the magic cookie.
public struct AudioFormatDescription: Sendable, Hashable {
    /// The codec (``CodecType/aac``).
    public var codec: CodecType
    /// Samples per second per channel.
    public var sampleRate: Int
    /// The number of channels.
    public var channelCount: Int
    /// The profile name, for example "LC".
    public var profile: String
    /// The AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1), the "magic cookie".
    public var audioSpecificConfig: [UInt8]
    /// PCM samples per channel in one encoded frame (1024 for AAC-LC).
    public var samplesPerFrame: Int
    /// The encoder delay ("priming"): samples per channel at the start of the decoded stream that
    /// come before the first input sample and are not meant to be heard (libavcodec's
    /// `initial_padding`, 1024 for its AAC encoder; 0 when unknown). An MP4 edit list skips them
    /// (ISO/IEC 14496-12 §8.6.6).
    public var encoderDelay: Int

    /// Creates a description.
    /// - Parameters:
    ///   - codec: the codec.
    ///   - sampleRate: samples per second per channel.
    ///   - channelCount: the number of channels.
    ///   - profile: the profile name.
    ///   - audioSpecificConfig: the decoder configuration bytes.
    ///   - samplesPerFrame: PCM samples per channel in one encoded frame.
    ///   - encoderDelay: priming samples per channel before the first input sample (0 when unknown).
    public init(codec: CodecType, sampleRate: Int, channelCount: Int, profile: String,
                audioSpecificConfig: [UInt8], samplesPerFrame: Int = 1024, encoderDelay: Int = 0) {
        self.codec = codec
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.profile = profile
        self.audioSpecificConfig = audioSpecificConfig
        self.samplesPerFrame = samplesPerFrame
        self.encoderDelay = encoderDelay
    }
}
