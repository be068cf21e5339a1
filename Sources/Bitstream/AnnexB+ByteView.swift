// Annex B scanning over a `ByteView`: the NAL units come out as views into the input, never copies.

extension AnnexB {
    /// Finds the NAL units in an Annex B byte stream and returns them as views into it (no copies).
    ///
    /// The units are those of ``nalUnitRanges(in:)-([UInt8])``: start codes and trailing zero bytes excluded.
    /// - Parameter stream: the byte stream.
    /// - Returns: one view per NAL unit, in stream order, each sharing `stream`'s storage.
    public static func nalUnits(in stream: ByteView) -> [ByteView] {
        var units: [ByteView] = []
        units.reserveCapacity(stream.count / 1024 + 4)
        forEachNALUnit(in: stream) { units.append($0) }
        return units
    }

    /// Calls `body` with a view of every NAL unit of an Annex B byte stream, in order, allocating nothing.
    /// - Parameters:
    ///   - stream: the byte stream.
    ///   - body: receives each NAL unit (start code and trailing zeros excluded), a view into `stream`.
    /// - Throws: what `body` throws; the scan stops there.
    @inlinable
    public static func forEachNALUnit<Failure: Error>(
        in stream: ByteView, _ body: (ByteView) throws(Failure) -> Void
    ) throws(Failure) {
        try stream.withUnsafeBytes { (buffer) throws(Failure) in
            guard var start = nextStartCode(in: buffer, from: 0) else { return }
            while true {
                let payloadStart = start &+ 3
                let next = nextStartCode(in: buffer, from: payloadStart)
                var end = next ?? buffer.count
                while end > payloadStart && buffer[end &- 1] == 0 { end &-= 1 }
                if end > payloadStart, let unit = stream.getView(in: payloadStart..<end) { try body(unit) }
                guard let found = next else { return }
                start = found
            }
        }
    }
}
