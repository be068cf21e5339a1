import Transport

extension FuzzTargets {
    /// The `srt://` URL reader and the stream-id access-control parser on the input as text: what parses has a port
    /// in 1…65535 and options that pass their own check; a stream id in the `#!::` syntax prints back to text that
    /// parses to the same pairs.
    static func srtURL(_ bytes: [UInt8]) {
        let text = String(decoding: bytes.prefix(2048), as: UTF8.self)
        if let url = try? SRTURL("srt://" + text) {
            precondition(url.port > 0, "SRTURL: port out of range")
            precondition((try? url.options.validate()) != nil, "SRTURL: options that fail their own check")
            _ = url.description
        }
        if let id = try? SRTStreamID(parsing: text) {
            let again = try? SRTStreamID(parsing: id.description)
            precondition(again?.resource == id.resource && again?.mode == id.mode, "SRTStreamID: does not parse back")
        }
    }
}
