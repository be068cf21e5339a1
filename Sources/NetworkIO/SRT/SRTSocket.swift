#if SRT
import CSRT
#endif
#if canImport(Glibc)
import Glibc
#endif
import POSIX
import Synchronization

/// A connected SRT socket in live mode: each ``send(_:)`` is one SRT data packet (at most the payload size, 1316
/// bytes by default: seven MPEG-TS packets), delivered to the peer after the latency, with the losses in between
/// retransmitted (SRT's ARQ) as long as the latency allows.
///
/// The calls block the calling thread (``receive()`` until a packet comes, ``send(_:)`` only while the send buffer is
/// full); use the socket from a thread of its own, not from a Swift concurrency task. libsrt's handles are safe to use
/// from several threads: one may receive while another sends, and ``close()`` from any thread ends a waiting
/// ``receive()``.
public final class SRTSocket: Sendable {
    /// libsrt's socket id.
    let handle: Int32
    /// The peer's address (the caller's, for a socket a listener accepted).
    public let peer: SocketAddress?
    /// The stream id the caller sent (for a socket a listener accepted), or the one this caller sent.
    public let streamID: String?
    /// How long ``close()`` waits for the peer to acknowledge what was sent.
    private let linger: Duration
    private let isClosed = Mutex(false)

    init(handle: Int32, peer: SocketAddress?, streamID: String?, linger: Duration) {
        self.handle = handle
        self.peer = peer
        self.streamID = streamID
        self.linger = linger
    }

    deinit { closeNow() }

    /// Connects to a listener (caller mode), or to a rendezvous peer.
    ///
    /// For a caller the stream id and the passphrase go to the listener in the handshake; a listener that refuses
    /// (its access policy, a wrong passphrase) ends the call with ``SRTError/rejected(_:)`` and its reason.
    /// - Parameters:
    ///   - url: the peer's `srt://HOST:PORT` with its options; mode `caller` or `rendezvous` (for rendezvous, this side
    ///     binds the same port number, as FFmpeg does, unless `localPort` says otherwise).
    ///   - localPort: for rendezvous, the local port to bind (default: the URL's port).
    /// - Returns: the connected socket.
    /// - Throws: ``SRTError``: `rejected`, `connectionFailed` (no answer within the connect timeout), `invalidOption`,
    ///   or `unavailable` in a build without the `SRT` trait.
    public static func connect(to url: SRTURL, localPort: UInt16? = nil) throws(SRTError) -> SRTSocket {
        #if SRT
        let options = url.options
        try options.validate()
        guard options.mode != .listener else {
            throw .invalidOption(name: "mode", reason: "a listener waits for callers: use SRTListener")
        }
        let remote = try Self.address(host: url.host, port: url.port)
        let handle = try SRTLibrary.createSocket(options)
        do throws(SRTError) {
            if options.mode == .rendezvous {
                let local = SocketAddress.any(remote.family, port: localPort ?? url.port)
                let status = local.withSocketAddress { localName, localLength in
                    remote.withSocketAddress { remoteName, remoteLength in
                        srt_rendezvous(handle, localName, Int32(localLength), remoteName, Int32(remoteLength))
                    }
                }
                if status == SRT_ERROR { throw SRTLibrary.connectError(handle, peer: remote) }
            } else {
                let status = remote.withSocketAddress { name, length in srt_connect(handle, name, Int32(length)) }
                if status == SRT_ERROR { throw SRTLibrary.connectError(handle, peer: remote) }
            }
        } catch {
            srt_close(handle)
            throw error
        }
        return SRTSocket(handle: handle, peer: remote, streamID: options.streamID, linger: options.linger)
        #else
        throw .unavailable
        #endif
    }

