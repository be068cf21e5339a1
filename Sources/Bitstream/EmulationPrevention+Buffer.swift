#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Emulation-prevention removal into a caller-owned buffer: the allocation-free form of
// `EmulationPrevention.rbsp(fromEBSP:)` / `checkedRBSP(fromEBSP:)` for per-NAL-unit hot paths.

extension EmulationPrevention {
    /// Removes emulation-prevention bytes from (the first `limit` bytes of) an EBSP, leniently, into
    /// a buffer the caller owns and reuses.
    ///
    /// The output is what ``rbsp(fromEBSP:)`` returns for `ebsp.prefix(limit)`: every 0x03 after two
    /// zero bytes is dropped and nothing else is checked. `buffer` is emptied first with
    /// `removeAll(keepingCapacity: true)`; when it is uniquely referenced and its capacity is large
    /// enough, nothing is allocated. Keep one buffer per parser (for example in a stream detector)
    /// and pass it on every call. A ``BitReader`` made from the buffer shares its storage without
    /// copying; while such a reader (or any other copy) is alive, the next call cannot reuse the
    /// storage and allocates a new one (the copy keeps the old bytes), so let readers end with the parse.
    /// - Parameters:
    ///   - ebsp: the NAL unit payload (or the whole NAL unit).
    ///   - limit: at most this many bytes of `ebsp` are read (the rest is ignored); not negative.
    ///   - buffer: receives the RBSP, replacing what it held.
    public static func rbsp<Bytes: Collection>(
        fromEBSP ebsp: Bytes, limit: Int = .max, into buffer: inout [UInt8]
    ) where Bytes.Element == UInt8 {
        precondition(limit >= 0, "the limit of an RBSP conversion cannot be negative")
        _ = convert(ebsp, limit: limit, checked: false, into: &buffer)
    }

    /// Removes emulation-prevention bytes from (the first `limit` bytes of) an EBSP into a buffer the
    /// caller owns and reuses, and rejects an EBSP in which one is missing.
    ///
    /// The output and the error are those of ``checkedRBSP(fromEBSP:)`` for `ebsp.prefix(limit)`;
    /// bytes past `limit` are not checked. `buffer` is emptied first with
    /// `removeAll(keepingCapacity: true)`; when it is uniquely referenced and its capacity is large
    /// enough, nothing is allocated (see ``rbsp(fromEBSP:limit:into:)``).
    /// - Parameters:
    ///   - ebsp: the NAL unit payload.
    ///   - limit: at most this many bytes of `ebsp` are read (the rest is ignored); not negative.
    ///   - buffer: receives the RBSP, replacing what it held. After an error it holds the RBSP of the
    ///     bytes before the offending one.
    /// - Throws: ``Failure/missingEmulationPreventionByte(byteOffset:)`` naming the offset, within
    ///   `ebsp`, of the byte after the two zeros.
    public static func checkedRBSP<Bytes: Collection>(
        fromEBSP ebsp: Bytes, limit: Int = .max, into buffer: inout [UInt8]
    ) throws(Failure) where Bytes.Element == UInt8 {
        precondition(limit >= 0, "the limit of an RBSP conversion cannot be negative")
        if let offset = convert(ebsp, limit: limit, checked: true, into: &buffer) {
            throw .missingEmulationPreventionByte(byteOffset: offset)
        }
    }

    /// Empties `buffer` (keeping its capacity) and appends the RBSP of the first `limit` bytes of `ebsp`.
    ///
    /// The conversion behind every RBSP function of ``EmulationPrevention``. Contiguous input (arrays,
    /// array slices, buffer pointers) is read through a buffer pointer: iterating a collection from
    /// unspecialised generic code costs a heap allocation per byte (the `subscript.read` coroutine).
    /// - Parameters:
    ///   - ebsp: the EBSP.
    ///   - limit: at most this many bytes of `ebsp` are read; not negative.
    ///   - checked: whether a byte below 0x03 after two zeros (a missing emulation-prevention byte) stops the conversion.
    ///   - buffer: emptied, then receives the RBSP; reserved to the input size.
    /// - Returns: when `checked`, the offset in `ebsp` of the first byte below 0x03 that follows two
    ///   zeros (`buffer` then holds the RBSP of the bytes before it); otherwise `nil`.
    static func convert<Bytes: Collection>(
        _ ebsp: Bytes, limit: Int, checked: Bool, into buffer: inout [UInt8]
    ) -> Int? where Bytes.Element == UInt8 {
        buffer.removeAll(keepingCapacity: true)
        let contiguous: Int?? = ebsp.withContiguousStorageIfAvailable { bytes in
            let input = UnsafeBufferPointer(rebasing: bytes.prefix(limit))
            buffer.reserveCapacity(input.count)
            return appendRBSP(of: input, checked: checked, to: &buffer)
        }
        if let contiguous { return contiguous }
        let input = ebsp.prefix(limit)
        buffer.reserveCapacity(input.count)
        var zeros = 0
        var offset = 0
        for byte in input {
            defer { offset += 1 }
            if zeros >= 2 {
                if byte == 0x03 { zeros = 0; continue }
                if checked && byte < 0x03 { return offset }
            }
            buffer.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return nil
    }

    /// Appends the RBSP of `input` to `buffer`, copying the runs between emulation-prevention bytes
    /// in blocks. Zero bytes are found with `memchr` (vectorised in the C library); only where one is
    /// followed by another zero is the next byte looked at, so most of the input is touched once, in bulk.
    ///
    /// Equivalent to the byte loop of ``convert(_:limit:checked:into:)``: a 0x03 after two zero bytes
    /// is dropped (the two zeros are input bytes, so a dropped 0x03 never counts as one of them), and
    /// when `checked` a byte below 0x03 after two zero bytes stops the conversion.
    /// - Returns: as ``convert(_:limit:checked:into:)``.
    private static func appendRBSP(of input: UnsafeBufferPointer<UInt8>, checked: Bool,
                                   to buffer: inout [UInt8]) -> Int? {
        guard let base = input.baseAddress else { return nil }
        let count = input.count
        var runStart = 0
        var position = 0
        while position < count - 2 {
            guard let hit = memchr(base + position, 0, count - 2 - position) else { break }
            let zero = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
            guard input[zero + 1] == 0 else { position = zero + 2; continue }
            let next = input[zero + 2]
            if next == 0x03 {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<(zero + 2)]))
                runStart = zero + 3
                position = zero + 3
            } else if checked && next < 0x03 {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<(zero + 2)]))
                return zero + 2
            } else {
                position = zero + 1
            }
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart...]))
        return nil
    }
}
