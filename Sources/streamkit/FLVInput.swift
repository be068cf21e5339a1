import Containers
import Foundation

/// `.flv` inputs of `decode`: the FLV's video (as Annex B) or, into a `.wav`, its AAC (as ADTS), read out of the
/// tags by ``FLVElementaryStreamSource``.
extension DecodeCommand {
    /// Decodes an FLV input.
    /// - Returns: the exit status.
    func decodeFLV() async -> Int32 {
        do {
            let audio = output.lowercased().hasSuffix(".wav")
            let reader = try FLVReader(source: try FileByteSource(path: input))
            var source = FLVElementaryStreamSource(reader: reader, stream: audio ? .audio : .video)
            let head = try source.read(upToCount: 1 << 20)
            guard !head.isEmpty else {
                printError("streamkit decode: \(input) has no \(audio ? "AAC" : "H.264/H.265") stream for \(output)")
                return 1
            }
            if audio { return try decodeAudio(head: head, rest: &source) }
            guard let codec = source.videoFormat?.codec else {
                printError("streamkit decode: \(input) has no H.264/H.265 sequence header")
                return 1
            }
            return try await decodeVideo(codec: codec, head: head, rest: &source)
        } catch {
            printError("streamkit decode: \(error)")
            return 1
        }
    }
}
