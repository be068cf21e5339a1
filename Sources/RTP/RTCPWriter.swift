/// Appends RTCP fields in network byte order, and frames packets with their common header (RFC 3550 §6.4.1).
struct RTCPWriter {
    /// The bytes written so far.
    var bytes: [UInt8]

    /// A writer that appends to `bytes`.
    init(bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    /// Appends a big-endian integer.
    mutating func append<Integer: FixedWidthInteger>(_ value: Integer) {
        var big = value.bigEndian
        withUnsafeBytes(of: &big) { bytes.append(contentsOf: $0) }
    }

    /// Appends raw bytes.
    mutating func append<Bytes: Sequence>(contentsOf other: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: other)
    }

    /// Writes one packet: the header with `count` and `packetType`, then what `body` appends, then the
    /// length field (32-bit words minus one). `body` must append a multiple of four bytes.
    mutating func packet(count: Int, packetType: UInt8, body: (inout RTCPWriter) -> Void) {
        let start = bytes.count
        bytes += [0x80 | UInt8(count & 0x1F), packetType, 0, 0]
        body(&self)
        let words = (bytes.count - start) / 4 - 1
        bytes[start + 2] = UInt8(truncatingIfNeeded: words >> 8)
        bytes[start + 3] = UInt8(truncatingIfNeeded: words)
    }
}
