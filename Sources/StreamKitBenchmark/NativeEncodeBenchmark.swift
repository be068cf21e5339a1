// streamkit-benchmark native-encode IN.y4m OUT.264 [--qp 26 | --bitrate BPS] [--frames N] [--keyint 30] [--preset NAME]
//   [--threads 1] [--slices N]: the native H.264 encoder as a command, for scripts/benchmark-native-h264.sh, which runs
// it beside x264 and openh264 on the same input (and under /usr/bin/time and callgrind), and for
// scripts/benchmark-native-h264-threads.sh. Frames are read, encoded and written one at a time, so the peak RSS is the
// encoder's own. `--threads N` codes on N threads and, unless `--slices` says otherwise, cuts each picture into N
// slices. Prints "frames F bytes B seconds S wall W cpu C": S the CPU time of this thread inside `encode`, W the
// wall-clock time inside `encode`, C the CPU time of the whole process inside it (every thread's; the reading and
// writing are left out; the scripts also time the whole process).
import Containers
import Foundation
import CodecInterface
import MediaCore
import NativeH264

/// The settings of one native encode.
struct NativeEncodeSettings {
    /// The fixed QP (when there is no ``bitRate``).
    var quantisationParameter = 26
    /// The average bit rate of the encoder's rate control, bits per second (`nil`: the fixed QP).
    var bitRate: Int?
    /// At most this many frames.
    var frameLimit = Int.max
    /// An IDR picture every this many frames.
    var keyFrameInterval = 30
    /// The encoder's preset.
    var preset = NativeH264Encoder.defaultPreset
    /// The most threads the encoder codes a picture on.
    var threadCount = 1
    /// Slices per picture (`nil`: one per thread).
    var sliceCount: Int?

    /// How each picture is cut: ``sliceCount`` slices, or one per thread.
    var sliceLayout: NativeH264Encoder.SliceLayout {
        let count = sliceCount ?? threadCount
        return count > 1 ? .count(count) : .single
    }

    /// The preset `--preset NAME` names in `arguments`, the encoder's default when it is absent.
    /// - Parameter arguments: the command's arguments.
    /// - Returns: the preset, `nil` when the name is missing or unknown.
    static func preset(in arguments: ArraySlice<String>) -> EncoderPreset? {
        guard let index = arguments.firstIndex(of: "--preset") else { return NativeH264Encoder.defaultPreset }
        guard index + 1 < arguments.endIndex else { return nil }
        return EncoderPreset(rawValue: arguments[index + 1])
    }
}

/// Encodes `inputPath` into the Annex B file `outputPath` with the native encoder and prints the counts.
/// - Parameters:
///   - inputPath: a 4:2:0 Y4M file.
///   - outputPath: the H.264 elementary stream to write.
///   - settings: QP or bit rate, frame limit and GOP.
/// - Throws: the reader's, the encoder's or the sink's error.
func runNativeEncode(inputPath: String, outputPath: String, settings: NativeEncodeSettings) throws {
    var reader = try Y4MReader(path: inputPath)
    let sink = try FileByteSink(path: outputPath)
    var encoder: NativeH264Encoder?
    var frames = 0
    var seconds = 0.0, wall = 0.0, processSeconds = 0.0
    while frames < settings.frameLimit, let frame = try reader.nextFrame() {
        if encoder == nil {
            let rateControl: NativeH264Encoder.RateControl = settings.bitRate.map { .averageBitRate($0) }
                ?? .constantQuantisationParameter(settings.quantisationParameter)
            encoder = try NativeH264Encoder(width: frame.width, height: frame.height, rateControl: rateControl,
                                            framesPerSecond: framesPerSecond(reader.header.frameRate),
                                            keyFrameInterval: settings.keyFrameInterval, sliceLayout: settings.sliceLayout,
                                            threadCount: min(settings.threadCount, NativeH264Encoder.maximumThreadCount), preset: settings.preset)
        }
        let start = threadCPUTime(), wallStart = now(), processStart = processCPUTime()
        guard let picture = try encoder?.encode(frame) else { break }
        seconds += threadCPUTime() - start
        wall += now() - wallStart
        processSeconds += processCPUTime() - processStart
        for unit in picture.nalUnits {
            try sink.write([0, 0, 0, 1])
            try sink.write(unit)
        }
        frames += 1
    }
    try sink.close()
    print("frames \(frames) bytes \(sink.byteCount) seconds \(String(format: "%.6f", seconds)) wall \(String(format: "%.6f", wall)) "
          + "cpu \(String(format: "%.6f", processSeconds))")
}

/// The frame rate of a Y4M header rounded to whole frames per second (30 when it has none).
/// - Parameter rate: the header's `F` field.
/// - Returns: frames per second, at least 1.
func framesPerSecond(_ rate: Y4MRatio?) -> Int {
    guard let rate, rate.numerator > 0, rate.denominator > 0 else { return 30 }
    return max((rate.numerator + rate.denominator / 2) / rate.denominator, 1)
}
