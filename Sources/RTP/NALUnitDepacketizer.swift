import Bitstream

/// The depacketizer both video payload formats share: sequence tracking (duplicates, late packets, gaps),
/// fragment reassembly that needs S, E and every sequence number between, access-unit assembly by marker or
/// timestamp change, the hard caps, and the key-frame gate after a loss.
struct NALUnitDepacketizer: Sendable {
    let format: NALUnitFormat
    let maximumAccessUnitSize: Int
    let maximumNALUnitCount: Int
    let withholdsUntilKeyFrame: Bool

    /// The highest sequence number taken so far.
    private var lastSequenceNumber: UInt16?
    /// The access unit being built.
    private var current: Building?
    /// The fragmented NAL unit being rebuilt (reused buffer), and whether one is in progress.
    private var fragment: [UInt8] = []
    private var fragmentActive = false
    /// Whether the next access units are withheld until a random-access one.
    private var waitingForKeyFrame: Bool

    private struct Building: Sendable {
        var timestamp: UInt32
        var nalUnits: [ByteView] = []
        var size = 0
        var first: UInt16
        var last: UInt16
        var damage: RTPFrameLoss.Reason?
    }

    init(format: NALUnitFormat, maximumAccessUnitSize: Int, maximumNALUnitCount: Int, withholdsUntilKeyFrame: Bool) {
        self.format = format
        self.maximumAccessUnitSize = maximumAccessUnitSize
        self.maximumNALUnitCount = maximumNALUnitCount
        self.withholdsUntilKeyFrame = withholdsUntilKeyFrame
        self.waitingForKeyFrame = withholdsUntilKeyFrame
    }

    mutating func depacketize(
        _ packet: RTPPacket, _ emit: (RTPFrameEvent<RTPAccessUnit>) -> Void
    ) throws(RTPPayloadError) -> RTPPacketOutcome {
        let sequence = packet.sequenceNumber
        var gap: RTPFrameLoss.Reason?
        if let last = lastSequenceNumber {
            let distance = RTPSequenceNumber.distance(from: last, to: sequence)
            if distance == 0 { return .duplicate }
            // RFC 3550 §A.1: a packet up to MAX_MISORDER (100) behind is late; further behind, the source restarted.
            if distance < 0, distance >= -100 { return .late }
            if distance != 1 {
                let missing = distance > 0 ? distance - 1 : 0
                gap = .packetsMissing(firstSequenceNumber: last &+ 1, count: missing)
            }
        }
        lastSequenceNumber = sequence

        // A new timestamp ends the access unit in progress (mode 0 senders, lost markers).
        if let building = current, building.timestamp != packet.timestamp {
            var finished = building
            if gap != nil, finished.damage == nil { finished.damage = gap }
            if fragmentActive {
                // Its last NAL unit was cut: the E fragment never came before the next access unit.
                fragmentActive = false
                if finished.damage == nil { finished.damage = .fragmentWithoutEnd }
            }
            finish(finished, emit)
            current = nil
        }
        if let gap {
            // The gap may hold the end of the fragment in progress and the start of this packet's unit.
            if fragmentActive { fragmentActive = false }
            if current != nil {
                if current?.damage == nil { current?.damage = gap }
            } else {
                current = Building(timestamp: packet.timestamp, first: sequence, last: sequence, damage: gap)
            }
        }
        if current == nil {
            current = Building(timestamp: packet.timestamp, first: sequence, last: sequence)
        }
        current?.last = sequence

        var outcome = RTPPacketOutcome.needMorePackets
        do {
            outcome = try parsePayload(packet)
        } catch {
            markDamaged(.malformedPacket(error))
            if packet.marker, let building = current { finish(building, emit); current = nil }
            throw error
        }
        if packet.marker, let building = current {
            if fragmentActive {
                fragmentActive = false
                var damaged = building
                if damaged.damage == nil { damaged.damage = .fragmentWithoutEnd }
                finish(damaged, emit)
            } else {
                finish(building, emit)
            }
            current = nil
            if outcome == .needMorePackets { outcome = .completedFrame }
        }
        return outcome
    }

    /// Ends the stream: the access unit in progress is handed on (or reported).
    mutating func flush(_ emit: (RTPFrameEvent<RTPAccessUnit>) -> Void) {
        if var building = current {
            if fragmentActive, building.damage == nil { building.damage = .fragmentWithoutEnd }
            finish(building, emit)
        }
        current = nil
        fragmentActive = false
    }

    private mutating func markDamaged(_ reason: RTPFrameLoss.Reason) {
        if current?.damage == nil { current?.damage = reason }
    }

    private mutating func finish(_ building: Building, _ emit: (RTPFrameEvent<RTPAccessUnit>) -> Void) {
        if let damage = building.damage {
            emit(.lost(RTPFrameLoss(timestamp: building.timestamp, firstSequenceNumber: building.first,
                                    lastSequenceNumber: building.last, reason: damage)))
            if withholdsUntilKeyFrame { waitingForKeyFrame = true }
            return
        }
        guard !building.nalUnits.isEmpty else { return }
        var isRandomAccess = false
        var hasSlice = false
        for unit in building.nalUnits {
            let type = format.type(ofFirstByte: unit[0])
            if format.isSlice(type) { hasSlice = true }
            if format.isRandomAccess(type) || format.isRecoveryPointSEI(unit) { isRandomAccess = true }
        }
        // A unit without a picture (parameter sets or SEI alone, as str0m sends them) depends on nothing and is
        // needed by the key frame that ends the wait: it passes the gate.
        if waitingForKeyFrame, hasSlice {
            guard isRandomAccess else {
                emit(.withheld(RTPFrameLoss(timestamp: building.timestamp, firstSequenceNumber: building.first,
                                            lastSequenceNumber: building.last, reason: .waitingForKeyFrame)))
                return
            }
            waitingForKeyFrame = false
        }
        emit(.frame(RTPAccessUnit(timestamp: building.timestamp, nalUnits: building.nalUnits,
                                  firstSequenceNumber: building.first, lastSequenceNumber: building.last,
                                  isRandomAccess: isRandomAccess)))
    }

