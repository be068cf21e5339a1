#if OpenSSL
import COpenSSL
#endif

/// One SRTP/SRTCP session's packet transform (RFC 3711 §3.3, §3.4; RFC 7714 §8, §9 for GCM): it protects packets
/// this side sends and unprotects packets it receives under one set of keys, keeping for each SSRC the rollover
/// counter (§3.3.1), the SRTCP index and the replay windows (§3.3.2).
///
/// Everything happens in the caller's buffer: protect appends the tag (and the SRTCP trailer) after the packet,
/// unprotect leaves the plain packet at the front and returns its length. No allocation per packet (a new SSRC adds
/// one table entry). Not thread-safe: use it from one thread at a time.
public final class SRTPContext: @unchecked Sendable {
    /// The most SSRCs a context tracks in each direction (a bound against a peer that invents SSRCs).
    public static let streamLimit = 256

    /// The profile of the keys.
    public let profile: SRTPProtectionProfile

    /// The state of one SSRC in one direction.
    struct Stream {
        var ssrc: UInt32
        var counter = SRTPRolloverCounter()
        var window = SRTPReplayWindow()
        var rtcpIndex: UInt32 = 0
        var rtcpWindow = SRTPReplayWindow()
    }

    /// The streams of each direction, searched linearly (a session has a handful; ``streamLimit`` bounds them). An array,
    /// not a dictionary: its elements are mutated in place without the coroutine frames a dictionary's accessors allocate
    /// in debug builds.
    private var sending: [Stream] = []
    private var receiving: [Stream] = []
    private let keys: SRTPSessionKeys
    /// 32 bytes for the IV and a computed tag: per-context memory, so no packet allocates.
    private let scratch = UnsafeMutableRawPointer.allocate(byteCount: 32, alignment: 16)

    #if OpenSSL
    private let rtpCounterMode: AESCounterMode?
    private let rtcpCounterMode: AESCounterMode?
    private let rtpHMAC: HMACSHA1?
    private let rtcpHMAC: HMACSHA1?
    private let rtpGCM: AESGCM?
    private let rtcpGCM: AESGCM?
    #endif

    /// A context for a master key and salt (the keys derived with ``SRTPSessionKeys/init(deriving:)``).
    /// - Parameter material: the master key and salt of the direction this context protects or unprotects.
    /// - Throws: ``SRTPError/unavailable`` without OpenSSL, ``SRTPError/cipherFailed(operation:)``.
    public convenience init(material: SRTPKeyingMaterial) throws(SRTPError) {
        try self.init(sessionKeys: try SRTPSessionKeys(deriving: material))
    }

    /// A context for session keys given directly.
    /// - Parameter sessionKeys: the six session keys.
    /// - Throws: ``SRTPError/unavailable`` without OpenSSL, ``SRTPError/cipherFailed(operation:)``.
    public init(sessionKeys: SRTPSessionKeys) throws(SRTPError) {
        profile = sessionKeys.profile
        keys = sessionKeys
        #if OpenSSL
        switch profile {
        case .aes128CounterModeHMACSHA1_80:
            rtpCounterMode = try AESCounterMode(key: keys.rtp.encryptionKey)
            rtcpCounterMode = try AESCounterMode(key: keys.rtcp.encryptionKey)
            rtpHMAC = try HMACSHA1(key: keys.rtp.authenticationKey)
            rtcpHMAC = try HMACSHA1(key: keys.rtcp.authenticationKey)
            rtpGCM = nil
            rtcpGCM = nil
        case .aeadAES128GCM:
            rtpCounterMode = nil
            rtcpCounterMode = nil
            rtpHMAC = nil
            rtcpHMAC = nil
            rtpGCM = try AESGCM(key: keys.rtp.encryptionKey)
            rtcpGCM = try AESGCM(key: keys.rtcp.encryptionKey)
        }
        #else
        throw .unavailable
        #endif
    }

    deinit { scratch.deallocate() }

    /// The rollover counter of a stream this context sends, or `nil` before its first packet.
    /// - Parameter ssrc: the stream.
    /// - Returns: the ROC.
    public func sendingRollover(ssrc: UInt32) -> UInt32? { sending.first { $0.ssrc == ssrc }?.counter.rollover }

    /// The rollover counter of a stream this context receives, or `nil` before its first authenticated packet.
    /// - Parameter ssrc: the stream.
    /// - Returns: the ROC.
    public func receivingRollover(ssrc: UInt32) -> UInt32? { receiving.first { $0.ssrc == ssrc }?.counter.rollover }