    /// Connects to a listener or rendezvous peer given as an `srt://` URL string.
    /// - Parameter url: for example `srt://127.0.0.1:9000?streamid=live/cam&latency=200000`.
    /// - Returns: the connected socket.
    /// - Throws: ``SRTError``, also for a URL that cannot be read.
    public static func connect(to url: String) throws(SRTError) -> SRTSocket {
        try connect(to: SRTURL(url))
    }

    /// Sends one packet (live mode: one SRT data packet, at most the payload size).
    /// - Parameter packet: the bytes; longer than the payload size is an error (split them first, on MPEG-TS packet
    ///   boundaries: see ``send(stream:)``).
    /// - Throws: ``SRTError/connectionLost`` when the peer is gone, ``SRTError/closed`` after ``close()``.
    public func send(_ packet: some Collection<UInt8>) throws(SRTError) {
        #if SRT
        let status: Int32 = packet.withContiguousStorageIfAvailable { bytes in
            bytes.withMemoryRebound(to: CChar.self) { srt_sendmsg2(handle, $0.baseAddress, Int32($0.count), nil) }
        } ?? Array(packet).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { srt_sendmsg2(handle, $0.baseAddress, Int32($0.count), nil) }
        }
        if status == SRT_ERROR { throw transferError("srt_sendmsg2") }
        #else
        throw .unavailable
        #endif
    }

    /// Chooses whether ``send(_:)`` waits while the send buffer is full (the default: a caller that must not lose
    /// anything) or fails at once with ``SRTError/sendBufferFull`` (a live sender on a task that must not block).
    /// - Parameter waits: `false` for sends that never block.
    public func setSendWaits(_ waits: Bool) {
        #if SRT
        try? SRTLibrary.set(handle, SRTO_SNDSYN, waits ? 1 : 0, "sndsyn")
        #endif
    }

    /// Sends a byte stream cut into packets of the payload size (1316 bytes: seven MPEG-TS packets); the last packet
    /// may be shorter.
    /// - Parameters:
    ///   - stream: the bytes, for MPEG-TS a multiple of 188 so that no TS packet straddles two SRT packets.
    ///   - payloadSize: the bytes per packet (1316).
    /// - Throws: what ``send(_:)`` throws.
    public func send(stream: [UInt8], payloadSize: Int = 1316) throws(SRTError) {
        var start = 0
        while start < stream.count {
            let end = min(start + max(1, payloadSize), stream.count)
            try send(stream[start..<end])
            start = end
        }
    }

    /// Waits for the next packet.
    /// - Returns: the packet's bytes, or `nil` when the peer closed the connection (or this side closed the socket).
    /// - Throws: ``SRTError/library(call:reason:code:)`` for another failure.
    public func receive() throws(SRTError) -> [UInt8]? {
        #if SRT
        var buffer = [UInt8](repeating: 0, count: 1500)
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { srt_recvmsg2(handle, $0.baseAddress, Int32($0.count), nil) }
        }
        if count == SRT_ERROR {
            switch transferError("srt_recvmsg2") {
            case .connectionLost, .closed: return nil
            case let error: throw error
            }
        }
        buffer.removeSubrange(Int(count)...)
        return buffer
        #else
        throw .unavailable
        #endif
    }

    /// The connection's counters now.
    /// - Parameter clearingIntervals: whether to restart libsrt's per-interval counters (the totals stay).
    /// - Returns: the counters, or `nil` once the socket is closed.
    public func statistics(clearingIntervals: Bool = false) -> SRTStatistics? {
        #if SRT
        var raw = SRT_TRACEBSTATS()
        guard srt_bstats(handle, &raw, clearingIntervals ? 1 : 0) != SRT_ERROR else { return nil }
        var statistics = SRTStatistics()
        statistics.roundTripTime = .microseconds(Int64((raw.msRTT * 1000).rounded()))
        statistics.estimatedBandwidth = Int((raw.mbpsBandwidth * 1_000_000).rounded())
        statistics.sendRate = Int((raw.mbpsSendRate * 1_000_000).rounded())
        statistics.packetsSent = Int(raw.pktSentTotal)
        statistics.packetsReceived = Int(raw.pktRecvTotal)
        statistics.packetsReportedLost = Int(raw.pktSndLossTotal)
        statistics.packetsLost = Int(raw.pktRcvLossTotal)
        statistics.packetsRetransmitted = Int(raw.pktRetransTotal)
        statistics.packetsDroppedBySender = Int(raw.pktSndDropTotal)
        statistics.packetsDroppedByReceiver = Int(raw.pktRcvDropTotal)
        statistics.bytesSent = Int(raw.byteSentTotal)
        statistics.bytesReceived = Int(raw.byteRecvTotal)
        statistics.sendBufferDelay = .milliseconds(Int(raw.msSndBuf))
        statistics.sendBufferAvailable = Int(raw.byteAvailSndBuf)
        statistics.receiveBufferDelay = .milliseconds(Int(raw.msRcvBuf))
        statistics.packetsInFlight = Int(raw.pktFlightSize)
        statistics.acknowledgementsReceived = Int(raw.pktRecvACKTotal)
        statistics.negativeAcknowledgementsReceived = Int(raw.pktRecvNAKTotal)
        return statistics
        #else
        return nil
        #endif
    }

    /// The bytes sent and not yet acknowledged by the peer.
    public var unacknowledgedBytes: Int {
        #if SRT
        var blocks = 0, bytes = 0
        guard srt_getsndbuffer(handle, &blocks, &bytes) != SRT_ERROR else { return 0 }
        return bytes
        #else
        return 0
        #endif
    }

    /// Closes the socket so that the peer plays everything sent: first it waits the peer's latency (plus a round
    /// trip) — the time the peer's receiver holds a packet before handing it on, during which a close would make it
    /// drop the stream's last packets — and then libsrt's own linger waits, up to the rest of the linger time, for
    /// the acknowledgements still missing. FFmpeg's `linger` does the second part only. Blocks the calling thread.
    public func close() {
        guard isClosed.withLock({ !$0 }) else { return }
        #if SRT
        if linger > .zero, let sent = statistics(), sent.packetsSent > 0 {
            let hold = min(linger, peerLatency + sent.roundTripTime + .milliseconds(20))
            let microseconds = hold.components.seconds * 1_000_000 + hold.components.attoseconds / 1_000_000_000_000
            usleep(UInt32(clamping: microseconds))
            let rest = linger - hold
            let seconds = max(1, Int32(clamping: rest.components.seconds + (rest.components.attoseconds > 0 ? 1 : 0)))
            var lingering = Glibc.linger(l_onoff: 1, l_linger: seconds)
            _ = srt_setsockflag(handle, SRTO_LINGER, &lingering, Int32(MemoryLayout<Glibc.linger>.size))
        }
        #endif
        closeNow()
    }

    /// The latency the peer's receiver uses, as the handshake settled it (zero when unknown).
    public var peerLatency: Duration {
        #if SRT
        .milliseconds(Int(SRTLibrary.get(handle, SRTO_PEERLATENCY) ?? 0))
        #else
        .zero
        #endif
    }

    /// Closes the socket at once (what is still unacknowledged is dropped).
    public func closeNow() {
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
    /// The error of a failed send or receive, from libsrt's last error on this thread.
    private func transferError(_ call: String) -> SRTError {
        if isClosed.withLock({ $0 }) { return .closed }
        return SRTLibrary.lastError(call)
    }
    #endif

    /// A numeric address for a host (`localhost` is 127.0.0.1; names are not looked up).
    static func address(host: String, port: UInt16) throws(SRTError) -> SocketAddress {
        let numeric = host == "localhost" ? "127.0.0.1" : host
        do {
            return try SocketAddress(host: numeric, port: port)
        } catch {
            throw .invalidURL("srt://\(host):\(port)", reason: "\(host) is not a numeric IPv4 or IPv6 address")
        }
    }
}
