// One x264 run at a fixed QP, as the native-encoder benchmarks compare against it.

import Foundation

/// What one x264 run produced: the time of the child, the stream's size and its mean PSNR-Y.
struct X264FixedQPRun {
    /// User plus system CPU seconds x264 spent.
    let cpuSeconds: Double
    /// Monotonic seconds from starting x264 to its exit (start-up included).
    let wallSeconds: Double
    /// The size of the elementary stream x264 wrote, in bytes.
    let bytes: Int
    /// The mean PSNR-Y x264 reported (`--psnr`), in dB.
    let psnrY: Double

    /// Runs `x264 arguments… --psnr -o TEMP path` and reads back its size, its PSNR and its CPU time.
    /// The caller's `arguments` carry the preset, GOP, QP, threads and frame count; a failure to start or a
    /// non-zero exit ends the benchmark with x264's own log.
    init(arguments: [String], path: String) {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("x264-fixed-qp-\(getpid())-\(UInt32.random(in: 0 ... .max)).264").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        func childCPU() -> Double {
            var usage = rusage()
            getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        let before = childCPU(), started = now()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["x264"] + arguments + ["--psnr", "-o", output, path]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { fail("x264 did not start: \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let log = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { fail("x264 failed: \(log)") }
        wallSeconds = now() - started
        cpuSeconds = childCPU() - before
        bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        let psnrLine = log.split(separator: "\n").last { $0.contains("PSNR Mean") }.map(String.init) ?? ""
        psnrY = psnrLine.range(of: "Y:").flatMap { Double(psnrLine[$0.upperBound...].prefix(6)) } ?? 0
    }
}