    /// Sets the next SRTCP index a sent stream uses (for test vectors and for resuming a stream).
    /// - Parameters:
    ///   - index: the 31-bit index of the next SRTCP packet.
    ///   - ssrc: the stream.
    /// - Throws: ``SRTPError/tooManyStreams(limit:)``.
    public func setNextSRTCPIndex(_ index: UInt32, ssrc: UInt32) throws(SRTPError) {
        let slot = try sendingSlot(ssrc)
        sending[slot].rtcpIndex = index & 0x7FFF_FFFF
    }

    /// The index of a sent stream, made on its first packet.
    private func sendingSlot(_ ssrc: UInt32) throws(SRTPError) -> Int {
        var slot = 0
        while slot < sending.count {
            if sending[slot].ssrc == ssrc { return slot }
            slot += 1
        }
        guard sending.count < Self.streamLimit else { throw .tooManyStreams(limit: Self.streamLimit) }
        sending.append(Stream(ssrc: ssrc))
        return slot
    }

    /// The index of a received stream, or `nil` before its first authenticated packet.
    private func receivingSlot(_ ssrc: UInt32) throws(SRTPError) -> Int? {
        var slot = 0
        while slot < receiving.count {
            if receiving[slot].ssrc == ssrc { return slot }
            slot += 1
        }
        guard receiving.count < Self.streamLimit else { throw .tooManyStreams(limit: Self.streamLimit) }
        return nil
    }

    /// Stores a received stream's state after an authenticated packet.
    private func storeReceiving(_ stream: Stream, at slot: Int?) {
        if let slot { receiving[slot] = stream } else { receiving.append(stream) }
    }

    // MARK: - SRTP (RFC 3711 §3.3; RFC 7714 §8)

    /// Protects an RTP packet in place (RFC 3711 §3.3, steps 1–5 for the sender): encrypts the payload and appends
    /// the tag.
    /// - Parameters:
    ///   - buffer: holds the RTP packet at its start and has room for ``SRTPProtectionProfile/rtpOverhead`` more bytes.
    ///   - length: the RTP packet's length.
    /// - Returns: the SRTP packet's length.
    /// - Throws: ``SRTPError/tooShort(what:length:minimum:)``, ``SRTPError/malformedHeader(field:byteOffset:)``,
    ///   ``SRTPError/bufferTooSmall(needed:available:)``, ``SRTPError/indexExhausted(ssrc:)``, ``SRTPError/tooManyStreams(limit:)``.
    public func protectRTP(_ buffer: UnsafeMutableRawBufferPointer, length: Int) throws(SRTPError) -> Int {
        guard let base = buffer.baseAddress, length <= buffer.count else {
            throw .bufferTooSmall(needed: length, available: buffer.count)
        }
        let header = try RTPHeaderSize.rtp(base, length: length)
        let total = length + profile.rtpOverhead
        guard total <= buffer.count else { throw .bufferTooSmall(needed: total, available: buffer.count) }
        let sequence = RTPHeaderSize.uint16(base, at: 2)
        let ssrc = RTPHeaderSize.uint32(base, at: 8)
        let slot = try sendingSlot(ssrc)
        let (roc, index) = sending[slot].counter.estimate(sequence)
        guard index < (1 << 48) - 1 else { throw .indexExhausted(ssrc: ssrc) }
        sending[slot].counter.update(index: index)
        #if OpenSSL
        do {
            let iv = scratch
            switch profile {
            case .aes128CounterModeHMACSHA1_80:
                counterModeIV(iv, salt: keys.rtp.salt, ssrc: ssrc, index: index)
                guard rtpCounterMode!.apply(iv: iv, to: base + header, count: length - header),
                      rtpHMAC!.tag(UnsafeRawBufferPointer(start: base, count: length), suffix: roc, into: base + length,
                                   length: profile.tagLength)
                else { throw .cipherFailed(operation: "SRTP protect") }
            case .aeadAES128GCM:
                gcmRTPIV(iv, salt: keys.rtp.salt, ssrc: ssrc, roc: roc, sequence: sequence)
                guard rtpGCM!.seal(iv: iv, aad: UnsafeRawBufferPointer(start: base, count: header), aad2: nil,
                                   data: base + header, count: length - header, tag: base + length)
                else { throw .cipherFailed(operation: "SRTP GCM protect") }
            }
        }
        #endif
        return total
    }