    /// Adds a complete NAL unit to the access unit, within the caps.
    private mutating func append(_ unit: ByteView) {
        guard var building = current, building.damage == nil else { return }
        current = nil  // keeps the NAL unit array uniquely referenced while it grows
        if building.nalUnits.count >= maximumNALUnitCount {
            building.damage = .tooManyNALUnits(limit: maximumNALUnitCount)
            building.nalUnits = []
        } else if building.size + unit.count > maximumAccessUnitSize {
            building.damage = .accessUnitTooLarge(limit: maximumAccessUnitSize)
            building.nalUnits = []
        } else {
            building.nalUnits.append(unit)
            building.size += unit.count
        }
        current = building
    }

    private mutating func parsePayload(_ packet: RTPPacket) throws(RTPPayloadError) -> RTPPacketOutcome {
        let payload = packet.payload
        let sequence = packet.sequenceNumber
        let headerSize = format.headerSize
        guard payload.count >= headerSize, let first = payload.getByte(at: 0) else {
            throw .truncatedPayload(sequenceNumber: sequence, size: payload.count)
        }
        let type = format.type(ofFirstByte: first)
        switch format {
        case .h264:
            switch type {
            case 1...23:
                endFragmentIfActive()
                append(payload)
            case 24:
                endFragmentIfActive()
                try splitAggregation(payload, headerSize: 1, sequence: sequence)
            case 28:
                return try fragmentUnit(payload, sequence: sequence)
            case 25: throw .unsupportedPacketType(sequenceNumber: sequence, type: type, name: "STAP-B")
            case 26: throw .unsupportedPacketType(sequenceNumber: sequence, type: type, name: "MTAP16")
            case 27: throw .unsupportedPacketType(sequenceNumber: sequence, type: type, name: "MTAP24")
            case 29: throw .unsupportedPacketType(sequenceNumber: sequence, type: type, name: "FU-B")
            default: throw .unsupportedPacketType(sequenceNumber: sequence, type: type, name: "reserved")
            }
        case .h265:
            switch type {
            case 0...47:
                endFragmentIfActive()
                append(payload)
            case 48:
                endFragmentIfActive()
                try splitAggregation(payload, headerSize: 2, sequence: sequence)
            case 49:
                return try fragmentUnit(payload, sequence: sequence)
            case 50: throw .unsupportedPacketType(sequenceNumber: sequence, type: type, name: "PACI")
            default: throw .unsupportedPacketType(sequenceNumber: sequence, type: type, name: "reserved")
            }
        }
        return .needMorePackets
    }

    /// A whole NAL unit arrived while a fragmented one was open: the open one never ended.
    private mutating func endFragmentIfActive() {
        if fragmentActive {
            fragmentActive = false
            markDamaged(.fragmentWithoutEnd)
        }
    }

    /// STAP-A (RFC 6184 §5.7.1) or AP (RFC 7798 §4.4.2): 16-bit sizes, each followed by a NAL unit.
    private mutating func splitAggregation(_ payload: ByteView, headerSize: Int, sequence: UInt16)
        throws(RTPPayloadError) {
        var offset = headerSize
        guard payload.count > offset else { throw .malformedAggregation(sequenceNumber: sequence, byteOffset: offset) }
        while offset < payload.count {
            guard let size = payload.getInteger(at: offset, as: UInt16.self), size >= UInt16(format.headerSize),
                  let unit = payload.getView(at: offset + 2, byteCount: Int(size))
            else { throw .malformedAggregation(sequenceNumber: sequence, byteOffset: offset) }
            append(unit)
            offset += 2 + Int(size)
        }
    }

    /// FU-A (RFC 6184 §5.8) or FU (RFC 7798 §4.4.3). The NAL unit is rebuilt only from an S fragment, an E
    /// fragment and every packet between (a gap closes the open fragment before this is called).
    private mutating func fragmentUnit(_ payload: ByteView, sequence: UInt16) throws(RTPPayloadError)
        -> RTPPacketOutcome {
        let prefixSize = format.headerSize + 1
        guard payload.count > prefixSize, let fuHeader = payload.getByte(at: prefixSize - 1) else {
            throw .truncatedPayload(sequenceNumber: sequence, size: payload.count)
        }
        let isStart = fuHeader & 0x80 != 0
        let isEnd = fuHeader & 0x40 != 0
        let body = payload.getView(in: prefixSize..<payload.count) ?? ByteView()
        if isStart {
            endFragmentIfActive()
            fragment.removeAll(keepingCapacity: true)
            switch format {
            case .h264:
                fragment.append((payload[0] & 0xE0) | (fuHeader & 0x1F))
            case .h265:
                fragment.append((payload[0] & 0x81) | (fuHeader & 0x3F) << 1)
                fragment.append(payload[1])
            }
            fragmentActive = true
        } else if !fragmentActive {
            markDamaged(.fragmentWithoutStart)
            return .fragmentWithoutStart
        }
        if fragment.count + body.count > maximumAccessUnitSize {
            fragmentActive = false
            markDamaged(.accessUnitTooLarge(limit: maximumAccessUnitSize))
            return .needMorePackets
        }
        fragment.append(contentsOf: body)
        if isEnd {
            fragmentActive = false
            append(ByteView(copying: fragment))
        }
        return .needMorePackets
    }
}
