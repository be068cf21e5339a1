#if SRT
import CSRT
#if canImport(Glibc)
import Glibc
#endif
import POSIX

/// libsrt's start-up, socket creation with our options, and its errors as ``SRTError``.
enum SRTLibrary {
    /// `srt_startup()` once per process (libsrt's own threads and its UDP multiplexer), with libsrt's own logging
    /// down to critical messages: what fails reaches the caller as an ``SRTError``, not as lines on standard error.
    private static let started: Bool = {
        srt_setloglevel(2)  // LOG_CRIT (syslog's level numbers)
        return srt_startup() >= 0
    }()

    /// A live-mode socket with the options set that must be set before connecting or listening.
    /// - Parameter options: latency, encryption, stream id, timeouts, payload size.
    /// - Returns: libsrt's socket id.
    /// - Throws: ``SRTError/library(call:reason:code:)`` when libsrt refuses an option.
    static func createSocket(_ options: SRTOptions) throws(SRTError) -> Int32 {
        guard started else { throw lastError("srt_startup") }
        let handle = srt_create_socket()
        guard handle != SRT_INVALID_SOCK else { throw lastError("srt_create_socket") }
        do throws(SRTError) {
            try set(handle, SRTO_TRANSTYPE, Int32(SRTT_LIVE.rawValue), "transtype")
            try set(handle, SRTO_LATENCY, Int32(clamping: options.latency.components.seconds * 1000
                                                  + options.latency.components.attoseconds / 1_000_000_000_000_000), "latency")
            try set(handle, SRTO_CONNTIMEO, Int32(clamping: options.connectTimeout.components.seconds * 1000
                                                    + options.connectTimeout.components.attoseconds / 1_000_000_000_000_000),
                    "connect_timeout")
            try set(handle, SRTO_PAYLOADSIZE, Int32(options.payloadSize), "payload_size")
            if !options.timestampBasedDelivery { try set(handle, SRTO_TSBPDMODE, 0, "tsbpd") }
            if let passphrase = options.passphrase {
                try set(handle, SRTO_PBKEYLEN, Int32(options.keyLength), "pbkeylen")
                try setString(handle, SRTO_PASSPHRASE, passphrase, "passphrase")
            }
            if let streamID = options.streamID { try setString(handle, SRTO_STREAMID, streamID, "streamid") }
        } catch {
            srt_close(handle)
            throw error
        }
        return handle
    }

    /// Reads an integer option (for example the latency the handshake settled on).
    static func get(_ handle: Int32, _ option: SRT_SOCKOPT) -> Int32? {
        var value: Int32 = 0
        var length = Int32(MemoryLayout<Int32>.size)
        guard srt_getsockflag(handle, option, &value, &length) != SRT_ERROR else { return nil }
        return value
    }

    /// Sets an integer option.
    static func set(_ handle: Int32, _ option: SRT_SOCKOPT, _ value: Int32, _ name: String) throws(SRTError) {
        var value = value
        guard srt_setsockflag(handle, option, &value, Int32(MemoryLayout<Int32>.size)) != SRT_ERROR else {
            throw .invalidOption(name: name, reason: String(cString: srt_getlasterror_str()))
        }
    }

    /// Sets a string option (passphrase, stream id).
    static func setString(_ handle: Int32, _ option: SRT_SOCKOPT, _ value: String, _ name: String) throws(SRTError) {
        let bytes = Array(value.utf8)
        let status = bytes.withUnsafeBytes { srt_setsockflag(handle, option, $0.baseAddress, Int32($0.count)) }
        guard status != SRT_ERROR else { throw .invalidOption(name: name, reason: String(cString: srt_getlasterror_str())) }
    }

    /// The calling thread's last libsrt error as an ``SRTError``.
    static func lastError(_ call: String) -> SRTError {
        var systemErrno: Int32 = 0
        let code = Int(srt_getlasterror(&systemErrno))
        switch code {
        case Int(SRT_ECONNLOST.rawValue), Int(SRT_ENOCONN.rawValue): return .connectionLost
        case Int(SRT_EINVSOCK.rawValue): return .closed
        case Int(SRT_EASYNCSND.rawValue):
            srt_clearlasterror()
            return .sendBufferFull
        default:
            let reason = String(cString: srt_getlasterror_str())
            srt_clearlasterror()
            return .library(call: call, reason: reason, code: code)
        }
    }

    /// Why `srt_connect`/`srt_rendezvous` failed: the peer's rejection with its reason, or no answer.
    static func connectError(_ handle: Int32, peer: SocketAddress) -> SRTError {
        var systemErrno: Int32 = 0
        let code = srt_getlasterror(&systemErrno)
        let reason = String(cString: srt_getlasterror_str())
        srt_clearlasterror()
        let rejection = Int(srt_getrejectreason(handle))
        if code == SRT_ECONNREJ.rawValue, rejection != Int(SRT_REJ_TIMEOUT.rawValue), rejection != Int(SRT_REJ_UNKNOWN.rawValue) {
            return .rejected(SRTRejectionReason(code: rejection))
        }
        if code == SRT_ENOSERVER.rawValue || rejection == Int(SRT_REJ_TIMEOUT.rawValue) {
            return .connectionFailed(peer: peer.description, reason: "no answer within the connect timeout")
        }
        return .connectionFailed(peer: peer.description, reason: reason)
    }
}
#endif