    /// Unprotects an SRTP packet in place (RFC 3711 §3.3, steps 1–7 for the receiver): estimates its index, checks
    /// the replay window, authenticates, decrypts, then moves the ROC and the window. A packet that fails changes no
    /// state; with GCM its payload bytes in `buffer` are then garbage (decryption and the tag check are one step).
    /// - Parameters:
    ///   - buffer: holds the SRTP packet at its start.
    ///   - length: the SRTP packet's length.
    /// - Returns: the length of the RTP packet now at the start of `buffer`.
    /// - Throws: ``SRTPError/tooShort(what:length:minimum:)``, ``SRTPError/malformedHeader(field:byteOffset:)``,
    ///   ``SRTPError/authenticationFailed(ssrc:index:)``, ``SRTPError/replayed(ssrc:index:)``,
    ///   ``SRTPError/outsideReplayWindow(ssrc:index:highest:)``, ``SRTPError/tooManyStreams(limit:)``.
    public func unprotectRTP(_ buffer: UnsafeMutableRawBufferPointer, length: Int) throws(SRTPError) -> Int {
        guard let base = buffer.baseAddress, length <= buffer.count else {
            throw .bufferTooSmall(needed: length, available: buffer.count)
        }
        let tagLength = profile.tagLength
        guard length >= 12 + tagLength else {
            throw .tooShort(what: "RTP header and SRTP tag", length: length, minimum: 12 + tagLength)
        }
        let plainLength = length - tagLength
        let header = try RTPHeaderSize.rtp(base, length: plainLength)
        let sequence = RTPHeaderSize.uint16(base, at: 2)
        let ssrc = RTPHeaderSize.uint32(base, at: 8)
        let slot = try receivingSlot(ssrc)
        let stream = slot.map { receiving[$0] } ?? Stream(ssrc: ssrc)
        let (roc, index) = stream.counter.estimate(sequence)
        switch stream.window.check(index) {
        case .fresh: break
        case .replayed: throw .replayed(ssrc: ssrc, index: index)
        case .tooOld: throw .outsideReplayWindow(ssrc: ssrc, index: index, highest: stream.window.highest ?? 0)
        }
        #if OpenSSL
        do {
            let iv = scratch
            let computed = scratch + 16
            switch profile {
            case .aes128CounterModeHMACSHA1_80:
                guard rtpHMAC!.tag(UnsafeRawBufferPointer(start: base, count: plainLength), suffix: roc, into: computed,
                                   length: tagLength)
                else { throw .cipherFailed(operation: "SRTP HMAC") }
                guard Self.constantTimeEqual(computed, base + plainLength, count: tagLength) else {
                    throw .authenticationFailed(ssrc: ssrc, index: index)
                }
                counterModeIV(iv, salt: keys.rtp.salt, ssrc: ssrc, index: index)
                guard rtpCounterMode!.apply(iv: iv, to: base + header, count: plainLength - header) else {
                    throw .cipherFailed(operation: "SRTP decrypt")
                }
            case .aeadAES128GCM:
                gcmRTPIV(iv, salt: keys.rtp.salt, ssrc: ssrc, roc: roc, sequence: sequence)
                guard rtpGCM!.open(iv: iv, aad: UnsafeRawBufferPointer(start: base, count: header), aad2: nil,
                                   data: base + header, count: plainLength - header, tag: base + plainLength)
                else { throw .authenticationFailed(ssrc: ssrc, index: index) }
            }
        }
        #endif
        var updated = stream
        updated.counter.update(index: index)
        updated.window.accept(index)
        storeReceiving(updated, at: slot)
        return plainLength
    }

    // MARK: - SRTCP (RFC 3711 §3.4; RFC 7714 §9)

