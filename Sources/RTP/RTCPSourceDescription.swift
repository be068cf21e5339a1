import Bitstream

/// A source description, SDES, packet type 202 (RFC 3550 §6.5): chunks of items (CNAME, NAME, TOOL …)
/// about sources. Every compound packet carries the sender's CNAME, which ties its streams together.
public struct RTCPSourceDescription: Sendable, Hashable {
    /// The RTCP packet type.
    public static let packetType: UInt8 = 202

    /// An SDES item type (RFC 3550 §6.5.1-§6.5.8).
    public struct ItemType: RawRepresentable, Sendable, Hashable {
        /// The type number, 1...255 (0 ends a chunk's item list).
        public var rawValue: UInt8
        /// Creates a type.
        /// - Parameter rawValue: the number.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// CNAME: the canonical end-point identifier.
        public static let canonicalName = ItemType(rawValue: 1)
        /// NAME: the user name.
        public static let name = ItemType(rawValue: 2)
        /// EMAIL.
        public static let email = ItemType(rawValue: 3)
        /// PHONE.
        public static let phone = ItemType(rawValue: 4)
        /// LOC: geographic location.
        public static let location = ItemType(rawValue: 5)
        /// TOOL: the application or tool name.
        public static let tool = ItemType(rawValue: 6)
        /// NOTE.
        public static let note = ItemType(rawValue: 7)
        /// PRIV: private extension.
        public static let `private` = ItemType(rawValue: 8)
    }

    /// One item: a type and up to 255 bytes of text (UTF-8).
    public struct Item: Sendable, Hashable {
        /// The item type.
        public var type: ItemType
        /// The bytes as they travel.
        public var value: ByteView

        /// Creates an item.
        /// - Parameters:
        ///   - type: the type.
        ///   - value: its bytes (at most 255).
        public init(type: ItemType, value: ByteView) {
            self.type = type
            self.value = value
        }

        /// Creates an item from text.
        /// - Parameters:
        ///   - type: the type.
        ///   - text: its text (UTF-8, at most 255 bytes).
        public init(type: ItemType, text: String) {
            self.init(type: type, value: ByteView(Array(text.utf8)))
        }

        /// The value as UTF-8 text (invalid bytes replaced).
        public var text: String { String(decoding: value, as: UTF8.self) }
    }

    /// The items about one source.
    public struct Chunk: Sendable, Hashable {
        /// The source (SSRC or CSRC).
        public var ssrc: UInt32
        /// Its items.
        public var items: [Item]

        /// Creates a chunk.
        /// - Parameters:
        ///   - ssrc: the source.
        ///   - items: its items.
        public init(ssrc: UInt32, items: [Item]) {
            self.ssrc = ssrc
            self.items = items
        }

        /// The CNAME item's text, if present.
        public var canonicalName: String? { items.first { $0.type == .canonicalName }?.text }
    }

    /// The chunks (at most 31).
    public var chunks: [Chunk]

    /// Creates a description.
    /// - Parameter chunks: the chunks.
    public init(chunks: [Chunk]) {
        self.chunks = chunks
    }

    /// The usual SDES: one chunk with the CNAME of `ssrc`.
    /// - Parameters:
    ///   - ssrc: the source.
    ///   - canonicalName: its CNAME, for example `streamkit@127.0.0.1`.
    public init(ssrc: UInt32, canonicalName: String) {
        self.init(chunks: [Chunk(ssrc: ssrc, items: [Item(type: .canonicalName, text: canonicalName)])])
    }

    /// Reads the body: `count` chunks, each SSRC, items, a null item, zero padding to 32 bits.
    init(body: ByteView, count: Int, offset: Int) throws(RTCPError) {
        var chunks: [Chunk] = []
        chunks.reserveCapacity(count)
        var index = 0
        for _ in 0..<count {
            guard let ssrc = body.getInteger(at: index, as: UInt32.self) else {
                throw .countPastEnd(offset: offset, packetType: Self.packetType, count: count)
            }
            index += 4
            var items: [Item] = []
            while true {
                guard let type = body.getByte(at: index) else { throw .sourceDescriptionPastEnd(offset: offset) }
                if type == 0 {
                    index = (index + 4) & ~3
                    guard index <= body.count else { throw .sourceDescriptionPastEnd(offset: offset) }
                    break
                }
                guard let length = body.getByte(at: index + 1),
                      let value = body.getView(at: index + 2, byteCount: Int(length)) else {
                    throw .sourceDescriptionPastEnd(offset: offset)
                }
                items.append(Item(type: ItemType(rawValue: type), value: value))
                index += 2 + Int(length)
            }
            chunks.append(Chunk(ssrc: ssrc, items: items))
        }
        self.init(chunks: chunks)
    }

    func write(to writer: inout RTCPWriter) throws(RTCPError) {
        guard chunks.count <= 31 else { throw .unrepresentable(field: "SDES chunks", value: chunks.count, limit: 31) }
        for chunk in chunks {
            for item in chunk.items where item.value.count > 255 || item.type.rawValue == 0 {
                throw .unrepresentable(field: "SDES item length", value: item.value.count, limit: 255)
            }
        }
        writer.packet(count: chunks.count, packetType: Self.packetType) { writer in
            for chunk in chunks {
                writer.append(chunk.ssrc)
                var length = 0
                for item in chunk.items {
                    writer.append(item.type.rawValue)
                    writer.append(UInt8(item.value.count))
                    writer.append(contentsOf: item.value)
                    length += 2 + item.value.count
                }
                // At least one null octet ends the list, then nulls up to the next 32-bit boundary.
                let padding = 4 - length % 4
                writer.append(contentsOf: repeatElement(UInt8(0), count: padding))
            }
        }
    }
}
