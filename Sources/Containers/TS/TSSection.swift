/// Program-specific information sections on bytes (ISO/IEC 13818-1 §2.4.4): the program association section
/// (§2.4.4.3, Table 2-30) and the program map section (§2.4.4.8, Table 2-33), each with its `CRC_32`
/// (§2.4.4.10, Annex A).
public enum TSSection {
    /// Why a section could not be read.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The section is shorter than its fields.
        case truncated(field: String)
        /// `section_syntax_indicator` is 0 or the `table_id` is not the one expected.
        case unexpectedTable(tableID: UInt8)
        /// The `CRC_32` does not check.
        case crcMismatch
        /// `section_length` is above the 1021 bytes §2.4.4.3 and §2.4.4.8 allow.
        case sectionTooLong(Int)

        /// What is wrong, for people.
        public var description: String {
            switch self {
            case let .truncated(field): return "section cut off in \(field)"
            case let .unexpectedTable(id): return "table_id 0x\(String(id, radix: 16)) is not the one expected"
            case .crcMismatch: return "CRC_32 does not match"
            case let .sectionTooLong(length): return "section_length \(length) is above 1021"
            }
        }
    }

    /// `table_id` of the program association section (Table 2-31).
    public static let programAssociationTableID: UInt8 = 0x00
    /// `table_id` of the program map section (Table 2-31).
    public static let programMapTableID: UInt8 = 0x02

    /// A program association section for one program (§2.4.4.3).
    /// - Parameters:
    ///   - transportStreamID: `transport_stream_id`.
    ///   - programs: each program's number and PMT PID.
    /// - Returns: the section from `table_id` to `CRC_32`.
    public static func programAssociation(transportStreamID: UInt16 = 1, programs: [(number: UInt16, pmtPID: UInt16)]) -> [UInt8] {
        var body: [UInt8] = []
        for program in programs {
            body += [UInt8(program.number >> 8), UInt8(program.number & 0xFF),
                     0xE0 | UInt8(program.pmtPID >> 8), UInt8(program.pmtPID & 0xFF)]
        }
        return section(tableID: programAssociationTableID, idExtension: transportStreamID, version: 0, body: body)
    }

    /// The program map section of a program (§2.4.4.8).
    /// - Parameter map: the program.
    /// - Returns: the section from `table_id` to `CRC_32`.
    public static func programMap(_ map: TSProgramMap) -> [UInt8] {
        var body: [UInt8] = [0xE0 | UInt8(map.pcrPID >> 8), UInt8(map.pcrPID & 0xFF), 0xF0, 0x00]
        for stream in map.streams {
            let infoLength = min(stream.descriptors.count, 0x3FF)
            body += [stream.streamType.rawValue, 0xE0 | UInt8(stream.pid >> 8), UInt8(stream.pid & 0xFF),
                     0xF0 | UInt8(infoLength >> 8), UInt8(infoLength & 0xFF)]
            body += stream.descriptors.prefix(infoLength)
        }
        return section(tableID: programMapTableID, idExtension: map.programNumber, version: map.version, body: body)
    }

    /// The long-form section header (`section_syntax_indicator` 1), the body and the CRC (§2.4.4.3, §2.4.4.8).
    private static func section(tableID: UInt8, idExtension: UInt16, version: UInt8, body: [UInt8]) -> [UInt8] {
        let length = 5 + body.count + 4
        var bytes: [UInt8] = [tableID, 0xB0 | UInt8(length >> 8), UInt8(length & 0xFF),
                              UInt8(idExtension >> 8), UInt8(idExtension & 0xFF),
                              0xC1 | (version & 0x1F) << 1, 0x00, 0x00]
        bytes += body
        let crc = TSCRC32.checksum(of: bytes)
        bytes += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return bytes
    }

    /// The length a section says it has: 3 + `section_length` (§2.4.4.3), `nil` before 3 bytes.
    /// - Parameter bytes: the section's first bytes.
    /// - Returns: its whole length.
    static func totalLength(of bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 3 else { return nil }
        let start = bytes.startIndex
        return 3 + (Int(bytes[start + 1] & 0x0F) << 8 | Int(bytes[start + 2]))
    }

    /// Checks a whole section's header and CRC and returns its body (after `last_section_number`, before
    /// `CRC_32`) and its version (§2.4.4.3, §2.4.4.8, §2.4.4.10).
    static func body(of bytes: ArraySlice<UInt8>, tableID: UInt8) throws(Failure) -> (idExtension: UInt16, version: UInt8, body: ArraySlice<UInt8>) {
        guard let length = totalLength(of: bytes) else { throw .truncated(field: "section_length") }
        guard length - 3 <= 1021 else { throw .sectionTooLong(length - 3) }
        guard length >= 12, bytes.count >= length else { throw .truncated(field: "section") }
        let start = bytes.startIndex
        guard bytes[start] == tableID, bytes[start + 1] & 0x80 != 0 else { throw .unexpectedTable(tableID: bytes[start]) }
        let whole = bytes[start..<start + length]
        guard TSCRC32.checksum(of: whole) == 0 else { throw .crcMismatch }
        let idExtension = UInt16(bytes[start + 3]) << 8 | UInt16(bytes[start + 4])
        let version = (bytes[start + 5] >> 1) & 0x1F
        return (idExtension, version, bytes[start + 8..<start + length - 4])
    }

    /// The programs of a program association section (§2.4.4.3): number and PMT PID, program 0 (the network
    /// PID) left out.
    /// - Parameter bytes: the whole section.
    /// - Returns: the programs.
    /// - Throws: ``Failure`` for a section that does not check.
    public static func programs(inAssociation bytes: ArraySlice<UInt8>) throws(Failure) -> [(number: UInt16, pmtPID: UInt16)] {
        let body = try body(of: bytes, tableID: programAssociationTableID).body
        var programs: [(number: UInt16, pmtPID: UInt16)] = []
        var index = body.startIndex
        while index + 4 <= body.endIndex {
            let number = UInt16(body[index]) << 8 | UInt16(body[index + 1])
            let pid = UInt16(body[index + 2] & 0x1F) << 8 | UInt16(body[index + 3])
            if number != 0 { programs.append((number, pid)) }
            index += 4
        }
        return programs
    }

    /// The program a program map section describes (§2.4.4.8).
    /// - Parameters:
    ///   - bytes: the whole section.
    ///   - pmtPID: the PID it came on.
    /// - Returns: the program map.
    /// - Throws: ``Failure`` for a section that does not check or whose loops overrun it.
    public static func programMap(in bytes: ArraySlice<UInt8>, pmtPID: UInt16) throws(Failure) -> TSProgramMap {
        let (number, version, body) = try body(of: bytes, tableID: programMapTableID)
        guard body.count >= 4 else { throw .truncated(field: "program_info_length") }
        var index = body.startIndex
        let pcrPID = UInt16(body[index] & 0x1F) << 8 | UInt16(body[index + 1])
        let infoLength = Int(body[index + 2] & 0x0F) << 8 | Int(body[index + 3])
        index += 4 + infoLength
        guard index <= body.endIndex else { throw .truncated(field: "program_info") }
        var streams: [TSProgramMap.Stream] = []
        while index + 5 <= body.endIndex {
            let type = TSStreamType(rawValue: body[index])
            let pid = UInt16(body[index + 1] & 0x1F) << 8 | UInt16(body[index + 2])
            let length = Int(body[index + 3] & 0x0F) << 8 | Int(body[index + 4])
            guard index + 5 + length <= body.endIndex else { throw .truncated(field: "ES_info") }
            streams.append(TSProgramMap.Stream(streamType: type, pid: pid, descriptors: Array(body[index + 5..<index + 5 + length])))
            index += 5 + length
        }
        return TSProgramMap(programNumber: number, pmtPID: pmtPID, version: version, pcrPID: pcrPID, streams: streams)
    }
}
