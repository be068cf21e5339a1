/// Reads a transport stream (ISO/IEC 13818-1 / ITU-T H.222.0) arriving in chunks split anywhere, into its
/// program maps and the PES packets of their H.264, H.265 and ADTS AAC streams, with every accident as a
/// ``TSStreamIssue`` — the layer under ``TSMediaReader``.
///
/// - Packets are 188 bytes (§2.4.3.2); after bytes that are not packets it looks for a sync byte followed by
///   another 188 bytes later and says how much it skipped.
/// - It follows the program association table to the program map sections (§2.4.4.3, §2.4.4.8), checks their
///   `CRC_32`, and follows changes of both (a new `version_number`, new streams, streams gone).
/// - Continuity counters (§2.4.3.3) are checked per PID: one duplicate packet is dropped silently, a gap is
///   reported and the PES packet it damaged is dropped; `discontinuity_indicator` (§2.4.3.4) resets the count.
/// - PES packets (§2.4.3.6) are gathered up to `PES_packet_length`, or up to the next
///   `payload_unit_start_indicator` when it is 0; PTS and DTS (§2.4.3.7) are unwrapped past 2^33.
/// - Memory is bounded by ``TSDemuxerLimits``.
public struct TSDemuxer: Sendable {
    /// One thing found in the stream, in stream order.
    public enum Event: Hashable, Sendable {
        /// A program map, new or changed.
        case programMap(TSProgramMap)
        /// A complete PES packet of a stream the demuxer reads.
        case pes(TSPESPacket)
        /// Something that went wrong; the demuxer went on.
        case issue(TSStreamIssue)
    }

    /// A PSI section being gathered on one PID (§2.4.4.1, §2.4.4.2).
    private struct SectionBuffer: Sendable {
        var bytes: [UInt8] = []
        var isCollecting = false
    }

    /// A PES packet being gathered on one PID.
    private struct PESBuffer: Sendable {
        var streamType: TSStreamType
        var bytes: [UInt8] = []
        var isStarted = false
        var byteOffset = 0
        var isRandomAccess = false
        /// 6 + `PES_packet_length`, when it is not 0.
        var expectedLength: Int?
    }

    /// The limits.
    public let limits: TSDemuxerLimits
    /// The programs of the latest program association table: number and PMT PID.
    public private(set) var programs: [UInt16: UInt16] = [:]
    /// The program maps in force, by program number.
    public private(set) var programMaps: [UInt16: TSProgramMap] = [:]
    /// How many packets were read.
    public private(set) var packetCount = 0

    private var buffer: [UInt8] = []
    /// The stream offset of `buffer[0]`.
    private var bufferOffset = 0
    private var inSync = false
    private var skippedStart: Int?
    private var skippedCount = 0
    private var counters: [UInt16: UInt8] = [:]
    private var sections: [UInt16: SectionBuffer] = [:]
    private var streams: [UInt16: PESBuffer] = [:]
    private var reported: Set<UInt16> = []
    private var timeReference: Int64?

    /// Creates a demuxer.
    /// - Parameter limits: the memory bounds.
    public init(limits: TSDemuxerLimits = TSDemuxerLimits()) {
        self.limits = limits
    }

    /// Adds bytes of the stream.
    /// - Parameter chunk: the next bytes, of any length.
    /// - Returns: what they completed, in stream order.
    public mutating func append<Bytes: Collection>(_ chunk: Bytes) -> [Event] where Bytes.Element == UInt8 {
        var events: [Event] = []
        buffer.append(contentsOf: chunk)
        scan(isFinal: false, into: &events)
        return events
    }

    /// Ends the stream: the PES packets still open are delivered (or reported cut off), bytes short of a packet
    /// are reported.
    /// - Returns: the last events.
    public mutating func finish() -> [Event] {
        var events: [Event] = []
        scan(isFinal: true, into: &events)
        if !buffer.isEmpty {
            if inSync || skippedStart == nil {
                events.append(.issue(.truncatedPacket(byteOffset: bufferOffset, byteCount: buffer.count)))
            } else {
                skippedCount += buffer.count
            }
            bufferOffset += buffer.count
            buffer = []
        }
        reportSkipped(into: &events)
        for pid in streams.keys.sorted() { complete(pid, into: &events) }
        return events
    }

