#if SRT
import CSRT
#endif
#if canImport(Glibc)
import Glibc
#endif
import POSIX
import Synchronization

/// An SRT listener: binds a UDP port and accepts callers, each as an ``SRTSocket`` of its own.
///
/// An admission policy sees every caller's stream id and address during the handshake and lets it in, asks for a
/// passphrase of its own, or refuses it with a reason the caller receives (SRT's access-control codes: 1403
/// forbidden, 1404 not found …). A caller that vanishes affects only its own socket.
///
/// ``accept()`` blocks the calling thread: run it on a thread of its own. ``close()`` from another thread ends it.
public final class SRTListener: Sendable {
    /// The policy's box, handed to libsrt's listen callback as its opaque pointer.
    final class PolicyBox: Sendable {
        let policy: SRTAdmissionPolicy
        init(_ policy: @escaping SRTAdmissionPolicy) { self.policy = policy }
    }

    let handle: Int32
    /// The port it listens on (the one asked for, or the one the system chose for 0).
    public let port: UInt16
    private let options: SRTOptions
    private let policy: PolicyBox?
    private let isClosed = Mutex(false)

    /// Starts listening.
    /// - Parameters:
    ///   - url: `srt://:PORT` or `srt://HOST:PORT` with `mode=listener` (or no host); its options (latency,
    ///     passphrase, payload size) apply to every accepted caller.
    ///   - backlog: how many callers may wait for ``accept()``.
    ///   - admission: decides on each caller; `nil` lets every caller in.
    /// - Throws: ``SRTError``: the port in use (`library`), a bad option, or `unavailable` without the `SRT` trait.
    public init(url: SRTURL, backlog: Int = 16, admission: SRTAdmissionPolicy? = nil) throws(SRTError) {
        #if SRT
        var options = url.options
        options.mode = .listener
        try options.validate()
        let address = url.host.isEmpty || url.host == "0.0.0.0"
            ? SocketAddress.any(.ipv4, port: url.port)
            : try SRTSocket.address(host: url.host, port: url.port)
        let handle = try SRTLibrary.createSocket(options)
        let box = admission.map(PolicyBox.init)
        do throws(SRTError) {
            let bound = address.withSocketAddress { name, length in srt_bind(handle, name, Int32(length)) }
            if bound == SRT_ERROR { throw SRTLibrary.lastError("srt_bind \(address)") }
            if let box {
                let hooked = srt_listen_callback(handle, { opaque, socket, _, peer, streamID in
                    guard let opaque else { return 0 }
                    let box = Unmanaged<SRTListener.PolicyBox>.fromOpaque(opaque).takeUnretainedValue()
                    return SRTListener.admit(socket, peer: peer, streamID: streamID, box.policy)
                }, Unmanaged.passUnretained(box).toOpaque())
                if hooked == SRT_ERROR { throw SRTLibrary.lastError("srt_listen_callback") }
            }
            if srt_listen(handle, Int32(max(1, backlog))) == SRT_ERROR { throw SRTLibrary.lastError("srt_listen") }
        } catch {
            srt_close(handle)
            throw error
        }
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { srt_getsockname(handle, $0, &length) }
        }
        self.handle = handle
        self.port = named == SRT_ERROR ? url.port : (SocketAddress(storage)?.port ?? url.port)
        self.options = options
        self.policy = box
        #else
        throw .unavailable
        #endif
    }

    /// Starts listening on a URL given as a string.
    /// - Parameters:
    ///   - url: for example `srt://:9000?passphrase=…&latency=200000`.
    ///   - admission: decides on each caller; `nil` lets every caller in.
    /// - Throws: ``SRTError``, also for a URL that cannot be read.
    public convenience init(url: String, admission: SRTAdmissionPolicy? = nil) throws(SRTError) {
        try self.init(url: SRTURL(url), admission: admission)
    }

    deinit { close() }

    /// Waits for the next caller the policy lets in.
    /// - Returns: the connected socket, with the caller's address and stream id.
    /// - Throws: ``SRTError/closed`` once the listener is closed; ``SRTError/library(call:reason:code:)`` otherwise.
    public func accept() throws(SRTError) -> SRTSocket {
        #if SRT
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let socket = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { srt_accept(handle, $0, &length) }
        }
        guard socket != SRT_INVALID_SOCK else {
            if isClosed.withLock({ $0 }) { throw .closed }
            throw SRTLibrary.lastError("srt_accept")
        }
        return SRTSocket(handle: socket, peer: SocketAddress(storage), streamID: Self.streamID(of: socket), linger: options.linger)
        #else
        throw .closed
        #endif
    }

    /// Stops listening; a waiting ``accept()`` ends with ``SRTError/closed``. Accepted sockets stay open.
    public func close() {
        let wasOpen = isClosed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        #if SRT
        if wasOpen { srt_close(handle) }
        #else
        _ = wasOpen
        #endif
    }

    #if SRT
    /// Runs the policy for one caller and tells libsrt (the listen callback's contract: 0 to go on, -1 to refuse,
    /// with the reason set on the new socket).
    private static func admit(_ socket: Int32, peer: UnsafePointer<sockaddr>?, streamID: UnsafePointer<CChar>?,
                              _ policy: SRTAdmissionPolicy) -> Int32 {
        var address: SocketAddress?
        if let peer {
            var storage = sockaddr_storage()
            let size = peer.pointee.sa_family == sa_family_t(AF_INET6) ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: peer, count: size)) }
            address = SocketAddress(storage)
        }
        let id = streamID.map { String(cString: $0) }
        switch policy(SRTConnectionRequest(peer: address, streamID: id?.isEmpty == true ? nil : id)) {
        case .accept:
            return 0
        case let .acceptEncrypted(passphrase):
            let bytes = Array(passphrase.utf8)
            let status = bytes.withUnsafeBytes { srt_setsockflag(socket, SRTO_PASSPHRASE, $0.baseAddress, Int32($0.count)) }
            if status == SRT_ERROR {
                srt_setrejectreason(socket, 1500)
                return -1
            }
            return 0
        case let .reject(reason):
            srt_setrejectreason(socket, Int32(clamping: reason.code))
            return -1
        }
    }

    /// The stream id an accepted caller sent.
    private static func streamID(of socket: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 513)
        var length = Int32(buffer.count)
        let status = buffer.withUnsafeMutableBytes { srt_getsockflag(socket, SRTO_STREAMID, $0.baseAddress, &length) }
        guard status != SRT_ERROR, length > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)), as: UTF8.self)
    }
    #endif
}
