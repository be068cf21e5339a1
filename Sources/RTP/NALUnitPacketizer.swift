import Bitstream

/// The packetizer both video payload formats share: single NAL unit packets, aggregation packets (STAP-A,
/// AP) for runs of small NAL units of one access unit, and fragmentation units (FU-A, FU) with S/E bits for
/// NAL units larger than the packet, the marker on the last packet of the access unit, and the parameter
/// sets sent in-band before every random-access picture.
struct NALUnitPacketizer: Sendable {
    /// The codec's payload format.
    let format: NALUnitFormat
    /// Sequence number, SSRC, timestamp offset, payload type.
    var state: RTPSenderState
    /// The largest RTP packet written (header included).
    let maximumPacketSize: Int
    /// The parameter sets sent before every random-access access unit that does not carry them itself
    /// (the latest ones seen in the stream replace them).
    var parameterSets: [ByteView]

    init(format: NALUnitFormat, state: RTPSenderState, maximumPacketSize: Int, parameterSets: [ByteView])
        throws(RTPPacketizerError) {
        // Room for the header, the FU indicator/header and at least one byte of NAL unit.
        let minimum = RTPPacket.fixedHeaderSize + format.headerSize + 2
        guard maximumPacketSize >= minimum else {
            throw .packetSizeTooSmall(maximumPacketSize: maximumPacketSize, minimum: minimum)
        }
        self.format = format
        self.state = state
        self.maximumPacketSize = maximumPacketSize
        self.parameterSets = parameterSets
    }

    /// Takes a frame's parameter sets (its format's) as the ones sent before random-access pictures, when they differ
    /// from those held: a stream whose parameters change at a key frame (another publisher, another size or profile)
    /// sends its new SPS/PPS in-band from that picture on, not the old ones (RFC 6184 §8.4; H.265's VPS/SPS/PPS the
    /// same way).
    /// - Parameter sets: the format's parameter sets (none: nothing changes).
    mutating func adopt(_ sets: [[UInt8]]) {
        guard !sets.isEmpty, !sets.elementsEqual(parameterSets, by: { $0.elementsEqual($1) }) else { return }
        parameterSets = sets.map { ByteView($0) }
    }

    /// Packetizes one access unit.
    mutating func packetize<Failure: Error>(
        _ accessUnit: [ByteView], timestamp: UInt32,
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        let units = withParameterSets(accessUnit.filter { $0.count >= format.headerSize })
        guard !units.isEmpty else { return }
        let rtpTimestamp = timestamp &+ state.timestampOffset
        let maxPayload = maximumPacketSize - RTPPacket.fixedHeaderSize
        try withUnsafeTemporaryAllocation(byteCount: maximumPacketSize, alignment: 16) {
            (buffer) throws(Failure) -> Void in
            guard let base = buffer.baseAddress else { return }
            var index = 0
            while index < units.count {
                let unit = units[index]
                if unit.count > maxPayload {
                    try fragment(unit, isLast: index == units.count - 1, timestamp: rtpTimestamp, base: base, body)
                    index += 1
                    continue
                }
                // Aggregate the run of small units that fits one packet.
                var end = index
                var size = format.headerSize
                while end < units.count, units[end].count <= 0xFFFF,
                      size + 2 + units[end].count <= maxPayload {
                    size += 2 + units[end].count
                    end += 1
                }
                if end - index >= 2 {
                    try aggregate(units[index..<end], isLast: end == units.count, timestamp: rtpTimestamp,
                                  base: base, body)
                    index = end
                } else {
                    let length = writeHeader(at: base, marker: index == units.count - 1, timestamp: rtpTimestamp)
                    copy(unit, to: base + length)
                    try body(UnsafeRawBufferPointer(start: base, count: length + unit.count))
                    index += 1
                }
            }
        }
    }

    /// The access unit with the stored parameter sets put in front of a random-access picture that lacks them
    /// (after a leading access unit delimiter); parameter sets the unit carries replace the stored ones.
    private mutating func withParameterSets(_ units: [ByteView]) -> [ByteView] {
        var carriesParameterSets = false
        var isRandomAccess = false
        var carried: [ByteView] = []
        for unit in units {
            let type = format.type(ofFirstByte: unit[0])
            if format.isParameterSet(type) {
                carriesParameterSets = true
                carried.append(unit)
            }
            if format.isRandomAccess(type) { isRandomAccess = true }
        }
        if carriesParameterSets {
            parameterSets = carried
            return units
        }
        guard isRandomAccess, !parameterSets.isEmpty else { return units }
        var result = units
        let position = units.first.map { format.isAccessUnitDelimiter(format.type(ofFirstByte: $0[0])) } == true ? 1 : 0
        result.insert(contentsOf: parameterSets, at: position)
        return result
    }

