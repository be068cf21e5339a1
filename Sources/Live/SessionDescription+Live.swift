import MediaCore
import POSIX
import RTP

extension SessionDescription {
    /// The SDP of a live stream (RFC 8866): an H.264/H.265 track with payload type 96 (RFC 6184 / RFC 7798
    /// parameters, the frame rate) and an AAC track with payload type 97 (RFC 3640 `mpeg4-generic`), as an RTSP
    /// server's DESCRIBE answer (with `a=control` per track) or an SDP file for plain RTP.
    /// - Parameters:
    ///   - video: the video's format, if any.
    ///   - audio: the audio's format, if any.
    ///   - frameRate: frames per second.
    ///   - host: the connection address.
    ///   - family: IPv4 or IPv6 (`IP4`/`IP6` in the SDP).
    ///   - videoPort: the video's port (0 for RTSP, which sets it in SETUP).
    ///   - audioPort: the audio's port.
    ///   - controls: whether to add `a=control` attributes (RTSP).
    /// - Returns: the description.
    /// - Throws: ``SDPError`` for a format the SDP cannot describe.
    public static func live(video: FormatDescription?, audio: AudioFormatDescription?, frameRate: Double, host: String,
                            family: SocketAddress.Family, videoPort: Int, audioPort: Int, controls: Bool) throws(SDPError) -> SessionDescription {
        var media: [SDPMediaDescription] = []
        if let video {
            media.append(try SDPMediaDescription(video: video, payloadType: 96, port: videoPort,
                                                 control: controls ? "trackID=\(media.count)" : nil, frameRate: frameRate))
        }
        if let audio {
            media.append(try SDPMediaDescription(audio: audio, payloadType: 97, port: audioPort,
                                                 control: controls ? "trackID=\(media.count)" : nil))
        }
        let addressType = family == .ipv6 ? "IP6" : "IP4"
        return SessionDescription(origin: SDPOrigin(addressType: addressType, unicastAddress: host), sessionName: "StreamKit",
                                  connection: SDPConnection(addressType: addressType, address: host),
                                  attributes: controls ? [SDPAttribute("control", "*"), SDPAttribute("tool", "streamkit")]
                                      : [SDPAttribute("tool", "streamkit")],
                                  media: media)
    }
}
