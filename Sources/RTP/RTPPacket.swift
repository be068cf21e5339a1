import Bitstream

/// One RTP data packet (RFC 3550 §5.1): the fixed header, the CSRC list, an optional header extension
/// (§5.3.1) and the payload.
///
/// Parsing never copies: the payload, the CSRC list and the extension data are views into the datagram
/// the packet was read from. ``write(into:)`` serialises the packet into a caller's buffer.
///
/// ```swift
/// let packet = try RTPPacket(parsing: ByteView(datagram))
/// print(packet.sequenceNumber, packet.timestamp, packet.payload.count)
/// ```
public struct RTPPacket: Sendable, Hashable {
    /// The size of the fixed header in bytes.
    public static let fixedHeaderSize = 12

    /// The M bit: for video, the last packet of an access unit (RFC 6184 §5.1, RFC 7798 §4.1).
    public var marker: Bool
    /// The payload type, 0 through 127 (dynamic types are 96…127).
    public var payloadType: UInt8
    /// The sequence number: one more for each packet sent, modulo 2^16.
    public var sequenceNumber: UInt16
    /// The sampling instant of the payload, in the payload format's clock (90 kHz for video).
    public var timestamp: UInt32
    /// The synchronisation source identifier.
    public var ssrc: UInt32
    /// The contributing sources, as 4-byte big-endian identifiers (a view of the packet's CSRC list).
    public var csrcList: ByteView
    /// The header extension, when the X bit is set.
    public var headerExtension: HeaderExtension?
    /// The payload (padding excluded).
    public var payload: ByteView
    /// How many padding bytes follow the payload (0 when the P bit is clear).
    public var paddingCount: Int

    /// A header extension (RFC 3550 §5.3.1): a 16-bit profile-defined identifier and data in 32-bit words.
    public struct HeaderExtension: Sendable, Hashable {
        /// The profile-defined identifier (0xBEDE for RFC 8285 one-byte headers, for example).
        public var profile: UInt16
        /// The extension data; its size is a multiple of 4.
        public var data: ByteView

        /// An extension.
        /// - Parameters:
        ///   - profile: the identifier.
        ///   - data: the data; a multiple of 4 bytes.
        public init(profile: UInt16, data: ByteView) {
            self.profile = profile
            self.data = data
        }
    }

    /// A packet to send.
    /// - Parameters:
    ///   - marker: the M bit.
    ///   - payloadType: 0 through 127.
    ///   - sequenceNumber: the sequence number.
    ///   - timestamp: the RTP timestamp.
    ///   - ssrc: the synchronisation source.
    ///   - payload: the payload bytes.
    public init(marker: Bool, payloadType: UInt8, sequenceNumber: UInt16, timestamp: UInt32, ssrc: UInt32,
                payload: ByteView) {
        self.marker = marker
        self.payloadType = payloadType & 0x7F
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.ssrc = ssrc
        self.csrcList = ByteView()
        self.headerExtension = nil
        self.payload = payload
        self.paddingCount = 0
    }

    /// Parses a packet (RFC 3550 §5.1, §5.3.1).
    /// - Parameter datagram: one UDP datagram, or one RTP packet out of an interleaved TCP frame.
    /// - Throws: ``RTPError`` for an empty or short packet, a version other than 2, a CSRC list or header
    ///   extension past the end, or a padding count larger than what follows the header.
    public init(parsing datagram: ByteView) throws(RTPError) {
        let size = datagram.count
        guard size > 0 else { throw .empty }
        guard size >= Self.fixedHeaderSize,
              let first = datagram.getByte(at: 0), let second = datagram.getByte(at: 1),
              let sequence = datagram.getInteger(at: 2, as: UInt16.self),
              let timestamp = datagram.getInteger(at: 4, as: UInt32.self),
              let ssrc = datagram.getInteger(at: 8, as: UInt32.self)
        else { throw .truncatedHeader(count: size) }
        let version = first >> 6
        guard version == 2 else { throw .unsupportedVersion(version) }
        let csrcCount = Int(first & 0x0F)
        var offset = Self.fixedHeaderSize + 4 * csrcCount
        guard offset <= size, let csrcs = datagram.getView(at: Self.fixedHeaderSize, byteCount: 4 * csrcCount)
        else { throw .csrcListPastEnd(csrcCount: csrcCount, packetSize: size) }
        var headerExtension: HeaderExtension?
        if first & 0x10 != 0 {
            guard let profile = datagram.getInteger(at: offset, as: UInt16.self),
                  let words = datagram.getInteger(at: offset + 2, as: UInt16.self)
            else { throw .extensionPastEnd(byteOffset: offset, declaredSize: 4, packetSize: size) }
            let byteCount = 4 * Int(words)
            guard let data = datagram.getView(at: offset + 4, byteCount: byteCount)
            else { throw .extensionPastEnd(byteOffset: offset, declaredSize: 4 + byteCount, packetSize: size) }
            headerExtension = HeaderExtension(profile: profile, data: data)
            offset += 4 + byteCount
        }
        var end = size
        var paddingCount = 0
        if first & 0x20 != 0 {
            paddingCount = Int(datagram.getByte(at: size - 1) ?? 0)
            guard paddingCount > 0, paddingCount <= size - offset
            else { throw .invalidPadding(paddingCount: paddingCount, available: size - offset) }
            end -= paddingCount
        }
        self.marker = second & 0x80 != 0
        self.payloadType = second & 0x7F
        self.sequenceNumber = sequence
        self.timestamp = timestamp
        self.ssrc = ssrc
        self.csrcList = csrcs
        self.headerExtension = headerExtension
        self.payload = datagram.getView(in: offset..<end) ?? ByteView()
        self.paddingCount = paddingCount
    }

