import AAC
import NativeAAC

extension FuzzTargets {
    /// The native AAC-LC decoder. The first byte picks a sampling rate (its low nibble) and a channel
    /// configuration 1–7; the rest is cut into raw data blocks (each led by a length byte) and decoded
    /// one after another on one decoder, so state carries from block to block. The whole input is also
    /// scanned as ADTS and every frame decoded, CRC and multi-block frames included. Every block must
    /// give 1024 finite samples per channel, decoded or concealed — never a trap.
    static func aacDecoder(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let index = SamplingFrequencyIndex(rawValue: first & 0x0F) ?? .hz44100
        let configuration = ChannelConfiguration(rawValue: (first >> 4) % 7 + 1) ?? .stereo
        if let layout = AACChannelLayout(configuration: configuration) {
            var decoder = NativeAACDecoder(samplingFrequencyIndex: index, sampleRate: index.hertz, layout: layout)
            var offset = 1
            while offset < bytes.count {
                let length = Int(bytes[offset])
                let end = min(bytes.count, offset + 1 + length)
                let decoded = decoder.decode(rawDataBlock: bytes[(offset + 1)..<end])
                precondition(decoded.channels.count == layout.channelCount && decoded.channels.allSatisfy { $0.count == 1024 },
                             "a block must give 1024 samples per channel")
                precondition(decoded.channels.allSatisfy { $0.allSatisfy(\.isFinite) }, "non-finite output")
                offset = end
            }
        }
        _ = AACChannelLayout.programConfigElement(atStartOf: bytes.dropFirst())
        let scan = ADTSFrameScanner.scan(bytes)
        guard let header = scan.frames.first?.header else { return }
        let pce = header.channelConfiguration == .definedInStream
            ? scan.frames.first.flatMap { AACChannelLayout.programConfigElement(atStartOf: $0.payload) } : nil
        guard var decoder = try? NativeAACDecoder(adtsHeader: header, programConfigElement: pce) else { return }
        for frame in scan.frames.prefix(16) {
            // Frames of another configuration go to a decoder of their own, as a receiver would reopen one.
            if frame.header.channelConfiguration != header.channelConfiguration
                || frame.header.samplingFrequencyIndex != header.samplingFrequencyIndex {
                guard let other = try? NativeAACDecoder(adtsHeader: frame.header, programConfigElement: pce) else { continue }
                decoder = other
            }
            let decoded = decoder.decode(adtsFrame: frame)
            precondition(decoded.count == frame.header.numberOfRawDataBlocksInFrame + 1, "one output per raw data block")
        }
    }
}
