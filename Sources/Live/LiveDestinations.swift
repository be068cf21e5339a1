import Containers
import POSIX
import Transport

/// Destinations from what a user types — the words of `streamkit publish INPUT DEST [DEST…]`, or of an app's
/// settings screen: a URL picks a network destination by its scheme, a file name a recording by its extension.
///
/// | typed | destination |
/// | --- | --- |
/// | `rtmp://HOST[:PORT]/APP/KEY`, `rtmps://…` | ``RTMPDestination`` (publish) |
/// | `rtsp://HOST[:PORT]/PATH` | ``RTSPPublishDestination`` (ANNOUNCE/RECORD, RFC 2326 §10.3, §10.11) |
/// | `srt://HOST:PORT?…`, `srt://:PORT` | ``SRTDestination`` (MPEG-TS over SRT, caller or listener; trait `SRT`) |
/// | `rtp://HOST:PORT` | ``RTPDestination`` (RTP + an SDP file, RFC 3550, RFC 8866) |
/// | `http(s)://HOST[:PORT]/PATH` | ``WHIPDestination`` (WebRTC publish to a WHIP endpoint, RFC 9725; trait `OpenSSL`; `https://` over TLS, trusting ``WHIPClient/Options/tlsTrust``) |
/// | `x.mp4` (`.m4v`, `.mov`, `.m4a`) | ``MP4FileDestination`` |
/// | `x.m3u8` | ``HLSDestination`` (RFC 8216) |
/// | `x.flv` | ``FLVFileDestination`` |
/// | `x.ts` (`.mts`, `.m2t`) | ``TSFileDestination`` (ISO/IEC 13818-1) |
/// | `x.h264`, `x.264`, `x.h265`, `x.265`, `x.hevc` | ``AnnexBFileDestination`` |
/// | `x.aac` | ``ADTSFileDestination`` |
///
/// An extension names the container, not the codec: `x.h265` holds whatever the pipeline's encoder makes.
///
/// ```swift
/// for text in ["rtmp://127.0.0.1/live/key", "recording.mp4", "www/stream.m3u8"] {
///     let destination = try LiveDestinations.destination(for: text)
///     pipeline.add(destination, options: destination.isLive ? DestinationOptions() : .recording())
/// }
/// ```
public enum LiveDestinations {
    /// What a typed destination cannot say by itself: each kind's own settings.
    public struct Options: Sendable {
        /// RTMP and RTMPS: queue, adaptation, reconnection, TLS trust.
        public var rtmp: RTMPDestination.Options
        /// RTSP publish: transport, credentials, packet size.
        public var rtspPublish: RTSPPublishDestination.Options
        /// RTP: where the SDP file goes (`nil`: `stream.sdp` in the current folder).
        public var sdpPath: String?
        /// RTP: the largest packet.
        public var maximumPacketSize: Int
        /// MP4: fragmented (default) or classic.
        public var mp4Layout: MP4FileDestination.Layout
        /// HLS: the shortest segment, in seconds.
        public var segmentDuration: Double
        /// HLS: event (default), live window or VOD.
        public var playlistMode: HLSWriter.Mode
        /// HLS: fragmented MP4 (default) or MPEG-TS segments.
        public var segmentFormat: HLSSegmentFormat
        /// WHIP: the bearer token, media address and session timings.
        public var whip = WHIPClient.Options()

        /// Creates options; every setting has its kind's default.
        /// - Parameters:
        ///   - rtmp: the RTMP options.
        ///   - rtspPublish: the RTSP publish options (default: interleaved TCP).
        ///   - sdpPath: the RTP destination's SDP file (default `stream.sdp`).
        ///   - maximumPacketSize: the RTP destination's largest packet (default 1472).
        ///   - mp4Layout: the MP4 layout (default fragmented).
        ///   - segmentDuration: the HLS segment duration in seconds (default 2).
        ///   - playlistMode: the HLS playlist mode (default event).
        ///   - segmentFormat: the HLS segments' container (default fragmented MP4).
        public init(rtmp: RTMPDestination.Options = RTMPDestination.Options(),
                    rtspPublish: RTSPPublishDestination.Options = RTSPPublishDestination.Options(),
                    sdpPath: String? = nil, maximumPacketSize: Int = 1472,
                    mp4Layout: MP4FileDestination.Layout = .fragmented(FragmentedMP4Options()),
                    segmentDuration: Double = 2, playlistMode: HLSWriter.Mode = .event,
                    segmentFormat: HLSSegmentFormat = .fragmentedMP4) {
            self.segmentFormat = segmentFormat
            self.rtmp = rtmp
            self.rtspPublish = rtspPublish
            self.sdpPath = sdpPath
            self.maximumPacketSize = maximumPacketSize
            self.mp4Layout = mp4Layout
            self.segmentDuration = segmentDuration
            self.playlistMode = playlistMode
        }
    }

