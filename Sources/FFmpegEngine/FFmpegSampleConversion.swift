#if FFmpeg
import CFFmpeg
import CodecInterface
import MediaCore

/// Moves PCM between ``AudioBuffer`` (Int16 or Float32, interleaved or planar) and the planar or
/// interleaved sample arrays of libavcodec frames.
enum FFmpegSampleConversion {
    /// Appends a buffer's samples, as planar floats in −1…1, to one array per channel.
    /// - Parameters:
    ///   - audio: the PCM.
    ///   - planes: one array per channel (`audio.channelCount` of them).
    /// - Throws: ``CodecError/inputMismatch(_:)`` if the buffer's arrays are shorter than its frame count says.
    static func appendPlanarFloat(from audio: AudioBuffer, to planes: inout [[Float]]) throws(CodecError) {
        let frames = audio.frameCount
        let channels = audio.channelCount
        let size = audio.format.byteCount
        guard planes.count == channels else {
            throw .inputMismatch("audio has \(channels) channels, encoder has \(planes.count)")
        }
        let arrays = audio.isInterleaved ? 1 : channels
        guard audio.channelData.count == arrays else {
            throw .inputMismatch("audio has \(audio.channelData.count) sample arrays, expected \(arrays)")
        }
        let needed = audio.isInterleaved ? frames * channels * size : frames * size
        guard audio.channelData.allSatisfy({ $0.count >= needed }) else {
            throw .inputMismatch("audio sample arrays are shorter than \(frames) frames")
        }
        for channel in 0..<channels {
            let array = audio.isInterleaved ? 0 : channel
            let first = audio.isInterleaved ? channel : 0
            let step = audio.isInterleaved ? channels : 1
            audio.channelData[array].withUnsafeBytes { raw in
                planes[channel].reserveCapacity(planes[channel].count + frames)
                switch audio.format {
                case .float32:
                    for frame in 0..<frames {
                        planes[channel].append(raw.loadUnaligned(fromByteOffset: (first + frame * step) * 4, as: Float.self))
                    }
                case .int16:
                    for frame in 0..<frames {
                        let sample = raw.loadUnaligned(fromByteOffset: (first + frame * step) * 2, as: Int16.self)
                        planes[channel].append(Float(sample) / 32768)
                    }
                }
            }
        }
    }

    /// Copies a decoded audio frame into an ``AudioBuffer``: `fltp` and `s16p` stay planar, `flt` and
    /// `s16` stay interleaved.
    /// - Parameter frame: the decoded frame.
    /// - Returns: the PCM.
    /// - Throws: ``CodecError/engineFailure(_:)`` for another sample format or an inconsistent frame.
    static func audioBuffer(from frame: UnsafePointer<AVFrame>) throws(CodecError) -> AudioBuffer {
        let samples = Int(frame.pointee.nb_samples)
        let channels = Int(frame.pointee.ch_layout.nb_channels)
        let rate = Int(frame.pointee.sample_rate)
        let format: SampleFormat
        let planar: Bool
        switch frame.pointee.format {
        case AV_SAMPLE_FMT_FLTP.rawValue: (format, planar) = (.float32, true)
        case AV_SAMPLE_FMT_FLT.rawValue: (format, planar) = (.float32, false)
        case AV_SAMPLE_FMT_S16P.rawValue: (format, planar) = (.int16, true)
        case AV_SAMPLE_FMT_S16.rawValue: (format, planar) = (.int16, false)
        default:
            let name = av_get_sample_fmt_name(AVSampleFormat(rawValue: frame.pointee.format)).map { String(cString: $0) }
            throw .engineFailure("decoded sample format \(name ?? "\(frame.pointee.format)") is not Int16 or Float32")
        }
        guard samples >= 0, channels > 0, rate > 0, let planes = frame.pointee.extended_data else {
            throw .engineFailure("decoded audio frame has \(channels) channels at \(rate) Hz")
        }
        let arrays = planar ? channels : 1
        let bytesPerArray = samples * format.byteCount * (planar ? 1 : channels)
        var data: [[UInt8]] = []
        data.reserveCapacity(arrays)
        for index in 0..<arrays {
            guard let plane = planes[index] else { throw .engineFailure("decoded audio frame has no plane \(index)") }
            data.append([UInt8](UnsafeBufferPointer(start: plane, count: bytesPerArray)))
        }
        do {
            return try AudioBuffer(sampleRate: rate, channelCount: channels, format: format, isInterleaved: !planar,
                                   channelData: data)
        } catch {
            throw .engineFailure("cannot build the decoded audio: \(error)")
        }
    }
}
#endif