    /// Writes the 12-byte header with the next sequence number; returns its size.
    @inline(__always)
    private mutating func writeHeader(at base: UnsafeMutableRawPointer, marker: Bool, timestamp: UInt32) -> Int {
        RTPHeaderWriter.writeFixedHeader(at: base, first: 0x80, marker: marker, payloadType: state.payloadType,
                                         sequenceNumber: state.takeSequenceNumber(), timestamp: timestamp,
                                         ssrc: state.ssrc)
        return RTPPacket.fixedHeaderSize
    }

    /// Copies a view's bytes to `destination`.
    @inline(__always)
    private func copy(_ view: ByteView, from start: Int = 0, count: Int? = nil, to destination: UnsafeMutableRawPointer) {
        view.withUnsafeBytes { bytes in
            let length = count ?? (bytes.count - start)
            if length > 0, let source = bytes.baseAddress {
                destination.copyMemory(from: source + start, byteCount: length)
            }
        }
    }

    /// An aggregation packet: STAP-A (RFC 6184 §5.7.1) or AP (RFC 7798 §4.4.2), without DON.
    private mutating func aggregate<Failure: Error>(
        _ units: ArraySlice<ByteView>, isLast: Bool, timestamp: UInt32, base: UnsafeMutableRawPointer,
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        var offset = writeHeader(at: base, marker: isLast, timestamp: timestamp)
        switch format {
        case .h264:
            // F: OR of the F bits; NRI: the largest NRI (§5.7).
            var forbidden: UInt8 = 0
            var nri: UInt8 = 0
            for unit in units {
                forbidden |= unit[0] & 0x80
                nri = max(nri, unit[0] & 0x60)
            }
            base.storeBytes(of: forbidden | nri | 24, toByteOffset: offset, as: UInt8.self)
            offset += 1
        case .h265:
            // F: OR; LayerId and TID: the lowest of the aggregated units (§4.4.2).
            var forbidden: UInt8 = 0
            var layer: UInt16 = 0x3F
            var temporal: UInt8 = 7
            for unit in units {
                forbidden |= unit[0] & 0x80
                layer = min(layer, UInt16(unit[0] & 1) << 5 | UInt16(unit[1] >> 3))
                temporal = min(temporal, unit[1] & 7)
            }
            base.storeBytes(of: forbidden | 48 << 1 | UInt8(layer >> 5), toByteOffset: offset, as: UInt8.self)
            base.storeBytes(of: UInt8(layer & 0x1F) << 3 | temporal, toByteOffset: offset + 1, as: UInt8.self)
            offset += 2
        }
        for unit in units {
            RTPHeaderWriter.storeBigEndian(UInt16(unit.count), at: base + offset)
            copy(unit, to: base + offset + 2)
            offset += 2 + unit.count
        }
        try body(UnsafeRawBufferPointer(start: base, count: offset))
    }

    /// Fragmentation units: FU-A (RFC 6184 §5.8) or FU (RFC 7798 §4.4.3), S on the first, E on the last.
    private mutating func fragment<Failure: Error>(
        _ unit: ByteView, isLast: Bool, timestamp: UInt32, base: UnsafeMutableRawPointer,
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        let headerSize = format.headerSize
        let prefixSize = headerSize + 1
        let chunk = maximumPacketSize - RTPPacket.fixedHeaderSize - prefixSize
        let type = format.type(ofFirstByte: unit[0])
        var start = headerSize
        while start < unit.count {
            let length = min(chunk, unit.count - start)
            let isEnd = start + length == unit.count
            var offset = writeHeader(at: base, marker: isLast && isEnd, timestamp: timestamp)
            let flags: UInt8 = (start == headerSize ? 0x80 : 0) | (isEnd ? 0x40 : 0)
            switch format {
            case .h264:
                base.storeBytes(of: (unit[0] & 0xE0) | 28, toByteOffset: offset, as: UInt8.self)
                base.storeBytes(of: flags | type, toByteOffset: offset + 1, as: UInt8.self)
            case .h265:
                base.storeBytes(of: (unit[0] & 0x81) | 49 << 1, toByteOffset: offset, as: UInt8.self)
                base.storeBytes(of: unit[1], toByteOffset: offset + 1, as: UInt8.self)
                base.storeBytes(of: flags | type, toByteOffset: offset + 2, as: UInt8.self)
            }
            offset += prefixSize
            copy(unit, from: start, count: length, to: base + offset)
            try body(UnsafeRawBufferPointer(start: base, count: offset + length))
            start += length
        }
    }
}
