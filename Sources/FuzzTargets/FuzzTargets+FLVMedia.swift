import Containers
import MediaCore

extension FuzzTargets {
    /// The FLV media reader: the input as a whole FLV file read as pictures and audio frames. Every step returns
    /// an event or throws an ``FLVError``; nothing may trap, a picture's pts is its dts plus an SI24 offset.
    /// - Parameter bytes: arbitrary bytes.
    static func flvMedia(_ bytes: [UInt8]) {
        guard let reader = try? FLVReader(source: MemoryByteSource(bytes), limits: FLVReaderLimits(blockByteCount: 64)) else { return }
        var media = FLVMediaReader(reader: reader)
        for _ in 0..<10_000 {
            guard let event = try? media.next() else { return }
            switch event {
            case let .video(frame):
                precondition(abs((frame.pts - frame.dts).value) < 1 << 23, "a composition time outside SI24")
            case .audio, .metadata:
                continue
            case .end, .truncated:
                return
            }
        }
    }
}