    /// Finds packets in the buffer (§2.4.3.2 `sync_byte`), hands each on, and keeps what is left.
    private mutating func scan(isFinal: Bool, into events: inout [Event]) {
        let size = TSPacket.size
        var index = 0
        while buffer.count - index >= size {
            if buffer[index] == TSPacket.syncByte,
               inSync || index + size >= buffer.count && isFinal || index + size < buffer.count && buffer[index + size] == TSPacket.syncByte {
                if !inSync { reportSkipped(into: &events) }
                inSync = true
                process(packetAt: index, into: &events)
                index += size
                continue
            }
            if !inSync, buffer[index] == TSPacket.syncByte, index + size >= buffer.count { break }
            if skippedStart == nil { skippedStart = bufferOffset + index }
            inSync = false
            skippedCount += 1
            index += 1
            if skippedCount >= limits.maximumResyncReport { reportSkipped(into: &events) }
        }
        buffer.removeFirst(index)
        bufferOffset += index
    }

    private mutating func reportSkipped(into events: inout [Event]) {
        if let start = skippedStart, skippedCount > 0 {
            events.append(.issue(.resynchronized(byteOffset: start, skippedByteCount: skippedCount)))
        }
        skippedStart = nil
        skippedCount = 0
    }

    /// One packet: header (§2.4.3.2), adaptation field (§2.4.3.4), continuity (§2.4.3.3), then its payload to
    /// the section or PES buffer of its PID.
    private mutating func process(packetAt start: Int, into events: inout [Event]) {
        packetCount += 1
        let offset = bufferOffset + start
        let b1 = buffer[start + 1], b3 = buffer[start + 3]
        let pid = UInt16(b1 & 0x1F) << 8 | UInt16(buffer[start + 2])
        guard pid != TSPacket.nullPID else { return }
        let isKnown = pid == TSPacket.programAssociationPID || streams[pid] != nil || programs.values.contains(pid)
        guard isKnown else { return }
        if b1 & 0x80 != 0 {
            events.append(.issue(.transportError(pid: pid, byteOffset: offset)))
            damage(pid, offset: offset, into: &events)
            return
        }
        let control = b3 >> 4 & 0x3
        guard control != 0 else {
            events.append(.issue(.malformedPacket(pid: pid, byteOffset: offset, field: "adaptation_field_control 00")))
            return
        }
        var payloadStart = start + 4
        var discontinuity = false
        var randomAccess = false
        if control & 0x2 != 0 {
            let length = Int(buffer[start + 4])
            guard length <= (control == 0x3 ? 182 : 183) else {
                events.append(.issue(.malformedPacket(pid: pid, byteOffset: offset, field: "adaptation_field_length \(length)")))
                return
            }
            if length > 0 {
                discontinuity = buffer[start + 5] & 0x80 != 0
                randomAccess = buffer[start + 5] & 0x40 != 0
            }
            payloadStart += 1 + length
        }
        guard control & 0x1 != 0 else { return }
        let counter = b3 & 0x0F
        if let last = counters[pid], !discontinuity {
            if counter == last { return }  // §2.4.3.3: a packet may be sent twice; the copy is dropped.
            let expected = (last + 1) & 0x0F
            if counter != expected {
                counters[pid] = counter
                events.append(.issue(.continuityError(pid: pid, expected: expected, found: counter,
                                                      lostPacketCount: Int((counter &- expected) & 0x0F), byteOffset: offset)))
                damage(pid, offset: offset, into: &events)
            }
        }
        counters[pid] = counter
        if b3 & 0xC0 != 0 {
            if reported.insert(pid).inserted { events.append(.issue(.scrambled(pid: pid))) }
            return
        }
        let isStart = b1 & 0x40 != 0
        let payload = buffer[payloadStart..<start + TSPacket.size]
        if streams[pid] != nil {
            gatherPES(pid, payload, isStart: isStart, randomAccess: randomAccess, offset: offset, into: &events)
        } else {
            gatherSection(pid, payload, isStart: isStart, offset: offset, into: &events)
        }
    }

