import Codecs
import MediaCore

/// `streamkit engines`: what this machine can encode and decode, in hardware and in software
/// (`VTIsHardwareDecodeSupported` and the encoder list, on Linux).
struct EnginesCommand {
    /// The command's declaration: no arguments.
    static let table = OptionTable(command: "engines", summary: "what this machine can encode and decode", options: [])

    /// Prints the engines.
    /// - Returns: the exit status.
    func run() -> Int32 {
        let registry = EngineSetup.registry()
        if registry.engines.isEmpty {
            print("no codec engine in this build: run scripts/demo.sh (installs FFmpeg's libraries and builds with --traits FFmpeg)")
            return 0
        }
        for kind in [true, false] {
            let engines = registry.engines.filter { $0.isHardware == kind }
            print(kind ? "hardware:" : "software:")
            if engines.isEmpty { print("  none (probed VAAPI, NVENC and V4L2 M2M encoders: no usable device on this machine)") }
            for engine in engines {
                let encode = CodecType.allCases.filter { engine.encodes($0) }.map(\.rawValue)
                let decode = CodecType.allCases.filter { engine.decodes($0) }.map(\.rawValue)
                print("  \(engine.name): encode \(encode.isEmpty ? "-" : encode.joined(separator: ", ")); "
                    + "decode \(decode.isEmpty ? "-" : decode.joined(separator: ", ")) — \(engine.summary)")
            }
        }
        return 0
    }
}
