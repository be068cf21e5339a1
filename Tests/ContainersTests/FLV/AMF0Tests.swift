import Bitstream
import Containers
import Testing

/// AMF0 values against the byte layouts of the AMF0 specification (§2), round trips, and hostile input:
/// every fault is an ``AMF0Error`` naming its offset, never a crash or a large allocation.
@Suite("AMF0")
struct AMF0Tests {
    /// The layouts of §2.2 (number), §2.3 (boolean), §2.4 (string), §2.5 (object), §2.7 (null),
    /// §2.10 (ECMA array), §2.12 (strict array), §2.13 (date), §2.14 (long string), written out by hand.
    @Test func encodesTheSpecificationsLayouts() throws {
        #expect(try AMF0Value.encode([1]) == [0x00, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0])
        #expect(try AMF0Value.encode([true, false]) == [0x01, 0x01, 0x01, 0x00])
        #expect(try AMF0Value.encode(["ab"]) == [0x02, 0x00, 0x02, 0x61, 0x62])
        #expect(try AMF0Value.encode([["a": .null]]) == [0x03, 0x00, 0x01, 0x61, 0x05, 0x00, 0x00, 0x09])
        #expect(try AMF0Value.encode([.ecmaArray(["x": 2])]) ==
                [0x08, 0, 0, 0, 1, 0x00, 0x01, 0x78, 0x00, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x09])
        #expect(try AMF0Value.encode([[.undefined, "c"]]) == [0x0A, 0, 0, 0, 2, 0x06, 0x02, 0x00, 0x01, 0x63])
        #expect(try AMF0Value.encode([.date(millisecondsSince1970: 0, timeZone: 0)]) == [0x0B] + [UInt8](repeating: 0, count: 10))
        #expect(try AMF0Value.encode([.longString("z")]) == [0x0C, 0, 0, 0, 1, 0x7A])
    }

    /// A string past 65 535 bytes cannot have a U16 length: it goes out as a long string (§2.14).
    @Test func aLongStringValueIsWrittenAsALongString() throws {
        let text = String(repeating: "a", count: 70_000)
        let bytes = try AMF0Value.encode([.string(text)])
        #expect(bytes.prefix(5) == [0x0C, 0x00, 0x01, 0x11, 0x70])
        #expect(try AMF0Decoder().decodeValues(from: ByteView(bytes)) == [.longString(text)])
    }

    /// What an RTMP client's `connect` carries, through encode and decode, with the accessors a caller uses.
    @Test func roundTripsACommandAndReadsItsFields() throws {
        let command: [AMF0Value] = [
            "connect", 1,
            ["app": "live", "type": "nonprivate", "flashVer": "FMLE/3.0", "tcUrl": "rtmp://127.0.0.1:1935/live",
             "fourCcList": ["hvc1", "avc1"], "videoCodecs": 0x80, "capsEx": .number(0)],
            .null, .undefined, .typedObject(className: "flash.Thing", ["é": "ünïcode"]),
            .xmlDocument("<a/>"), .unsupported, .date(millisecondsSince1970: 1.7e12, timeZone: -60),
            .ecmaArray(["duration": 12.5, "stereo": true]), .number(-0.0), .number(.infinity),
        ]
        let bytes = try AMF0Value.encode(command)
        let decoded = try AMF0Decoder().decodeValues(from: ByteView(bytes))
        #expect(decoded == command)
        #expect(try AMF0Value.encode(decoded) == bytes)
        #expect(decoded[0].string == "connect")
        #expect(decoded[1].integer == 1)
        #expect(decoded[2]["app"]?.string == "live")
        #expect(decoded[2]["fourCcList"]?.array?.compactMap(\.string) == ["hvc1", "avc1"])
        #expect(decoded[2]["missing"] == nil)
        #expect(decoded[3].isNullOrUndefined && decoded[4].isNullOrUndefined)
        #expect(decoded[9]["stereo"]?.boolean == true)
        #expect(decoded[9].object?.keys == ["duration", "stereo"])
    }

    /// `decodeValue(from:)` reads one value and moves the reader index past it only.
    @Test func decodingOneValueMovesPastIt() throws {
        var view = ByteView(try AMF0Value.encode(["first", 2]))
        #expect(try AMF0Decoder().decodeValue(from: &view) == "first")
        #expect(view.readerIndex == 8)
        #expect(try AMF0Decoder().decodeValue(from: &view) == 2)
        #expect(view.readableByteCount == 0)
    }

    /// Setting through the object subscript replaces in place, appends, and removes.
    @Test func objectSubscriptKeepsOrder() {
        var object: AMF0Object = ["a": 1, "b": 2]
        object["a"] = 3
        object["c"] = 4
        object["b"] = nil
        #expect(object.properties == [AMF0Property(key: "a", value: 3), AMF0Property(key: "c", value: 4)])
    }

    /// Objects nested 10 000 deep (and strict arrays, and ECMA arrays) stop at the depth cap, at the
    /// offset of the first value too deep.
    @Test(arguments: [AMF0TypeMarker.object, .ecmaArray, .strictArray])
    func nestingTenThousandDeepIsRefused(marker: AMF0TypeMarker) throws {
        var bytes: [UInt8] = []
        let opener: [UInt8]
        switch marker {
        case .object: opener = [0x03, 0x00, 0x01, 0x6B]  // object, property "k"
        case .ecmaArray: opener = [0x08, 0, 0, 0, 1, 0x00, 0x01, 0x6B]
        default: opener = [0x0A, 0, 0, 0, 1]  // strict array of one value
        }
        for _ in 0..<10_000 { bytes += opener }
        let limits = AMF0Limits()
        do {
            _ = try AMF0Decoder(limits: limits).decodeValues(from: ByteView(bytes))
            Issue.record("10 000 levels decoded")
        } catch {
            #expect(error.reason == .tooDeep(limit: limits.maximumDepth))
            #expect(error.offset == (limits.maximumDepth - 1) * opener.count)
        }
    }

    /// Declared lengths far past the data (a 4 GiB long string, a strict array of 4 billion values, a
    /// 64 KiB string in 10 bytes) are refused before anything is allocated for them.
    @Test func hugeDeclaredLengthsAreRefused() {
        let cases: [([UInt8], AMF0Error)] = [
            ([0x0C, 0xFF, 0xFF, 0xFF, 0xFF, 0x61], AMF0Error(.stringTooLong(byteCount: 0xFFFF_FFFF, limit: (1 << 20) - 1), offset: 1)),
            ([0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x05], AMF0Error(.truncated(field: "strict array of 4294967295 values"), offset: 1)),
            ([0x02, 0xFF, 0xFF, 0x61, 0x62], AMF0Error(.truncated(field: "string"), offset: 3)),
            ([0x0F, 0x00, 0x10, 0x00, 0x00, 0x61], AMF0Error(.stringTooLong(byteCount: 0x100000, limit: (1 << 20) - 1), offset: 1)),
        ]
        for (bytes, expected) in cases {
            #expect(throws: expected) { try AMF0Decoder(limits: AMF0Limits(maximumStringByteCount: (1 << 20) - 1)).decodeValues(from: ByteView(bytes)) }
        }
    }

    /// Every proper prefix of a valid encoding ends in an error (truncated, at or before the end), never a
    /// crash, and never a value — except where the prefix ends between two top-level values.
    @Test func truncatedAnywhereIsAnError() throws {
        let value: AMF0Value = ["a": [1, "two", ["three": .date(millisecondsSince1970: 3, timeZone: 0)]],
                                "b": .ecmaArray(["c": .longString("d")]), "e": .typedObject(className: "T", ["f": true])]
        let bytes = try AMF0Value.encode([value])
        for length in 0..<bytes.count {
            var view = ByteView(Array(bytes[0..<length]))
            do {
                _ = try AMF0Decoder().decodeValue(from: &view)
                Issue.record("a prefix of \(length) bytes decoded")
            } catch {
                guard case .truncated = error.reason else { Issue.record("prefix \(length): \(error)"); continue }
                #expect(error.offset <= length)
                #expect(view.readerIndex == 0)
            }
        }
    }

    /// Markers that AMF0 reserves or this decoder leaves out, bad UTF-8, a stray object end, and too many values.
    @Test func malformedValuesNameTheirFault() {
        let decoder = AMF0Decoder()
        #expect(throws: AMF0Error(.unknownTypeMarker(0x12), offset: 0)) { try decoder.decodeValues(from: ByteView([0x12])) }
        #expect(throws: AMF0Error(.unsupportedType(.reference), offset: 2)) { try decoder.decodeValues(from: ByteView([0x05, 0x05, 0x07, 0, 0])) }
        #expect(throws: AMF0Error(.unsupportedType(.avmPlusObject), offset: 0)) { try decoder.decodeValues(from: ByteView([0x11, 0x02])) }
        #expect(throws: AMF0Error(.invalidUTF8(field: "string"), offset: 3)) { try decoder.decodeValues(from: ByteView([0x02, 0x00, 0x01, 0xFF])) }
        #expect(throws: AMF0Error(.unexpectedObjectEnd, offset: 0)) { try decoder.decodeValues(from: ByteView([0x09])) }
        let many = [UInt8](repeating: 0x05, count: 100)
        #expect(throws: AMF0Error(.tooManyValues(limit: 10), offset: 10)) {
            try AMF0Decoder(limits: AMF0Limits(maximumValueCount: 10)).decodeValues(from: ByteView(many))
        }
    }

    /// An ECMA array whose data ends where the next name would start is complete (encoders that leave out
    /// the end marker of `onMetaData`); an object is not.
    @Test func anECMAArrayMayEndWithTheData() throws {
        let bytes: [UInt8] = [0x08, 0, 0, 0, 1, 0x00, 0x01, 0x78, 0x05]
        #expect(try AMF0Decoder().decodeValues(from: ByteView(bytes)) == [.ecmaArray(["x": .null])])
        #expect(throws: AMF0Error(.truncated(field: "property name length"), offset: 5)) {
            try AMF0Decoder().decodeValues(from: ByteView([0x03, 0x00, 0x01, 0x78, 0x05]))
        }
    }

    /// A property name past 65 535 bytes cannot be encoded; the error says so.
    @Test func aTooLongNameIsAnEncodingError() {
        let name = String(repeating: "n", count: 65_536)
        #expect(throws: AMF0Error(.keyTooLong(byteCount: 65_536), offset: 1)) { try AMF0Value.encode([.object([name: 1])]) }
    }
}
