import Foundation

/// A group of parsers that one fuzz run can be narrowed to, so that each input reaches the parser under
/// test many more times per second than when it goes through every parser of the package.
///
/// `STREAMKIT_FUZZ_ONLY=rtp,mp4 scripts/fuzz.sh 600` fuzzes those two groups alone; the corpus replay test
/// always runs every group.
public enum FuzzFamily: String, CaseIterable, Sendable {
    /// Annex B and AVCC framing, byte views, emulation prevention and the bit reader/writer.
    case bitstream
    /// H.264 parameter sets and slice headers.
    case h264
    /// H.265 parameter sets and slice headers.
    case hevc
    /// ADTS and AudioSpecificConfig.
    case aac
    /// The native AAC-LC decoder: raw data blocks under every channel configuration and rate, and ADTS frames.
    case aacDecoder
    /// The streaming `inspect` analysers.
    case analysers
    /// The Y4M, WAV and raw-video readers.
    case files
    /// RTP packets, the H.264/H.265/AAC depacketizers and the jitter buffer.
    case rtp
    /// The whole-session RTP receiver: video and AAC tracks, RTCP sender reports, the common clock.
    case rtpSession
    /// SDP and RTCP.
    case sdp
    /// RTSP messages, interleaved frames and the Transport/Authorization headers; `srt://` URLs and SRT stream ids.
    case rtsp
    /// HLS codec strings and playlist checks.
    case hls
    /// The MP4 reader.
    case mp4
    /// AMF0, the FLV tag bodies (legacy and Enhanced RTMP) and the FLV reader.
    case flv
    /// The MPEG-TS demuxer and media reader (packets, PAT/PMT, PES, ADTS and Annex B in PES).
    case ts
    /// The RTMP chunk-stream parser, protocol and user control messages, AMF0 commands, the handshake.
    case rtmp
    /// The native H.264 decoder: slice data (macroblock layer of I, P and B slices, CAVLC and CABAC, the 8x8
    /// transform, direct and weighted prediction, scaling matrices), reference lists and marking, the decoded
    /// picture buffer.
    case h264decoder
    /// SRTP/SRTCP unprotect on hostile packets, and the protect → unprotect round trip (needs the OpenSSL trait).
    case srtp
    /// The DTLS-SRTP engine, both roles, fed hostile datagrams (needs the OpenSSL trait).
    case dtls
    /// HTTP/1.1 request and response parsing (Content-Length, chunked, pipelining, caps).
    case http
    /// STUN messages (RFC 8489): parsing, integrity and fingerprint checks, rewriting; the ICE-lite answer.
    case stun
    /// WebRTC offers (JSEP) and the ICE-lite answer built from them.
    case webrtcSDP
    /// RTCP feedback to a sender (PLI, FIR, NACK), the send history and RFC 4588 retransmission packets.
    case rtcpFeedback
    /// The WHEP endpoint's request path: HTTP requests (offers, DELETE, PATCH) answered by a ``WHEPEndpoint``
    /// (sessions need the OpenSSL trait).
    case whep
    /// The full ICE agent's check list (``ICECheckList``): hostile datagrams, and STUN requests and responses built
    /// from the input with valid integrity (matching our outstanding transactions), between timer ticks.
    case iceAgent
    /// A WHIP endpoint's answer read against our offer (``WebRTCPublishAnswer``), and a check list made from it.
    case whipAnswer
    /// The WHIP endpoint's request path: HTTP requests (offers, DELETE, PATCH, bearer tokens) answered by a
    /// ``WHIPEndpoint`` (sessions need the OpenSSL trait).
    case whip
    /// A WHIP ingest's receiving half: RTP and rtx packets through ``WebRTCMediaReceiver`` (NACK jitter buffer, H.264
    /// and Opus depacketizing, NACK/PLI/receiver reports).
    case webrtcReceive

    /// The families that `STREAMKIT_FUZZ_ONLY` names (every family when it is not set), read once.
    public static let chosenByEnvironment = selection(from: ProcessInfo.processInfo.environment["STREAMKIT_FUZZ_ONLY"])

    /// The families named in a comma-separated list such as `"rtp,mp4"`; every family when the list is
    /// absent or empty.
    /// - Parameter list: names of families, separated by commas; unknown names are ignored.
    /// - Returns: the families to run.
    public static func selection(from list: String?) -> Set<FuzzFamily> {
        guard let list, !list.isEmpty else { return Set(allCases) }
        let named = list.split(separator: ",").compactMap { FuzzFamily(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
        return named.isEmpty ? Set(allCases) : Set(named)
    }
}
