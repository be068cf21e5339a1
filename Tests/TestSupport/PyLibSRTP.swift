import Foundation

/// libsrtp (Cisco's SRTP library, through PyPI's `pylibsrtp`, which aiortc pulls in) as the SRTP peer of the tests:
/// it protects and unprotects batches of packets under a master key, so our transform is checked against an
/// implementation nobody here wrote. `scripts/install-dependencies.sh` installs it into `.build/peers-venv`; env
/// `STREAMKIT_PYLIBSRTP_PYTHON` may name a Python that has it instead.
///
/// Where `CI=true`, a missing pylibsrtp is a failure, never a skip.
public enum PyLibSRTP {
    /// The environment variable that names a Python with pylibsrtp.
    public static let environmentVariable = "STREAMKIT_PYLIBSRTP_PYTHON"

    /// The Python that imports pylibsrtp, or `nil`.
    public static let python: String? = {
        var candidates: [String] = []
        if let named = ProcessInfo.processInfo.environment[environmentVariable], !named.isEmpty { candidates.append(named) }
        candidates.append(MediaFiles.packageRoot.appendingPathComponent(".build/peers-venv/bin/python").path)
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            if let output = try? ExternalTool.run(candidate, ["-c", "import pylibsrtp"]), output.status == 0 { return candidate }
        }
        return nil
    }()

    /// Whether the tests that need pylibsrtp should run (it is there, or this is CI).
    public static var isRunnable: Bool { ExternalTool.isCI || python != nil }

    /// What libsrtp does to each packet of a batch.
    public enum Operation: String, Sendable {
        /// `Session.protect` (RTP → SRTP).
        case protect
        /// `Session.unprotect` (SRTP → RTP).
        case unprotect
        /// `Session.protect_rtcp` (RTCP → SRTCP).
        case protectRTCP = "protect_rtcp"
        /// `Session.unprotect_rtcp` (SRTCP → RTCP).
        case unprotectRTCP = "unprotect_rtcp"
    }

    /// Runs one libsrtp session over `packets` in order.
    /// - Parameters:
    ///   - operation: what to do to each packet.
    ///   - profile: libsrtp's profile name: `AES128_CM_SHA1_80` or `AEAD_AES_128_GCM`.
    ///   - key: the master key followed by the master salt.
    ///   - packets: the packets.
    /// - Returns: each packet's result, or `nil` where libsrtp refused it (its error text is dropped).
    /// - Throws: ``ExternalTool/Failure`` when pylibsrtp is missing or the script fails.
    public static func run(_ operation: Operation, profile: String, key: [UInt8], packets: [[UInt8]]) throws -> [[UInt8]?] {
        guard let python else {
            throw ExternalTool.Failure(command: "pylibsrtp", message: "not found: run scripts/install-dependencies.sh "
                                           + "(it installs pylibsrtp into .build/peers-venv) or set \(environmentVariable)")
        }
        let inbound = operation == .unprotect || operation == .unprotectRTCP
        let script = """
        import sys, pylibsrtp
        lines = sys.stdin.read().split()
        policy = pylibsrtp.Policy(key=bytes.fromhex(lines[0]), ssrc_type=pylibsrtp.Policy.\(inbound ? "SSRC_ANY_INBOUND" : "SSRC_ANY_OUTBOUND"),
                                  srtp_profile=pylibsrtp.Policy.SRTP_PROFILE_\(profile))
        policy.window_size = 1024
        session = pylibsrtp.Session(policy)
        for line in lines[1:]:
            try:
                print(session.\(operation.rawValue)(bytes.fromhex(line)).hex())
            except pylibsrtp.Error:
                print("-")
        """
        let input = ([key] + packets).map { $0.map { String(format: "%02x", $0) }.joined() }.joined(separator: "\n")
        let output = try ExternalTool.run(python, ["-c", script], input: Data(input.utf8))
        guard output.status == 0 else {
            throw ExternalTool.Failure(command: "pylibsrtp", message: "exit \(output.status): \(output.standardError)")
        }
        return output.text.split(separator: "\n").map { line in
            line == "-" ? nil : Hex.bytes(String(line))
        }
    }
}
