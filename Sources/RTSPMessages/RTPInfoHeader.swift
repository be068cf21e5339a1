/// An `RTP-Info` header (RFC 2326 §12.33): for each stream a PLAY starts, its URL and the sequence number and RTP
/// timestamp of the first packet the client will get, so it can tell the new packets from old ones.
public struct RTPInfoHeader: Hashable, Sendable, CustomStringConvertible {
    /// One stream's entry.
    public struct Entry: Hashable, Sendable {
        /// The stream's URL (as in its SETUP).
        public var url: String
        /// `seq=`: the first packet's sequence number.
        public var sequenceNumber: UInt16?
        /// `rtptime=`: the RTP timestamp that matches the Range start.
        public var rtpTime: UInt32?

        /// An entry.
        /// - Parameters:
        ///   - url: the stream URL.
        ///   - sequenceNumber: the first sequence number.
        ///   - rtpTime: the RTP timestamp.
        public init(url: String, sequenceNumber: UInt16? = nil, rtpTime: UInt32? = nil) {
            self.url = url
            self.sequenceNumber = sequenceNumber
            self.rtpTime = rtpTime
        }
    }

    /// The entries, in order.
    public var entries: [Entry]

    /// A header.
    /// - Parameter entries: the entries.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Parses `url=…;seq=…;rtptime=…,url=…`. An entry is split at a comma followed by `url=` (a URL may hold commas).
    /// - Parameter value: the header value.
    /// - Throws: ``RTSPHeaderError`` naming the malformed parameter.
    public init(parsing value: String) throws(RTSPHeaderError) {
        guard value.utf8.count <= 8192 else { throw .tooLong(header: "RTP-Info", limit: 8192) }
        var pieces: [String] = []
        for part in value.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = part.trimmingRTSPWhitespace()
            if trimmed.lowercased().hasPrefix("url=") || pieces.isEmpty {
                pieces.append(String(trimmed))
            } else {
                pieces[pieces.count - 1] += "," + part
            }
        }
        var entries: [Entry] = []
        for piece in pieces where !piece.isEmpty {
            var entry = Entry(url: "")
            for parameter in piece.split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { continue }
                let name = pair[0].trimmingRTSPWhitespace().lowercased()
                let text = pair[1].trimmingRTSPWhitespace()
                switch name {
                case "url": entry.url = String(text).replacingQuotes()
                case "seq":
                    guard let number = UInt16(text) else {
                        throw .malformedParameter(header: "RTP-Info", parameter: String(parameter), reason: "not 0…65535")
                    }
                    entry.sequenceNumber = number
                case "rtptime":
                    guard let number = UInt32(text) else {
                        throw .malformedParameter(header: "RTP-Info", parameter: String(parameter), reason: "not a 32-bit timestamp")
                    }
                    entry.rtpTime = number
                default: break
                }
            }
            guard !entry.url.isEmpty else { throw .missingPart(header: "RTP-Info", part: "url") }
            entries.append(entry)
        }
        self.entries = entries
    }

    /// `url=rtsp://…/trackID=0;seq=1234;rtptime=5678`, entries comma-separated.
    public var headerValue: String {
        entries.map { entry in
            "url=\(entry.url)" + (entry.sequenceNumber.map { ";seq=\($0)" } ?? "") + (entry.rtpTime.map { ";rtptime=\($0)" } ?? "")
        }.joined(separator: ",")
    }

    /// The ``headerValue``.
    public var description: String { headerValue }
}