    /// Protects an RTCP compound packet in place (RFC 3711 §3.4): encrypts all after the first 8 bytes, appends
    /// `E || SRTCP index` and the tag (for GCM: the tag, then `E || SRTCP index`, RFC 7714 §9.2).
    /// - Parameters:
    ///   - buffer: holds the RTCP packet at its start and has room for ``SRTPProtectionProfile/rtcpOverhead`` more bytes.
    ///   - length: the RTCP packet's length.
    /// - Returns: the SRTCP packet's length.
    /// - Throws: ``SRTPError/tooShort(what:length:minimum:)``, ``SRTPError/malformedHeader(field:byteOffset:)``,
    ///   ``SRTPError/bufferTooSmall(needed:available:)``, ``SRTPError/indexExhausted(ssrc:)``.
    public func protectRTCP(_ buffer: UnsafeMutableRawBufferPointer, length: Int) throws(SRTPError) -> Int {
        guard let base = buffer.baseAddress, length <= buffer.count else {
            throw .bufferTooSmall(needed: length, available: buffer.count)
        }
        guard length >= 8 else { throw .tooShort(what: "RTCP header", length: length, minimum: 8) }
        guard base.load(as: UInt8.self) >> 6 == 2 else { throw .malformedHeader(field: "RTCP version", byteOffset: 0) }
        let total = length + profile.rtcpOverhead
        guard total <= buffer.count else { throw .bufferTooSmall(needed: total, available: buffer.count) }
        let ssrc = RTPHeaderSize.uint32(base, at: 4)
        let slot = try sendingSlot(ssrc)
        let index = sending[slot].rtcpIndex
        guard index <= 0x7FFF_FFFF else { throw .indexExhausted(ssrc: ssrc) }
        sending[slot].rtcpIndex = index + 1
        let trailer = 0x8000_0000 | index
        #if OpenSSL
        do {
            let iv = scratch
            switch profile {
            case .aes128CounterModeHMACSHA1_80:
                counterModeIV(iv, salt: keys.rtcp.salt, ssrc: ssrc, index: UInt64(index))
                RTPHeaderSize.store(trailer, base, at: length)
                guard rtcpCounterMode!.apply(iv: iv, to: base + 8, count: length - 8),
                      rtcpHMAC!.tag(UnsafeRawBufferPointer(start: base, count: length + 4), suffix: nil,
                                    into: base + length + 4, length: profile.tagLength)
                else { throw .cipherFailed(operation: "SRTCP protect") }
            case .aeadAES128GCM:
                gcmRTCPIV(iv, salt: keys.rtcp.salt, ssrc: ssrc, index: index)
                RTPHeaderSize.store(trailer, base, at: length + 16)
                guard rtcpGCM!.seal(iv: iv, aad: UnsafeRawBufferPointer(start: base, count: 8),
                                    aad2: UnsafeRawBufferPointer(start: base + length + 16, count: 4),
                                    data: base + 8, count: length - 8, tag: base + length)
                else { throw .cipherFailed(operation: "SRTCP GCM protect") }
            }
        }
        #endif
        return total
    }

    /// Unprotects an SRTCP packet in place (RFC 3711 §3.4; RFC 7714 §9.3): checks the replay window on the SRTCP
    /// index, authenticates, and decrypts when the E flag is set.
    /// - Parameters:
    ///   - buffer: holds the SRTCP packet at its start.
    ///   - length: the SRTCP packet's length.
    /// - Returns: the length of the RTCP packet now at the start of `buffer`.
    /// - Throws: ``SRTPError/tooShort(what:length:minimum:)``, ``SRTPError/malformedHeader(field:byteOffset:)``,
    ///   ``SRTPError/authenticationFailed(ssrc:index:)``, ``SRTPError/replayed(ssrc:index:)``,
    ///   ``SRTPError/outsideReplayWindow(ssrc:index:highest:)``, ``SRTPError/tooManyStreams(limit:)``.
    public func unprotectRTCP(_ buffer: UnsafeMutableRawBufferPointer, length: Int) throws(SRTPError) -> Int {
        guard let base = buffer.baseAddress, length <= buffer.count else {
            throw .bufferTooSmall(needed: length, available: buffer.count)
        }
        let overhead = profile.rtcpOverhead
        guard length >= 8 + overhead else {
            throw .tooShort(what: "RTCP header and SRTCP trailer", length: length, minimum: 8 + overhead)
        }
        guard base.load(as: UInt8.self) >> 6 == 2 else { throw .malformedHeader(field: "RTCP version", byteOffset: 0) }
        let plainLength = length - overhead
        let ssrc = RTPHeaderSize.uint32(base, at: 4)
        let trailerOffset = profile == .aeadAES128GCM ? length - 4 : plainLength
        let trailer = RTPHeaderSize.uint32(base, at: trailerOffset)
        let encrypted = trailer & 0x8000_0000 != 0
        let index = trailer & 0x7FFF_FFFF
        let slot = try receivingSlot(ssrc)
        let stream = slot.map { receiving[$0] } ?? Stream(ssrc: ssrc)
        switch stream.rtcpWindow.check(UInt64(index)) {
        case .fresh: break
        case .replayed: throw .replayed(ssrc: ssrc, index: UInt64(index))
        case .tooOld: throw .outsideReplayWindow(ssrc: ssrc, index: UInt64(index), highest: stream.rtcpWindow.highest ?? 0)
        }
        #if OpenSSL
        do {
            let iv = scratch
            let computed = scratch + 16
            switch profile {
            case .aes128CounterModeHMACSHA1_80:
                let tagLength = profile.tagLength
                guard rtcpHMAC!.tag(UnsafeRawBufferPointer(start: base, count: length - tagLength), suffix: nil,
                                    into: computed, length: tagLength)
                else { throw .cipherFailed(operation: "SRTCP HMAC") }
                guard Self.constantTimeEqual(computed, base + length - tagLength, count: tagLength) else {
                    throw .authenticationFailed(ssrc: ssrc, index: UInt64(index))
                }
                if encrypted {
                    counterModeIV(iv, salt: keys.rtcp.salt, ssrc: ssrc, index: UInt64(index))
                    guard rtcpCounterMode!.apply(iv: iv, to: base + 8, count: plainLength - 8) else {
                        throw .cipherFailed(operation: "SRTCP decrypt")
                    }
                }
            case .aeadAES128GCM:
                gcmRTCPIV(iv, salt: keys.rtcp.salt, ssrc: ssrc, index: index)
                let trailerBytes = UnsafeRawBufferPointer(start: base + length - 4, count: 4)
                // E = 0: the whole packet is associated data and only authenticated (RFC 7714 §9.3).
                let ok = encrypted
                    ? rtcpGCM!.open(iv: iv, aad: UnsafeRawBufferPointer(start: base, count: 8), aad2: trailerBytes,
                                    data: base + 8, count: plainLength - 8, tag: base + plainLength)
                    : rtcpGCM!.open(iv: iv, aad: UnsafeRawBufferPointer(start: base, count: plainLength), aad2: trailerBytes,
                                    data: base + plainLength, count: 0, tag: base + plainLength)
                guard ok else { throw .authenticationFailed(ssrc: ssrc, index: UInt64(index)) }
            }
        }
        #endif
        var updated = stream
        updated.rtcpWindow.accept(UInt64(index))
        storeReceiving(updated, at: slot)
        return plainLength
    }

