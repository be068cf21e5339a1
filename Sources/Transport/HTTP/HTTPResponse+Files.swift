import POSIX

extension HTTPResponse {
    /// A 200 response with a byte body and its `Content-Type`.
    /// - Parameters:
    ///   - body: the bytes.
    ///   - contentType: the media type, for example `application/sdp`.
    ///   - status: the status (200 unless given).
    /// - Returns: the response.
    public static func bytes(_ body: [UInt8], contentType: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: body)
    }

    /// A response with a file's content (200), 404 when it is missing or not a regular file, 413 when larger than
    /// `maximumSize` (the server holds a response whole in memory).
    /// - Parameters:
    ///   - path: the file's path.
    ///   - contentType: the media type; `nil` guesses it from the extension (HLS, MP4, HTML, JS, JSON, SDP).
    ///   - maximumSize: the largest file served.
    /// - Returns: the response.
    public static func file(at path: String, contentType: String? = nil, maximumSize: Int = 64 << 20) -> HTTPResponse {
        guard let descriptor = try? FileDescriptor.open(path, .readOnly), let status = try? descriptor.status(),
              status.kind == .regular else { return HTTPResponse(status: .notFound) }
        defer { try? descriptor.close() }
        guard status.size <= Int64(maximumSize) else { return HTTPResponse(status: .contentTooLarge) }
        var body = [UInt8](repeating: 0, count: Int(status.size))
        var filled = 0
        while filled < body.count {
            let count = (try? body.withUnsafeMutableBytes { buffer throws(SystemError) in
                try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            }) ?? 0
            if count <= 0 { break }
            filled += count
        }
        body.removeLast(body.count - filled)
        return bytes(body, contentType: contentType ?? mediaType(forPath: path))
    }

    /// The media type of a file by its extension (`application/octet-stream` for one not known).
    /// - Parameter path: the path.
    /// - Returns: the type.
    public static func mediaType(forPath path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "m3u8": return "application/vnd.apple.mpegurl"
        case "mp4", "m4s", "m4v": return "video/mp4"
        case "m4a": return "audio/mp4"
        case "ts": return "video/mp2t"
        case "html", "htm": return "text/html; charset=utf-8"
        case "js": return "text/javascript"
        case "json": return "application/json"
        case "sdp": return "application/sdp"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
