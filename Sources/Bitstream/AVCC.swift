/// Length-prefixed NAL units ("AVCC" / "HVCC" framing, ISO/IEC 14496-15 §5.3.2 / §8.3.2): each NAL unit
/// is preceded by its size as a big-endian integer of 1, 2 or 4 bytes (`lengthSizeMinusOne` + 1 in the
/// avcC/hvcC record). This is how VideoToolbox and MP4 hand out samples.
///
/// Classic trap handled here: a length of 256…511 in a 4-byte prefix is `00 00 01 xx`, which looks
/// like a start code — AVCC data must never be scanned for start codes.
public enum AVCC {
    /// A malformed length-prefixed buffer.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The length size is not 1, 2 or 4.
        case unsupportedLengthSize(Int)
        /// A length prefix is cut off at the end of the buffer.
        case truncatedLength(byteOffset: Int, nalIndex: Int)
        /// A NAL unit runs past the end of the buffer.
        case truncatedNALUnit(byteOffset: Int, nalIndex: Int, declared: Int, available: Int)
        /// A NAL unit is too large for the length size it must be written with.
        case nalUnitTooLarge(nalIndex: Int, size: Int, lengthSize: Int)

        /// What is wrong and where.
        public var description: String {
            switch self {
            case let .unsupportedLengthSize(size):
                return "AVCC length size \(size) is not 1, 2 or 4"
            case let .truncatedLength(offset, index):
                return "AVCC: length prefix of NAL unit #\(index) cut off at byte \(offset)"
            case let .truncatedNALUnit(offset, index, declared, available):
                return "AVCC: NAL unit #\(index) at byte \(offset) declares \(declared) bytes but only \(available) remain"
            case let .nalUnitTooLarge(index, size, lengthSize):
                return "AVCC: NAL unit #\(index) of \(size) bytes does not fit a \(lengthSize)-byte length"
            }
        }
    }

    /// Finds the NAL units in a length-prefixed buffer.
    /// - Parameters:
    ///   - bytes: the buffer (for example one MP4 sample).
    ///   - lengthSize: the size of each length prefix: 1, 2 or 4.
    /// - Returns: the ranges of the NAL units (prefixes excluded). Zero-length units are skipped.
    /// - Throws: ``Failure`` naming the NAL index and byte offset of a cut-off prefix or unit.
    public static func nalUnitRanges(in bytes: [UInt8], lengthSize: Int = 4) throws(Failure) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        let failure: Failure? = bytes.withUnsafeBytes { buffer in
            do throws(Failure) {
                try forEachNALUnit(in: buffer, lengthSize: lengthSize) { ranges.append($0) }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        return ranges
    }

    /// Finds the NAL units in a length-prefixed buffer and returns them as views into it (no copies).
    /// - Parameters:
    ///   - sample: the buffer (for example one MP4 sample or one encoder output).
    ///   - lengthSize: the size of each length prefix: 1, 2 or 4.
    /// - Returns: one view per NAL unit (prefix excluded), sharing `sample`'s storage. Zero-length units are skipped.
    /// - Throws: ``Failure`` naming the NAL index and byte offset of a cut-off prefix or unit.
    public static func nalUnits(in sample: ByteView, lengthSize: Int = 4) throws(Failure) -> [ByteView] {
        var units: [ByteView] = []
        try forEachNALUnit(in: sample, lengthSize: lengthSize) { units.append($0) }
        return units
    }

    /// Calls `body` with a view of every NAL unit in a length-prefixed buffer, in order, allocating nothing.
    ///
    /// The units before a malformed prefix are handed out before the error is thrown.
    /// - Parameters:
    ///   - sample: the buffer.
    ///   - lengthSize: the size of each length prefix: 1, 2 or 4.
    ///   - body: receives each NAL unit (prefix excluded), a view into `sample`.
    /// - Throws: ``Failure`` naming the NAL index and byte offset of a cut-off prefix or unit.
    public static func forEachNALUnit(
        in sample: ByteView, lengthSize: Int = 4, _ body: (ByteView) -> Void
    ) throws(Failure) {
        try sample.withUnsafeBytes { (buffer) throws(Failure) in
            try forEachNALUnit(in: buffer, lengthSize: lengthSize) { range in
                if let unit = sample.getView(in: range) { body(unit) }
            }
        }
    }

    /// Calls `body` with the range of every NAL unit in a length-prefixed buffer, in order: the one
    /// reading of the framing that every other AVCC function (and `EncodedFrame`) uses.
    ///
    /// The units before a malformed prefix are handed out before the error is thrown.
    /// - Parameters:
    ///   - buffer: the length-prefixed NAL units.
    ///   - lengthSize: the size of each length prefix: 1, 2 or 4.
    ///   - body: receives each NAL unit's range (prefix excluded); zero-length units are skipped.
    /// - Throws: ``Failure`` naming the NAL index and byte offset of a cut-off prefix or unit.
    public static func forEachNALUnit(
        in buffer: UnsafeRawBufferPointer, lengthSize: Int = 4, _ body: (Range<Int>) -> Void
    ) throws(Failure) {
        guard lengthSize == 1 || lengthSize == 2 || lengthSize == 4 else { throw .unsupportedLengthSize(lengthSize) }
        var offset = 0
        var index = 0
        let count = buffer.count
        while offset < count {
            guard offset + lengthSize <= count else { throw .truncatedLength(byteOffset: offset, nalIndex: index) }
            var length = 0
            for position in offset..<(offset + lengthSize) { length = length << 8 | Int(buffer[position]) }
            let start = offset + lengthSize
            guard length <= count - start else {
                throw .truncatedNALUnit(byteOffset: offset, nalIndex: index, declared: length, available: count - start)
            }
            if length > 0 { body(start..<(start + length)) }
            offset = start + length
            index += 1
        }
    }

    /// Converts an Annex B byte stream to length-prefixed NAL units.
    /// - Parameters:
    ///   - annexB: the byte stream (start codes, any zero padding).
    ///   - lengthSize: the size of each length prefix: 1, 2 or 4.
    /// - Returns: the NAL units, each preceded by its big-endian length.
    /// - Throws: ``Failure`` if a NAL unit does not fit the length size.
    public static func avcc(fromAnnexB annexB: [UInt8], lengthSize: Int = 4) throws(Failure) -> [UInt8] {
        try annexB.withUnsafeBytes { input in
            Result { () throws(Failure) -> [UInt8] in
                try avcc(fromAnnexB: input, nalUnits: AnnexB.nalUnitRanges(in: input), lengthSize: lengthSize)
            }
        }.get()
    }

    /// Converts an Annex B byte stream held in someone else's memory (an encoder's packet) to
    /// length-prefixed NAL units, in one copy.
    /// - Parameters:
    ///   - annexB: the byte stream.
    ///   - ranges: its NAL units, as ``AnnexB/nalUnitRanges(in:)-(UnsafeRawBufferPointer)`` finds them.
    ///   - lengthSize: the size of each length prefix: 1, 2 or 4.
    /// - Returns: the NAL units, each preceded by its big-endian length.
    /// - Throws: ``Failure`` if a NAL unit does not fit the length size.
    public static func avcc(fromAnnexB input: UnsafeRawBufferPointer, nalUnits ranges: [Range<Int>],
                            lengthSize: Int = 4) throws(Failure) -> [UInt8] {
        guard lengthSize == 1 || lengthSize == 2 || lengthSize == 4 else { throw .unsupportedLengthSize(lengthSize) }
        let limit = lengthSize == 4 ? Int(UInt32.max) : (1 << (8 * lengthSize)) - 1
        var total = 0
        for (index, range) in ranges.enumerated() {
            guard range.count <= limit else { throw .nalUnitTooLarge(nalIndex: index, size: range.count, lengthSize: lengthSize) }
            total += lengthSize + range.count
        }
        return [UInt8](unsafeUninitializedCapacity: total) { output, initialized in
            var position = 0
            for range in ranges {
                var shift = 8 * (lengthSize - 1)
                while shift >= 0 {
                    output[position] = UInt8(truncatingIfNeeded: range.count >> shift)
                    position += 1
                    shift -= 8
                }
                if let destination = output.baseAddress, let source = input.baseAddress, !range.isEmpty {
                    UnsafeMutableRawPointer(destination + position)
                        .copyMemory(from: source + range.lowerBound, byteCount: range.count)
                }
                position += range.count
            }
            initialized = total
        }
    }

    /// Converts length-prefixed NAL units to an Annex B byte stream with 4-byte start codes.
    /// - Parameters:
    ///   - avcc: the length-prefixed NAL units.
    ///   - lengthSize: the size of each length prefix: 1, 2 or 4.
    /// - Returns: the byte stream.
    /// - Throws: ``Failure`` naming the NAL index and offset of a cut-off prefix or unit.
    public static func annexB(fromAVCC avcc: [UInt8], lengthSize: Int = 4) throws(Failure) -> [UInt8] {
        let ranges = try nalUnitRanges(in: avcc, lengthSize: lengthSize)
        var output: [UInt8] = []
        output.reserveCapacity(avcc.count + ranges.count * 4)
        for range in ranges {
            output.append(contentsOf: AnnexB.startCode)
            output.append(contentsOf: avcc[range])
        }
        return output
    }

    /// Writes one NAL unit with its length prefix into `output`.
    /// - Parameters:
    ///   - nalUnit: the NAL unit (header and EBSP).
    ///   - lengthSize: the size of the length prefix: 1, 2 or 4.
    ///   - output: the buffer to append to.
    /// - Throws: ``Failure/nalUnitTooLarge(nalIndex:size:lengthSize:)`` if the unit does not fit.
    public static func append<Bytes: Collection>(_ nalUnit: Bytes, lengthSize: Int = 4, to output: inout [UInt8]) throws(Failure) where Bytes.Element == UInt8 {
        guard lengthSize == 1 || lengthSize == 2 || lengthSize == 4 else { throw .unsupportedLengthSize(lengthSize) }
        let limit = lengthSize == 4 ? Int(UInt32.max) : (1 << (8 * lengthSize)) - 1
        guard nalUnit.count <= limit else { throw .nalUnitTooLarge(nalIndex: 0, size: nalUnit.count, lengthSize: lengthSize) }
        var shift = 8 * (lengthSize - 1)
        while shift >= 0 {
            output.append(UInt8(truncatingIfNeeded: nalUnit.count >> shift))
            shift -= 8
        }
        output.append(contentsOf: nalUnit)
    }
}