    // MARK: - Initialisation vectors

    /// The AES-CM counter block `(k_s × 2^16) XOR (SSRC × 2^64) XOR (i × 2^16)` (RFC 3711 §4.1.1).
    @inline(__always)
    private func counterModeIV(_ iv: UnsafeMutableRawPointer, salt: [UInt8], ssrc: UInt32, index: UInt64) {
        iv.initializeMemory(as: UInt8.self, repeating: 0, count: 16)
        salt.withUnsafeBytes { iv.copyMemory(from: $0.baseAddress!, byteCount: 14) }
        let bytes = iv.assumingMemoryBound(to: UInt8.self)
        for shift in 0..<4 { bytes[4 + shift] ^= UInt8(truncatingIfNeeded: ssrc >> (24 - 8 * shift)) }
        for shift in 0..<6 { bytes[8 + shift] ^= UInt8(truncatingIfNeeded: index >> (40 - 8 * shift)) }
    }

    /// The GCM IV of SRTP: `(00 00 || SSRC || ROC || SEQ) XOR salt` (RFC 7714 §8.1).
    @inline(__always)
    private func gcmRTPIV(_ iv: UnsafeMutableRawPointer, salt: [UInt8], ssrc: UInt32, roc: UInt32, sequence: UInt16) {
        salt.withUnsafeBytes { iv.copyMemory(from: $0.baseAddress!, byteCount: 12) }
        let bytes = iv.assumingMemoryBound(to: UInt8.self)
        for shift in 0..<4 {
            bytes[2 + shift] ^= UInt8(truncatingIfNeeded: ssrc >> (24 - 8 * shift))
            bytes[6 + shift] ^= UInt8(truncatingIfNeeded: roc >> (24 - 8 * shift))
        }
        bytes[10] ^= UInt8(truncatingIfNeeded: sequence >> 8)
        bytes[11] ^= UInt8(truncatingIfNeeded: sequence)
    }

    /// The GCM IV of SRTCP: `(00 00 || SSRC || 00 00 || 0 || SRTCP index) XOR salt` (RFC 7714 §9.1).
    @inline(__always)
    private func gcmRTCPIV(_ iv: UnsafeMutableRawPointer, salt: [UInt8], ssrc: UInt32, index: UInt32) {
        salt.withUnsafeBytes { iv.copyMemory(from: $0.baseAddress!, byteCount: 12) }
        let bytes = iv.assumingMemoryBound(to: UInt8.self)
        for shift in 0..<4 {
            bytes[2 + shift] ^= UInt8(truncatingIfNeeded: ssrc >> (24 - 8 * shift))
            bytes[8 + shift] ^= UInt8(truncatingIfNeeded: index >> (24 - 8 * shift))
        }
    }

    /// Compares two tags without an early exit.
    @inline(__always)
    private static func constantTimeEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        var difference: UInt8 = 0
        for offset in 0..<count {
            difference |= a.load(fromByteOffset: offset, as: UInt8.self) ^ b.load(fromByteOffset: offset, as: UInt8.self)
        }
        return difference == 0
    }
}
