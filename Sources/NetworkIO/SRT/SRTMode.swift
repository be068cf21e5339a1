/// How an SRT socket finds its peer (the `mode` of an `srt://` URL, as FFmpeg and srt-live-transmit name it).
public enum SRTMode: String, Hashable, Sendable, CaseIterable {
    /// Connects to a listener (the default of a URL with a host).
    case caller
    /// Waits for callers on a port.
    case listener
    /// Both sides connect to each other at once (through firewalls that let only outgoing traffic back in).
    case rendezvous
}
