import Foundation

/// A TCP relay in Python between the publisher and the server whose rate towards the server is capped (bytes
/// per second, read from a file every 100 ms; 0 lifts the cap), with small socket buffers so a slow link is
/// felt at once rather than hidden in kernel buffers.
public final class ThrottledRelay: Sendable {
    /// The relay, in Python.
    static let script = """
        import signal, socket, sys, threading, time
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # ignored signals are inherited: make sure these end the relay
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        listen_port, target_port, rate_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
        state = {"rate": 0.0, "read": 0.0}
        def rate():
            now = time.monotonic()
            if now - state["read"] > 0.1:
                state["read"] = now
                try:
                    state["rate"] = float(open(rate_file).read().strip() or 0)
                except Exception:
                    pass
            return state["rate"]
        def pump(source, sink, throttled):
            try:
                while True:
                    data = source.recv(2048 if throttled else 65536)
                    if not data:
                        break
                    if throttled and rate() > 0:
                        time.sleep(len(data) / rate())
                    sink.sendall(data)
            except OSError:
                pass
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
        server.bind(("127.0.0.1", listen_port))
        server.listen(4)
        print("listening", flush=True)
        while True:
            client, _ = server.accept()
            client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
            upstream = socket.create_connection(("127.0.0.1", target_port))
            upstream.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
            threading.Thread(target=pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=pump, args=(upstream, client, False), daemon=True).start()
        """

    /// Where it listens.
    public let port: UInt16
    /// The server's port.
    public let target: UInt16
    /// The file its cap is read from.
    public let rateFile: String
    private let process: PeerProcess

    /// Starts the relay.
    /// - Parameters:
    ///   - port: where it listens.
    ///   - target: the server's port.
    ///   - bytesPerSecond: the cap (0: none).
    ///   - directory: the test's folder.
    public init(port: UInt16, to target: UInt16, bytesPerSecond: Int, in directory: URL) async throws {
        self.port = port
        self.target = target
        let scriptPath = directory.appendingPathComponent("relay.py").path
        rateFile = directory.appendingPathComponent("relay-rate").path
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        try "\(bytesPerSecond)".write(toFile: rateFile, atomically: true, encoding: .utf8)
        process = try PeerProcess("python3", [scriptPath, "\(port)", "\(target)", rateFile], logsIn: directory)
        guard await Readiness.waitForTCP(port: port, seconds: 15) else {
            await process.stop()
            throw TestFailure("the relay did not listen on \(port)\n\(process.logs)")
        }
    }

    /// Changes the cap.
    /// - Parameter bytesPerSecond: the new cap (0: none).
    public func cap(_ bytesPerSecond: Int) throws {
        try "\(bytesPerSecond)".write(toFile: rateFile, atomically: true, encoding: .utf8)
    }

    /// Kills the relay (every connection through it drops).
    public func kill() async { await process.stop(grace: 1) }

    /// Kills the relay now, blocking the calling thread (for a `defer`: a relay left running would hold its port).
    public func terminate() { process.terminate() }

    /// Its logs.
    public var logs: String { process.logs }
}
