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
        return false
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