    /// Drops the PES packet a lost or damaged packet belonged to.
    private mutating func damage(_ pid: UInt16, offset: Int, into events: inout [Event]) {
        if let pes = streams[pid], pes.isStarted {
            events.append(.issue(.damagedPES(pid: pid, byteOffset: pes.byteOffset, .lostPackets)))
            streams[pid]?.isStarted = false
            streams[pid]?.bytes.removeAll(keepingCapacity: true)
        }
        if sections[pid]?.isCollecting == true { sections[pid] = SectionBuffer() }
    }

    /// Gathers PSI sections (§2.4.4.1: `pointer_field` in a packet that starts one; several sections may follow
    /// each other, 0xFF stuffing ends them).
    private mutating func gatherSection(_ pid: UInt16, _ payload: ArraySlice<UInt8>, isStart: Bool, offset: Int, into events: inout [Event]) {
        var state = sections[pid] ?? SectionBuffer()
        var rest = payload
        if isStart {
            guard let pointer = rest.first else { return }
            rest = rest.dropFirst()
            let tail = rest.prefix(Int(pointer))
            if state.isCollecting { state.bytes += tail; completeSections(pid, &state, offset: offset, into: &events) }
            rest = rest.dropFirst(Int(pointer))
            state = SectionBuffer(bytes: Array(rest), isCollecting: true)
        } else {
            guard state.isCollecting else { return }
            state.bytes += rest
        }
        completeSections(pid, &state, offset: offset, into: &events)
        sections[pid] = state
    }

    private mutating func completeSections(_ pid: UInt16, _ state: inout SectionBuffer, offset: Int, into events: inout [Event]) {
        while state.isCollecting {
            guard let first = state.bytes.first, first != 0xFF else { state = SectionBuffer(); return }
            guard let length = TSSection.totalLength(of: state.bytes[...]) else { return }
            guard length <= 1024 else {
                events.append(.issue(.malformedSection(pid: pid, byteOffset: offset, .sectionTooLong(length - 3))))
                state = SectionBuffer()
                return
            }
            guard state.bytes.count >= length else { return }
            let section = state.bytes[..<length]
            handleSection(pid, section, offset: offset, into: &events)
            state.bytes.removeFirst(length)
        }
    }

    /// A whole section: the program association table on PID 0, a program map on a PMT PID.
    private mutating func handleSection(_ pid: UInt16, _ section: ArraySlice<UInt8>, offset: Int, into events: inout [Event]) {
        if pid == TSPacket.programAssociationPID {
            guard section.first == TSSection.programAssociationTableID else { return }
            do {
                var found: [UInt16: UInt16] = [:]
                for program in try TSSection.programs(inAssociation: section) {
                    guard found.count < limits.maximumProgramCount else {
                        events.append(.issue(.limitReached("more than \(limits.maximumProgramCount) programs")))
                        break
                    }
                    found[program.number] = program.pmtPID
                }
                guard found != programs else { return }
                programs = found
                for number in programMaps.keys.sorted() where found[number] == nil { removeProgram(number, into: &events) }
            } catch {
                events.append(.issue(.malformedSection(pid: pid, byteOffset: offset, error)))
            }
            return
        }
        guard section.first == TSSection.programMapTableID else { return }
        let map: TSProgramMap
        do { map = try TSSection.programMap(in: section, pmtPID: pid) } catch {
            events.append(.issue(.malformedSection(pid: pid, byteOffset: offset, error)))
            return
        }
        guard programs[map.programNumber] == pid, programMaps[map.programNumber] != map else { return }
        removeProgram(map.programNumber, into: &events)
        programMaps[map.programNumber] = map
        for stream in map.streams {
            let isOpus = stream.streamType == .privateData && TSOpusMapping.channelCount(descriptors: stream.descriptors) != nil
            guard stream.streamType.isVideo || stream.streamType == .adtsAAC || isOpus else {
                if reported.insert(stream.pid).inserted {
                    events.append(.issue(.unsupportedStream(pid: stream.pid, streamType: stream.streamType)))
                }
                continue
            }
            guard streams[stream.pid] == nil, !programs.values.contains(stream.pid), stream.pid != TSPacket.programAssociationPID else { continue }
            guard streams.count < limits.maximumStreamCount else {
                events.append(.issue(.limitReached("more than \(limits.maximumStreamCount) elementary streams")))
                break
            }
            streams[stream.pid] = PESBuffer(streamType: stream.streamType)
        }
        events.append(.programMap(map))
    }

