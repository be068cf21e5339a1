import Bitstream
import Opus
import RTP

extension FuzzTargets {
    /// The RTP layer: the input is cut into datagrams (each prefixed by a one-byte length), every datagram is
    /// parsed as an RTP packet and written back, and the packets go through the jitter buffer, the H.264, H.265,
    /// AAC and Opus depacketizers and the video receiver; each datagram is also read as an Opus identification header
    /// (`OpusHead` and `dOps`, written back and read again to the same value) and a TOC byte. Each must return, throw a typed error or report a frame —
    /// never trap; every frame handed on must keep its caps.
    static func rtp(_ bytes: [UInt8]) {
        let input = ByteView(bytes)
        var datagrams: [ByteView] = []
        var offset = 0
        while offset < input.count, datagrams.count < 256 {
            let length = Int(input[offset])
            offset += 1
            guard let datagram = input.getView(at: offset, byteCount: min(length, input.count - offset)) else { break }
            datagrams.append(datagram)
            offset += datagram.count
        }
        var h264 = H264Depacketizer(maximumAccessUnitSize: 4096, maximumNALUnitCount: 16)
        var h265 = try? H265Depacketizer(maximumAccessUnitSize: 4096, maximumNALUnitCount: 16)
        var aac = try? AACDepacketizer(maximumAccessUnitsPerPacket: 16)
        var opus = OpusDepacketizer()
        var jitter = RTPJitterBuffer(reorderWindow: 8)
        var receiver = RTPVideoReceiver(codec: .h264, reorderWindow: 8, maximumAccessUnitSize: 4096, maximumNALUnitCount: 16)
        let check: (RTPFrameEvent<RTPAccessUnit>) -> Void = { event in
            if case .frame(let unit) = event {
                precondition(unit.nalUnits.count <= 16, "NAL unit cap exceeded")
                precondition(unit.nalUnits.reduce(0) { $0 + $1.count } <= 4096, "access unit cap exceeded")
                precondition(unit.nalUnits.allSatisfy { !$0.isEmpty }, "an empty NAL unit handed on")
            }
        }
        for datagram in datagrams {
            try? receiver.receive(datagram, check)
            let raw = Array(datagram)
            if let head = try? OpusIdentificationHeader(opusHead: raw) {
                precondition((try? OpusIdentificationHeader(opusHead: head.opusHeadBytes())) == head, "OpusHead round trip")
                precondition((try? OpusIdentificationHeader(dOpsPayload: head.dOpsPayload())) != nil, "dOps of an OpusHead")
            }
            if let head = try? OpusIdentificationHeader(dOpsPayload: raw) {
                precondition((try? OpusIdentificationHeader(dOpsPayload: head.dOpsPayload())) == head, "dOps round trip")
            }
            if let toc = try? OpusPacket(raw) { precondition(toc.sampleCount <= OpusPacket.maximumSampleCount, "over 120 ms") }
            guard let packet = try? RTPPacket(parsing: datagram) else { continue }
            precondition(packet.serialized().count == packet.serializedSize, "written size differs")
            if packet.paddingCount == 0, packet.headerExtension.map({ $0.data.count % 4 == 0 }) ?? true {
                precondition(packet.serialized() == Array(datagram), "parse → write is not the identity")
            }
            jitter.insert(packet)
            while let output = jitter.next() {
                guard case .packet(let ordered) = output else { continue }
                _ = try? h264.depacketize(ordered, check)
                _ = try? h265?.depacketize(ordered, check)
                _ = try? aac?.depacketize(ordered) { _ in }
                _ = try? opus.depacketize(ordered) { event in
                    if case .frame(let frame) = event { precondition(!frame.data.isEmpty, "an empty Opus packet handed on") }
                }
            }
        }
        _ = jitter.drain()
        h264.flush(check)
        h265?.flush(check)
        receiver.finish(check)
    }
}
