import MediaCore
import Transport

/// Pictures and audio frames shaped like an encoder's, for the send-queue tests: H.264 AVCC with an IDR
/// (`nal_ref_idc` 3), referenced P slices (`nal_ref_idc` 2) and non-reference B slices (`nal_ref_idc` 0).
enum SyntheticMedia {
    /// The parameter sets of a 320x240 High-profile stream from our own encoder (libx264).
    static let videoFormat = FormatDescription(
        codec: .h264, width: 320, height: 240, profileLevel: ProfileLevel(profile: .high),
        parameterSets: [[0x67, 0x64, 0x00, 0x14, 0xAC, 0xD9, 0x41, 0x41, 0xFA, 0x10, 0x00, 0x00, 0x03, 0x00, 0x10, 0x00, 0x00, 0x03,
                         0x03, 0xC8, 0xF1, 0x42, 0x99, 0x60],
                        [0x68, 0xEB, 0xEC, 0xB2, 0x2C]])
    static let audioFormat = AudioFormatDescription(codec: .aac, sampleRate: 48_000, channelCount: 2, profile: "LC",
                                                    audioSpecificConfig: [0x11, 0x90])

    /// Picture `index` of a stream with groups of `gop` pictures, I P B P B …, of about `bytes` bytes.
    static func picture(_ index: Int, gop: Int = 30, bytes: Int, fps: Int = 30) -> EncodedFrame {
        let inGroup = index % gop
        let header: UInt8 = inGroup == 0 ? 0x65 : (inGroup % 2 == 1 ? 0x41 : 0x01)
        let size = max(2, inGroup == 0 ? bytes * 3 : bytes)
        var data = [UInt8(truncatingIfNeeded: size >> 24), UInt8(truncatingIfNeeded: size >> 16),
                    UInt8(truncatingIfNeeded: size >> 8), UInt8(truncatingIfNeeded: size), header]
        data += [UInt8](repeating: 0xAB, count: size - 1)
        let time = MediaTime(value: Int64(index), timescale: Int32(fps))
        return EncodedFrame(data: data, isKeyFrame: inGroup == 0, pts: time, dts: time,
                            duration: MediaTime(value: 1, timescale: Int32(fps)), format: videoFormat)
    }

    /// Audio frame `index` (1024 samples at 48 kHz).
    static func audio(_ index: Int, bytes: Int = 300) -> EncodedAudioFrame {
        EncodedAudioFrame(data: [UInt8](repeating: 0x21, count: bytes), pts: MediaTime(value: Int64(index) * 1024, timescale: 48_000),
                          duration: MediaTime(value: 1024, timescale: 48_000), format: audioFormat)
    }

    /// Whether every sent picture still decodes: each sent picture that is not a key frame has every
    /// referenced picture before it, back to its group's key frame, sent too.
    static func decodes(sent: [Int], gop: Int = 30) -> Bool {
        let sentSet = Set(sent)
        for index in sent where index % gop != 0 {
            let key = index - index % gop
            for earlier in key..<index where picture(earlier, gop: gop, bytes: 2).isReferenced && !sentSet.contains(earlier) {
                return false
            }
        }
        return true
    }
}
