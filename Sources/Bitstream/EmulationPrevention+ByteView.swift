// Emulation-prevention removal for a `ByteView`: most NAL units carry no emulation-prevention byte in
// the bytes a header parser reads, and then the RBSP is the EBSP itself — the view comes back as it is.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension EmulationPrevention {
    /// Removes emulation-prevention bytes, leniently (as ``rbsp(fromEBSP:)``), copying only if there is one.
    /// - Parameter ebsp: the NAL unit payload (or the whole NAL unit).
    /// - Returns: `ebsp` itself when it holds no `00 00 03`; otherwise a view of a new buffer with the RBSP.
    public static func rbsp(fromEBSP ebsp: ByteView) -> ByteView {
        guard containsEmulationPreventionByte(ebsp) else { return ebsp }
        var output: [UInt8] = []
        _ = convert(ebsp, limit: .max, checked: false, into: &output)
        return ByteView(output)
    }

    /// Whether `bytes` holds an emulation-prevention byte (a 0x03 after two zero bytes), found with `memchr`.
    /// - Parameter bytes: an EBSP.
    /// - Returns: `true` if removing emulation prevention would change `bytes`.
    public static func containsEmulationPreventionByte(_ bytes: ByteView) -> Bool {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return false }
            var position = 2
            while position < buffer.count {
                guard let hit = memchr(base + position, 3, buffer.count - position) else { return false }
                let index = base.distance(to: UnsafeRawPointer(hit))
                if buffer[index - 1] == 0 && buffer[index - 2] == 0 { return true }
                position = index + 1
            }
            return false
        }
    }
}
