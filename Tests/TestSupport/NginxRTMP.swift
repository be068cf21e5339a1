import Foundation

/// Debian's nginx with its RTMP module (`libnginx-mod-rtmp`) on a port of the test's own (PEERS.md's recipe:
/// application `live`, `live on`), optionally recording every publish, and optionally behind nginx's `stream`
/// module terminating TLS (`libnginx-mod-stream`) with a certificate made by the test — the usual way an RTMPS
/// ingest is deployed. Nothing outside its own folder is touched.
public final class NginxRTMP: Sendable {
    /// The plain RTMP port.
    public let port: UInt16
    /// The TLS port in front of it, if any.
    public let tlsPort: UInt16?
    /// The server's folder (config, logs, recordings): `nginx-PORT` in the test's folder.
    public let directory: URL
    private let process: PeerProcess

    /// nginx (Debian installs it in /usr/sbin, which may not be on `PATH`), if it is here with its RTMP module.
    public static var executablePath: String? {
        guard FileManager.default.fileExists(atPath: "/usr/lib/nginx/modules/ngx_rtmp_module.so") else { return nil }
        let candidates = [ExternalTool.path(of: "nginx"), "/usr/sbin/nginx"].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Writes the configuration and starts nginx; returns once its ports accept connections.
    /// - Parameters:
    ///   - port: the plain RTMP port.
    ///   - tls: the TLS port and the PEM certificate and key, for an `rtmps://` front that forwards to `port`.
    ///   - directory: the test's folder.
    ///   - records: whether every publish of `live` is recorded to a file of its own, `DIR/KEY-UNIXTIME.flv`
    ///     (nginx's workers then run as root, so that they may write the test's folder).
    /// - Throws: ``TestFailure`` if nginx or its module is missing, exits, or does not listen within 15 s.
    public init(port: UInt16, tls: (port: UInt16, certificate: String, key: String)? = nil, in directory: URL,
                records: Bool = false) async throws {
        guard let nginx = Self.executablePath else { throw TestFailure("nginx with libnginx-mod-rtmp is not installed") }
        self.port = port
        tlsPort = tls?.port
        self.directory = directory.appendingPathComponent("nginx-\(port)")
        // nginx opens PREFIX/logs/error.log before it reads the configuration.
        try FileManager.default.createDirectory(at: self.directory.appendingPathComponent("logs"), withIntermediateDirectories: true)
        let path = self.directory.path
        let recording = records ? "record all; record_path \(path); record_unique on;" : ""
        var configuration = """
            load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
            \(tls == nil ? "" : "load_module /usr/lib/nginx/modules/ngx_stream_module.so;")
            \(records ? "user root;" : "") daemon off; pid \(path)/nginx.pid; error_log \(path)/error.log info;
            events { worker_connections 64; }
            rtmp { server { listen 127.0.0.1:\(port); chunk_size 4096; application live { live on; \(recording) } } }

            """
        if let tls {
            configuration += """
                stream { server { listen 127.0.0.1:\(tls.port) ssl; ssl_certificate \(tls.certificate);
                                  ssl_certificate_key \(tls.key); proxy_pass 127.0.0.1:\(port); } }

                """
        }
        try configuration.write(toFile: "\(path)/nginx.conf", atomically: true, encoding: .utf8)
        process = try PeerProcess(nginx, ["-p", path, "-c", "\(path)/nginx.conf", "-e", "\(path)/error.log"], logsIn: self.directory)
        let deadline = ContinuousClock.now + .seconds(15)
        for port in [port] + (tls.map { [$0.port] } ?? []) {
            while !Readiness.canConnect(port: port) {
                guard process.isRunning, ContinuousClock.now < deadline else {
                    await process.stop()
                    throw TestFailure("nginx did not listen on \(port)\n\(logs)")
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// The recordings of a stream, one per publish, oldest first (with `records`).
    /// - Parameter key: the stream key.
    /// - Returns: their paths.
    public func recordings(of key: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix("\(key)-") && $0.hasSuffix(".flv") }.sorted().map { directory.appendingPathComponent($0).path }
    }

    /// The server's output and the end of its error log (where the RTMP module says who published and played),
    /// for failure messages.
    public var logs: String {
        process.logs + "\n--- error.log\n" + ((try? String(contentsOfFile: directory.appendingPathComponent("error.log").path, encoding: .utf8))?.suffix(3000) ?? "")
    }

    /// Stops nginx gently (``PeerProcess/stop(grace:)``).
    public func stop() async { await process.stop() }

    /// Stops nginx now, blocking the calling thread (for a `defer`; ``PeerProcess/terminate()``).
    public func terminate() { process.terminate() }
}