    /// Forgets a program's streams (its map changed or it left the association table), after delivering the
    /// PES packets they had open.
    private mutating func removeProgram(_ number: UInt16, into events: inout [Event]) {
        guard let old = programMaps.removeValue(forKey: number) else { return }
        for stream in old.streams {
            complete(stream.pid, into: &events)
            streams[stream.pid] = nil
            counters[stream.pid] = nil
        }
    }

    /// Gathers a PES packet (§2.4.3.6): a start completes the one before.
    private mutating func gatherPES(_ pid: UInt16, _ payload: ArraySlice<UInt8>, isStart: Bool, randomAccess: Bool,
                                    offset: Int, into events: inout [Event]) {
        if isStart {
            complete(pid, into: &events)
            guard var pes = streams[pid] else { return }
            pes.isStarted = true
            pes.byteOffset = offset
            pes.isRandomAccess = randomAccess
            pes.bytes.removeAll(keepingCapacity: true)
            pes.bytes += payload
            pes.expectedLength = nil
            if pes.bytes.count >= 6 {
                let length = Int(pes.bytes[4]) << 8 | Int(pes.bytes[5])
                if length > 0 { pes.expectedLength = 6 + length }
            }
            streams[pid] = pes
        } else {
            guard streams[pid]?.isStarted == true else { return }
            streams[pid]?.bytes += payload
        }
        guard let pes = streams[pid] else { return }
        if pes.bytes.count > limits.maximumPESSize {
            events.append(.issue(.damagedPES(pid: pid, byteOffset: pes.byteOffset, .tooLarge(limit: limits.maximumPESSize))))
            streams[pid]?.isStarted = false
            streams[pid]?.bytes = []
        } else if let expected = pes.expectedLength, pes.bytes.count >= expected {
            complete(pid, into: &events)
        }
    }

    /// Delivers the PES packet gathered on a PID, if any.
    private mutating func complete(_ pid: UInt16, into events: inout [Event]) {
        guard var pes = streams[pid], pes.isStarted else { return }
        defer {
            pes.isStarted = false
            pes.bytes.removeAll(keepingCapacity: true)
            streams[pid] = pes
        }
        if let expected = pes.expectedLength, pes.bytes.count < expected {
            events.append(.issue(.damagedPES(pid: pid, byteOffset: pes.byteOffset, .truncated(expected: expected, received: pes.bytes.count))))
            return
        }
        guard let header = TSPESHeader.parse(pes.bytes[...]) else {
            events.append(.issue(.damagedPES(pid: pid, byteOffset: pes.byteOffset, .malformedHeader)))
            return
        }
        let end = min(pes.bytes.count, pes.expectedLength ?? pes.bytes.count)
        let pts = header.pts.map { unwrap($0) }
        let dts = header.dts.map { unwrap($0) }
        if let time = dts ?? pts { timeReference = time }
        events.append(.pes(TSPESPacket(pid: pid, streamType: pes.streamType, pts: pts, dts: dts,
                                       payload: Array(pes.bytes[header.headerLength..<max(end, header.headerLength)]),
                                       byteOffset: pes.byteOffset, isRandomAccess: pes.isRandomAccess)))
    }

    /// A 33-bit time (§2.4.3.7) made the closest to the last one: it keeps counting past 2^33.
    private func unwrap(_ value: Int64) -> Int64 {
        guard let reference = timeReference else { return value }
        let modulus = TSPacket.timestampModulus
        let turns = ((reference - value) + modulus / 2).floorDivided(by: modulus)
        return value + turns * modulus
    }
}

extension Int64 {
    /// Division rounding towards minus infinity.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
