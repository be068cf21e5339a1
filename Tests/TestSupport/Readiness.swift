import Foundation

/// Waiting for a peer to be ready: a port that accepts, a file that has bytes.
public enum Readiness {
    /// Waits until a TCP port on 127.0.0.1 accepts a connection.
    /// - Parameters:
    ///   - port: the port.
    ///   - seconds: the longest wait.
    /// - Returns: `true` once it accepts.
    public static func waitForTCP(port: UInt16, seconds: Double = 60) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if canConnect(port: port) { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        // Once more: a starved task may wake after the deadline to a peer that was ready long before.
        return canConnect(port: port)
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` now.
    /// - Parameter port: the port.
    /// - Returns: `true` if a connection was made (it is closed at once).
    public static func canConnect(port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Waits until something listens on TCP `port` (any local address), without connecting to it: for peers that
    /// take one connection only (`ffmpeg -listen 1`, `ffmpeg -rtsp_flags listen`), where a probing connection would
    /// be the one they serve. Reads the kernel's socket tables (`/proc/net/tcp` and `tcp6`).
    /// - Parameters:
    ///   - port: the port.
    ///   - seconds: the longest wait.
    /// - Returns: `true` once a socket listens on it.
    public static func waitForListener(port: UInt16, seconds: Double = 30) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if isListening(port: port) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return isListening(port: port)
    }

    /// Whether a TCP socket listens on `port` now, by the kernel's tables.
    /// - Parameter port: the port.
    /// - Returns: `true` if `/proc/net/tcp` or `/proc/net/tcp6` has a socket in state LISTEN (0A) on it.
    public static func isListening(port: UInt16) -> Bool {
        hasSocket(in: ["/proc/net/tcp", "/proc/net/tcp6"], port: port, state: "0A")
    }

    /// Waits until a UDP socket is bound to `port` (any local address): a receiver (`ffmpeg -i x.sdp`) is ready for
    /// the stream. Reads the kernel's socket tables (`/proc/net/udp` and `udp6`).
    /// - Parameters:
    ///   - port: the port.
    ///   - seconds: the longest wait.
    /// - Returns: `true` once a socket is bound to it.
    public static func waitForUDP(port: UInt16, seconds: Double = 30) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if hasSocket(in: ["/proc/net/udp", "/proc/net/udp6"], port: port, state: nil) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return hasSocket(in: ["/proc/net/udp", "/proc/net/udp6"], port: port, state: nil)
    }

    /// Whether one of the kernel's socket tables lists a socket bound to `port`, in `state` if one is given.
    /// - Parameters:
    ///   - tables: `/proc/net/tcp` and the like.
    ///   - port: the local port.
    ///   - state: the state column (hexadecimal, "0A" for LISTEN), or `nil` for any.
    /// - Returns: whether such a socket is there.
    private static func hasSocket(in tables: [String], port: UInt16, state: String?) -> Bool {
        let local = ":" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
        for table in tables {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                // sl local_address rem_address st …
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                if fields.count > 3, fields[1].hasSuffix(local), state.map({ fields[3] == $0 }) ?? true { return true }
            }
        }
        return false
    }

    /// Waits until a file exists and is not empty.
    /// - Parameters:
    ///   - path: the file.
    ///   - seconds: the longest wait.
    /// - Returns: `true` once it has bytes.
    public static func waitForFile(_ path: String, seconds: Double = 15) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > 0 { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}

extension String {
    /// The string with zeros in front, to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