    /// The destination a typed URL or file name names (see the table of ``LiveDestinations``). Nothing is
    /// connected or created here: that happens when the stream starts.
    /// - Parameters:
    ///   - text: a URL (`rtmp://`, `rtmps://`, `rtsp://`, `rtp://`, `srt://`, `http://`, `https://`) or a file name whose extension names its format.
    ///   - options: each kind's settings.
    /// - Returns: the destination.
    /// - Throws: ``LiveDestinationError/unknownScheme(_:destination:)`` for a scheme that names no destination,
    ///   ``LiveDestinationError/unknownFileExtension(_:destination:)`` for a file name without a known extension,
    ///   ``LiveDestinationError/invalidAddress(part:destination:reason:)`` for a URL whose host, port or path is
    ///   wrong.
    public static func destination(for text: String, options: Options = Options()) throws(LiveDestinationError) -> any LiveDestination {
        if let separator = text.range(of: "://") {
            let scheme = text[..<separator.lowerBound].lowercased()
            switch scheme {
            case "rtmp", "rtmps":
                do { _ = try RTMPURL(parsing: text) } catch {
                    throw .invalidAddress(part: String(text[separator.upperBound...]), destination: text, reason: "is not HOST[:PORT]/APP/KEY: \(error)")
                }
                return RTMPDestination(url: text, options: options.rtmp)
            case "rtsp":
                do { _ = try RTSPURL(parsing: text) } catch {
                    throw .invalidAddress(part: String(text[separator.upperBound...]), destination: text, reason: "is not HOST[:PORT]/PATH: \(error)")
                }
                return RTSPPublishDestination(url: text, options: options.rtspPublish)
            case "rtp":
                let (host, port) = try rtpAddress(String(text[separator.upperBound...]), in: text)
                return RTPDestination(host: host, port: port, sdpPath: options.sdpPath ?? "stream.sdp",
                                      maximumPacketSize: options.maximumPacketSize)
            case "srt":
                return try SRTDestination(url: text)
            case "http", "https":
                do { _ = try HTTPURL(parsing: text) } catch {
                    throw .invalidAddress(part: String(text[separator.upperBound...]), destination: text, reason: "is not HOST[:PORT]/PATH: \(error)")
                }
                return WHIPDestination(url: text, options: options.whip)
            default:
                throw .unknownScheme(String(text[..<separator.lowerBound]), destination: text)
            }
        }
        let name = text.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? text
        let fileExtension = name.lastIndex(of: ".").map { String(name[name.index(after: $0)...]) } ?? ""
        switch fileExtension.lowercased() {
        case "mp4", "m4v", "mov", "m4a": return MP4FileDestination(path: text, layout: options.mp4Layout)
        case "m3u8": return HLSDestination(path: text, segmentDuration: options.segmentDuration, mode: options.playlistMode,
                                           segmentFormat: options.segmentFormat)
        case "flv": return FLVFileDestination(path: text)
        case "ts", "mts", "m2t": return TSFileDestination(path: text)
        case "h264", "264", "h265", "265", "hevc": return AnnexBFileDestination(path: text)
        case "aac": return ADTSFileDestination(path: text)
        default: throw .unknownFileExtension(fileExtension, destination: text)
        }
    }

    /// `HOST:PORT` (or `[IPv6]:PORT`) of an `rtp://` URL: an address and a port whose RTCP and audio ports (+1,
    /// +2, +3, RFC 3550 §11) fit below 65536.
    private static func rtpAddress(_ authority: String, in text: String) throws(LiveDestinationError) -> (String, UInt16) {
        let trimmed = authority.hasSuffix("/") ? String(authority.dropLast()) : authority
        guard let colon = trimmed.lastIndex(of: ":"), trimmed.last != "]" else {
            throw .invalidAddress(part: authority, destination: text, reason: "has no port (rtp://HOST:PORT)")
        }
        var host = String(trimmed[..<colon])
        let portText = String(trimmed[trimmed.index(after: colon)...])
        guard let port = UInt16(portText), port > 0, port <= 65_532 else {
            throw .invalidAddress(part: portText, destination: text, reason: "is not a port from 1 to 65532 (RTP, RTCP and audio take 4)")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        do { _ = try SocketAddress(host: host == "localhost" ? "127.0.0.1" : host, port: port) } catch {
            throw .invalidAddress(part: host, destination: text, reason: "is not an IPv4 or IPv6 address")
        }
        return (host, port)
    }
}
