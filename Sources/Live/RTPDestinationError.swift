import Containers
import POSIX
import RTP
import Transport

/// Why a destination that sends RTP (``RTPDestination``, ``RTSPPublishDestination``) could not go on: each case
/// wraps the layer's own error, which names the field, packet or request.
public enum RTPDestinationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host is not an IPv4 or IPv6 address.
    case address(SocketAddressError)
    /// The SDP (RFC 8866) cannot describe a format of the stream.
    case sessionDescription(SDPError)
    /// The SDP file could not be written.
    case sessionDescriptionFile(ContainerIOError)
    /// A frame cannot be cut into RTP packets (RFC 6184, RFC 7798, RFC 3640): a packet size too small, a malformed
    /// access unit.
    case packetizer(RTPPacketizerError)
    /// A sender report or BYE could not be made (RFC 3550 §6.4.1, §6.6).
    case report(RTCPError)
    /// The event loop or a socket failed.
    case transport(TransportError)
    /// The RTSP server cannot be reached, refused a request (RFC 2326 §7.1.1), or closed the connection.
    case rtsp(RTSPClientError)
    /// A frame came before ``LiveDestination/open(_:)`` or after ``LiveDestination/finish()``.
    case notOpen(destination: String)

    /// The error in words.
    public var description: String {
        switch self {
        case let .address(error): return "address: \(error)"
        case let .sessionDescription(error): return "SDP: \(error)"
        case let .sessionDescriptionFile(error): return "SDP file: \(error)"
        case let .packetizer(error): return "RTP: \(error)"
        case let .report(error): return "RTCP: \(error)"
        case let .transport(error): return "network: \(error)"
        case let .rtsp(error): return "RTSP: \(error)"
        case let .notOpen(destination): return "\(destination) is not open"
        }
    }

    /// The error of ``RTPStreamSender``'s `send` (an ``RTPPacketizerError`` or an ``RTCPError``) as a case.
    /// - Parameter error: what the sender threw.
    /// - Returns: the case; an error of another type (none is thrown today) becomes a packetizer failure naming it.
    static func sending(_ error: any Error) -> RTPDestinationError {
        switch error {
        case let error as RTPPacketizerError: return .packetizer(error)
        case let error as RTCPError: return .report(error)
        case let error as RTPDestinationError: return error
        default: return .packetizer(.malformedAccessUnit(byteOffset: 0, reason: "\(error)"))
        }
    }
}