    /// The number of contributing sources in ``csrcList``.
    public var csrcCount: Int { csrcList.count / 4 }

    /// The contributing source at `index`, or `nil` past the end of the list.
    /// - Parameter index: 0 through ``csrcCount`` − 1.
    /// - Returns: the identifier.
    public func csrc(at index: Int) -> UInt32? {
        csrcList.getInteger(at: 4 * index, as: UInt32.self)
    }

    /// The size of the header (fixed header, CSRC list and extension) in bytes.
    public var headerSize: Int {
        Self.fixedHeaderSize + csrcList.count / 4 * 4 + (headerExtension.map { 4 + $0.data.count / 4 * 4 } ?? 0)
    }

    /// The size of the whole packet when written: header, payload and padding.
    public var serializedSize: Int { headerSize + payload.count + paddingCount }

    /// Writes the packet (RFC 3550 §5.1) at the start of `buffer`.
    /// - Parameter buffer: where to write; at least ``serializedSize`` bytes.
    /// - Returns: the number of bytes written (``serializedSize``).
    /// - Throws: ``RTPError/bufferTooSmall(needed:available:)``, or ``RTPError/fieldOutOfRange(field:value:)``
    ///   for more than 15 CSRCs, extension data longer than 65535 words, or a padding count over 255.
    @discardableResult
    public func write(into buffer: UnsafeMutableRawBufferPointer) throws(RTPError) -> Int {
        let csrcCount = csrcList.count / 4
        guard csrcCount <= 15 else { throw .fieldOutOfRange(field: "CSRC count", value: csrcCount) }
        guard paddingCount <= 255, paddingCount >= 0 else {
            throw .fieldOutOfRange(field: "padding count", value: paddingCount)
        }
        let extensionWords = (headerExtension?.data.count ?? 0) / 4
        guard extensionWords <= 0xFFFF else { throw .fieldOutOfRange(field: "extension length", value: extensionWords) }
        let needed = serializedSize
        guard buffer.count >= needed, let base = buffer.baseAddress else {
            throw .bufferTooSmall(needed: needed, available: buffer.count)
        }
        var first: UInt8 = 0x80 | UInt8(csrcCount)
        if paddingCount > 0 { first |= 0x20 }
        if headerExtension != nil { first |= 0x10 }
        RTPHeaderWriter.writeFixedHeader(at: base, first: first, marker: marker, payloadType: payloadType,
                                         sequenceNumber: sequenceNumber, timestamp: timestamp, ssrc: ssrc)
        var offset = Self.fixedHeaderSize
        csrcList.withUnsafeBytes { bytes in
            if csrcCount > 0, let source = bytes.baseAddress {
                (base + offset).copyMemory(from: source, byteCount: 4 * csrcCount)
            }
        }
        offset += 4 * csrcCount
        if let headerExtension {
            RTPHeaderWriter.storeBigEndian(headerExtension.profile, at: base + offset)
            RTPHeaderWriter.storeBigEndian(UInt16(extensionWords), at: base + offset + 2)
            offset += 4
            headerExtension.data.withUnsafeBytes { bytes in
                if extensionWords > 0, let source = bytes.baseAddress {
                    (base + offset).copyMemory(from: source, byteCount: 4 * extensionWords)
                }
            }
            offset += 4 * extensionWords
        }
        payload.withUnsafeBytes { bytes in
            if let source = bytes.baseAddress, !bytes.isEmpty {
                (base + offset).copyMemory(from: source, byteCount: bytes.count)
            }
        }
        offset += payload.count
        if paddingCount > 0 {
            (base + offset).initializeMemory(as: UInt8.self, repeating: 0, count: paddingCount - 1)
            base.storeBytes(of: UInt8(paddingCount), toByteOffset: offset + paddingCount - 1, as: UInt8.self)
            offset += paddingCount
        }
        return offset
    }

    /// The packet as a fresh array of bytes (one allocation; for tests and simple senders).
    /// - Returns: the serialised packet.
    public func serialized() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: serializedSize)
        let written = bytes.withUnsafeMutableBytes { buffer in (try? write(into: buffer)) ?? 0 }
        return Array(bytes.prefix(written))
    }
}

/// Writes the 12-byte fixed header: shared by ``RTPPacket`` and the packetizers' hot paths.
enum RTPHeaderWriter {
    /// Writes version, flags, marker, payload type, sequence number, timestamp and SSRC at `base`.
    @inline(__always)
    static func writeFixedHeader(at base: UnsafeMutableRawPointer, first: UInt8, marker: Bool, payloadType: UInt8,
                                 sequenceNumber: UInt16, timestamp: UInt32, ssrc: UInt32) {
        base.storeBytes(of: first, toByteOffset: 0, as: UInt8.self)
        base.storeBytes(of: (marker ? 0x80 : 0) | (payloadType & 0x7F), toByteOffset: 1, as: UInt8.self)
        storeBigEndian(sequenceNumber, at: base + 2)
        storeBigEndian(timestamp, at: base + 4)
        storeBigEndian(ssrc, at: base + 8)
    }

    /// Stores `value` big-endian at `pointer` (unaligned).
    @inline(__always)
    static func storeBigEndian<Integer: FixedWidthInteger>(_ value: Integer, at pointer: UnsafeMutableRawPointer) {
        pointer.storeBytes(of: value.bigEndian, as: Integer.self)
    }
}
