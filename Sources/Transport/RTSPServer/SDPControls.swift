/// The `a=control:` attribute of each media section of a caller's SDP (RFC 2326 §C.1.1): kept when present, added
/// as `trackID=N` when absent, so that every track has a URL a client can SETUP.
struct SDPControls {
    /// The SDP to send in DESCRIBE (CRLF line ends).
    let description: String
    /// Each media section's control, in order.
    let controls: [String]

    init(sdp: String) {
        var lines = sdp.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.map(String.init)
        var controls: [String] = []
        var sectionStart: Int?
        var sectionControl: String?
        var index = 0
        func closeSection(at end: Int) -> Int {
            guard sectionStart != nil else { return 0 }
            if let control = sectionControl {
                controls.append(control)
                return 0
            }
            let control = "trackID=\(controls.count)"
            controls.append(control)
            lines.insert("a=control:" + control, at: end)
            return 1
        }
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("m=") {
                index += closeSection(at: index)
                sectionStart = index
                sectionControl = nil
            } else if line.hasPrefix("a=control:"), sectionStart != nil {
                sectionControl = String(line.dropFirst("a=control:".count)).trimmingCharacters()
            }
            index += 1
        }
        _ = closeSection(at: lines.count)
        self.controls = controls
        description = lines.map { $0 + "\r\n" }.joined()
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        String(trimmingRTSPWhitespace())
    }
}
