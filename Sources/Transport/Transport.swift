// `import Transport` keeps giving everything it gave before the network layer and each protocol's wire syntax became
// modules of their own: the sessions here, and, re-exported, the modules below them.

/// `TransportError` and `TLSError`.
@_exported import TransportErrors
/// The event loop, TCP and UDP, TLS.
@_exported import NetworkIO
/// RTSP/1.0 messages, headers and interleaved frames; Basic and Digest authentication.
@_exported import RTSPMessages
/// The RTMP handshake, chunk stream, messages and commands.
@_exported import RTMPWire
/// HTTP/1.1 requests, responses and their parsers.
@_exported import HTTPMessages
/// STUN messages and the ICE attributes.
@_exported import STUN
