// Module StreamKit: the umbrella — `import StreamKit` brings the whole library, as `import AVFoundation` does on
// Apple's systems: the live pipeline, sources, sessions and engines, containers, RTP and the protocols.
@_exported import AAC
@_exported import Bitstream
@_exported import Capture
@_exported import Codecs
@_exported import Containers
@_exported import H264
@_exported import HEVC
@_exported import Live
@_exported import MediaCore
@_exported import POSIX
@_exported import RTP
@_exported import Transport
