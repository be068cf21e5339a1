// Writing a session description in the order RFC 8866 §5 gives: v o s i u e p c b t r z k a, then each
// m= section (m i c b k a), every line ended by CRLF.

extension SessionDescription {
    /// The description as text, in RFC 8866 §5 order, every line ended by CRLF; it parses back to an
    /// equal value. A missing `o=` is written as `o=- 0 0 IN IP4 127.0.0.1`, a missing `t=` as `t=0 0`, and
    /// an empty session name as `s=-`, because RFC 8866 requires those lines.
    public var text: String {
        var lines: [String] = ["v=\(version)", "o=\((origin ?? SDPOrigin()).value)", "s=\(sessionName.isEmpty ? "-" : sessionName)"]
        if let information { lines.append("i=\(information)") }
        if let uri { lines.append("u=\(uri)") }
        lines += emails.map { "e=\($0)" }
        lines += phoneNumbers.map { "p=\($0)" }
        if let connection { lines.append("c=\(connection.value)") }
        lines += bandwidths.map { "b=\($0.text)" }
        for timing in timings.isEmpty ? [SDPTiming()] : timings {
            lines.append("t=\(timing.start) \(timing.stop)")
            lines += timing.repeatTimes.map { "r=\($0)" }
        }
        lines += otherLines.map { "\($0.type)=\($0.value)" }
        lines += attributes.map { "a=\($0.text)" }
        for section in media {
            lines.append("m=\(section.mediaLineValue)")
            if let information = section.information { lines.append("i=\(information)") }
            lines += section.connections.map { "c=\($0.value)" }
            lines += section.bandwidths.map { "b=\($0.text)" }
            lines += section.otherLines.map { "\($0.type)=\($0.value)" }
            lines += section.attributes.map { "a=\($0.text)" }
        }
        return lines.map { $0 + "\r\n" }.joined()
    }
}
