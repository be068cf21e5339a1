import Foundation
import TestSupport

/// Debian's nginx with its RTMP module (`libnginx-mod-rtmp`), on a port of the test's own, optionally behind
/// nginx's `stream` module terminating TLS (`libnginx-mod-stream`) with a certificate made by the test — the
/// usual way an RTMPS ingest is deployed. Nothing outside its own folder is touched.
final class NginxRTMP {
    let directory: URL
    let rtmpPort: UInt16
    let tlsPort: UInt16?
    let process: PeerProcess

    /// Writes the configuration and starts nginx; returns once its ports accept connections.
    /// - Parameters:
    ///   - rtmpPort: the plain RTMP port.
    ///   - tls: the TLS port and the PEM certificate and key, for an `rtmps://` front.
    ///   - directory: nginx's prefix (config, logs, pid).
    init(rtmpPort: UInt16, tls: (port: UInt16, certificate: String, key: String)? = nil, in directory: URL) async throws {
        self.directory = directory.appendingPathComponent("nginx-\(rtmpPort)")
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        self.rtmpPort = rtmpPort
        tlsPort = tls?.port
        let prefix = self.directory.path
        var config = """
        load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
        \(tls == nil ? "" : "load_module /usr/lib/nginx/modules/ngx_stream_module.so;")
        daemon off; master_process off; pid \(prefix)/nginx.pid; error_log \(prefix)/error.log info;
        events { worker_connections 64; }
        rtmp { server { listen 127.0.0.1:\(rtmpPort); chunk_size 4096; application live { live on; } } }

        """
        if let tls {
            config += """
            stream { server { listen 127.0.0.1:\(tls.port) ssl; ssl_certificate \(tls.certificate);
                              ssl_certificate_key \(tls.key); proxy_pass 127.0.0.1:\(rtmpPort); } }

            """
        }
        let configPath = self.directory.appendingPathComponent("nginx.conf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        process = try PeerProcess("nginx", ["-p", prefix, "-c", configPath], directory: self.directory)
        for port in [rtmpPort] + (tls.map { [$0.port] } ?? []) {
            try await Self.waitUntilListening(port: port, process: process)
        }
    }

    static func waitUntilListening(port: UInt16, process: PeerProcess) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if !process.process.isRunning { throw TestFailure("nginx exited\n\(process.logs)") }
            if canConnect(port: port) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("nginx does not listen on \(port)\n\(process.logs)")
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func canConnect(port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// nginx's error log (where the RTMP module says who published and played).
    var errorLog: String {
        (try? String(contentsOfFile: directory.appendingPathComponent("error.log").path, encoding: .utf8)) ?? ""
    }

    func stop() { process.stop() }
    deinit { process.stop() }
}

/// A self-signed certificate for `localhost` and 127.0.0.1, made with the openssl CLI.
struct SelfSignedCertificate {
    var certificate: String
    var key: String

    init(name: String, commonName: String = "localhost", in directory: URL) throws {
        certificate = directory.appendingPathComponent("\(name).crt").path
        key = directory.appendingPathComponent("\(name).key").path
        try ExternalTool.check("openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=\(commonName)",
            "-addext", "subjectAltName=DNS:\(commonName),IP:127.0.0.1",
        ])
    }
}
