#if FFmpeg
import Capture
import Codecs
import Containers
import Foundation
import MediaCore
import TestSupport

/// Real encodes for the MP4 writer tests: the synthetic camera and microphone through the FFmpeg
/// engine's sessions, as a user's program would do it.
enum MP4TestMedia {
    /// Whether the oracle tests run: ffmpeg and ffprobe are installed, or CI=true (then a missing tool fails).
    static let toolsAvailable = ExternalTool.isRunnable("ffmpeg", "ffprobe")

    /// `count` pictures of the synthetic camera, encoded.
    static func video(codec: CodecType = .h264, count: Int, width: Int = 320, height: Int = 240, fps: Int = 30,
                      bFrames: Bool = false, keyFrameInterval: Int = 30) async throws -> [EncodedFrame] {
        var configuration = CompressionConfiguration(codec: codec, width: width, height: height)
        configuration.allowFrameReordering = bFrames
        configuration.maxKeyFrameInterval = keyFrameInterval
        configuration.expectedFrameRate = Double(fps)
        configuration.enginePreference = .software
        let session = try CompressionSession(configuration: configuration)
        let camera = try SyntheticCamera(width: width, height: height, frameRate: fps, realTime: false)
        let collecting = Task {
            var frames: [EncodedFrame] = []
            for await output in session.outputs { if case let .frame(frame) = output { frames.append(frame) } }
            return frames
        }
        for _ in 0..<count {
            guard let frame = try await camera.nextFrame() else { break }
            try await session.encode(frame.pixelBuffer, pts: frame.pts, duration: frame.duration)
        }
        _ = try await session.close()
        return await collecting.value
    }

    /// `seconds` of the synthetic microphone, encoded to AAC-LC.
    static func audio(seconds: Double, sampleRate: Int = 48_000, channels: Int = 2) async throws -> [EncodedAudioFrame] {
        let session = try AudioEncoderSession(configuration: AudioEncoderConfiguration(sampleRate: sampleRate, channelCount: channels,
                                                                                       bitRate: 128_000))
        let microphone = try SyntheticMicrophone(sampleRate: sampleRate, channelCount: channels, realTime: false)
        let collecting = Task {
            var frames: [EncodedAudioFrame] = []
            for await frame in session.outputs { frames.append(frame) }
            return frames
        }
        let target = Int(seconds * Double(sampleRate))
        var samples = 0
        while samples < target, let captured = try await microphone.nextBuffer() {
            let buffer = try captured.buffer.prefix(frameCount: target - samples)
            samples += buffer.frameCount
            try await session.encode(buffer)
        }
        _ = try await session.close()
        return await collecting.value
    }

    /// A fresh path in a temporary directory.
    static func path(_ name: String) throws -> String {
        try ExternalTool.temporaryDirectory().appendingPathComponent(name).path
    }

    /// ffprobe's `-show_streams` for each stream, as string fields.
    static func streams(_ path: String) throws -> [[String: String]] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-show_streams", "-of", "json", path])
        let json = try JSONSerialization.jsonObject(with: output.standardOutput) as? [String: Any]
        let streams = json?["streams"] as? [[String: Any]] ?? []
        return streams.map { stream in stream.mapValues { "\($0)" } }
    }

    /// ffprobe's packets of one stream: pts and dts in the stream's time base, and the flags.
    static func packets(_ path: String, stream: String) throws -> [(pts: Int64, dts: Int64, key: Bool)] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", "packet=pts,dts,flags",
                                                        "-of", "csv=p=0", path])
        return output.text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 3, let pts = Int64(fields[0]), let dts = Int64(fields[1]) else { return nil }
            return (pts, dts, fields[2].contains("K"))
        }
    }

    /// What `ffmpeg -v error -i path -f null -` prints (nothing for a clean file).
    static func decodeErrors(_ path: String) throws -> String {
        let output = try ExternalTool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"])
        return output.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The video framemd5 of a file, without its header comments (the decoded pictures, in order).
    static func videoFrameMD5(_ path: String, format: String? = nil) throws -> [String] {
        let arguments = ["-nostdin", "-v", "error"] + (format.map { ["-f", $0] } ?? []) + ["-i", path, "-map", "0:v:0", "-f", "framemd5", "-"]
        let output = try ExternalTool.check("ffmpeg", arguments)
        return output.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            // stream, dts, pts, duration, size, hash: keep the size and the hash (the timestamps differ by container).
            line.split(separator: ",").suffix(2).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ",")
        }
    }
}
#endif
