import AAC
import Codecs
import Containers
import MediaCore
import NativeAAC

extension FileDecoder {
    /// An ADTS stream (ISO/IEC 13818-7 §6.2.1) through an AAC decoder into a 16-bit `.wav`, the speakers named
    /// from the channel configuration (or the program config element of configuration 0).
    func decodeAudio<Source: ByteSource>(head: [UInt8], rest: inout Source,
                                         note: @escaping @Sendable (String) -> Void) throws -> String {
        var bytes = head
        bytes += try rest.readToEnd()
        let scan = ADTSFrameScanner.scan(bytes)
        guard let first = scan.frames.first else { throw FileDecoderError(input: input, reason: "holds no ADTS frame") }
        // channel_configuration 0: the layout is in a program config element at the start of the first block.
        let pce = first.header.channelConfiguration == .definedInStream
            ? AACChannelLayout.programConfigElement(atStartOf: first.payload) : nil
        let rate = first.header.samplingFrequencyIndex.hertz
        guard let channels = first.header.channelConfiguration.channelCount ?? pce?.channelCount, channels > 0 else {
            throw FileDecoderError(input: input, reason: "has channel_configuration 0 and no program config element at the start of the first frame")
        }
        let config = try AudioSpecificConfig(adtsHeader: first.header, programConfigElement: pce)
        let description = AudioFormatDescription(codec: .aac, sampleRate: rate, channelCount: channels,
                                                 profile: first.header.audioObjectType.profileName ?? "LC", audioSpecificConfig: try config.serialized())
        let engine = try registry.decoderEngine(for: .aac, named: engineName)
        let decoder = try engine.makeAudioDecoder(description)
        var writer = try WAVWriter(path: output, sampleRate: rate, channelCount: channels, sampleFormat: .int16,
                                   channelMask: WAVChannelMask(aacChannelConfiguration: Self.speakerConfiguration(first.header.channelConfiguration, pce: pce)))
        var samples = 0
        for (index, frame) in scan.frames.enumerated() {
            let encoded = EncodedAudioFrame(data: Array(frame.payload), pts: MediaTime(value: Int64(index) * 1024, timescale: Int32(rate)),
                                            duration: MediaTime(value: 1024, timescale: Int32(rate)), format: description)
            for buffer in try decoder.decode(encoded) { try writer.write(buffer); samples += buffer.frameCount }
        }
        for buffer in try decoder.flush() { try writer.write(buffer); samples += buffer.frameCount }
        try writer.finish()
        if let truncation = scan.truncation { note("note: \(truncation)") }
        return "\(engine.name): \(scan.frames.count) AAC frames → \(samples) samples → \(output)"
    }

    /// The channel configuration whose speakers a stream has: its own, or for a layout in a program config
    /// element the configuration with the same elements (FFmpeg's `-aac_pce` 5.1, for example), else 0.
    /// - Parameters:
    ///   - configuration: the ADTS header's channel configuration.
    ///   - pce: the program config element of configuration 0.
    /// - Returns: the configuration naming the speakers.
    public static func speakerConfiguration(_ configuration: ChannelConfiguration, pce: ProgramConfigElement?) -> ChannelConfiguration {
        guard configuration == .definedInStream, let pce else { return configuration }
        let layout = AACChannelLayout(programConfigElement: pce)
        for value in UInt8(1)...7 {
            if let candidate = ChannelConfiguration(rawValue: value), AACChannelLayout(configuration: candidate) == layout { return candidate }
        }
        return configuration
    }
}
