// streamkit-fuzz: libFuzzer entry point over every parser (see FuzzTargets and scripts/fuzz.sh).
//
// Built with `-sanitize=fuzzer,address`, `LLVMFuzzerRunDriver` is libFuzzer's driver. In a normal build
// the weak symbol is nil and the binary replays the files named on the command line instead.
import CFuzzerDriver
import FuzzTargets
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    FuzzTargets.run(UnsafeBufferPointer(start: data, count: size), families: FuzzFamily.chosenByEnvironment)
    return 0
}

if streamkit_fuzzer_is_linked() != 0 {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(streamkit_fuzzer_run(&argc, &argv) { data, size in fuzzOneInput(data, size) })
} else {
    for path in CommandLine.arguments.dropFirst() {
        guard let bytes = FileManager.default.contents(atPath: path) else { continue }
        [UInt8](bytes).withUnsafeBufferPointer { FuzzTargets.run($0) }
        print("replayed \(path) (\(bytes.count) bytes): no crash")
    }
}
