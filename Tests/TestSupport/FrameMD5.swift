/// ffmpeg's `framemd5` listing (`-f framemd5`): one row per frame, "stream, dts, pts, duration, size, hash",
/// after `#` comment lines.
public enum FrameMD5 {
    /// The hash column of a listing.
    /// - Parameters:
    ///   - text: the listing.
    ///   - stream: only the rows of this stream index; every row when `nil`.
    /// - Returns: one hash per frame, in the listing's order.
    public static func hashes(_ text: String, stream: Int? = nil) -> [String] {
        text.split(separator: "\n").filter { line in
            guard !line.hasPrefix("#") else { return false }
            return stream.map { line.hasPrefix("\($0),") } ?? true
        }.compactMap { line in
            line.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }
}
