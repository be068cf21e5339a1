import Containers

extension FuzzTargets {
    /// MPEG-TS: the input as a transport stream (ISO/IEC 13818-1 §2.4.3) read by ``TSMediaReader`` whole and in
    /// chunks of a size the input picks — the events must not depend on how the bytes were cut — and again with
    /// a sync byte forced every 188 bytes, so that mutations reach the packet, section and PES parsers instead of
    /// the sync search. Small limits keep the PES and stream bounds in reach. Nothing may trap.
    /// - Parameter bytes: arbitrary bytes.
    static func transportStream(_ bytes: [UInt8]) {
        let limits = TSDemuxerLimits(maximumPESSize: 4096, maximumProgramCount: 4, maximumStreamCount: 4, maximumResyncReport: 1000)
        var synced = bytes
        for index in stride(from: 0, to: synced.count, by: TSPacket.size) { synced[index] = TSPacket.syncByte }
        for input in [bytes, synced] {
            var whole = TSMediaReader(limits: limits)
            let expected = whole.append(input) + whole.finish()
            var chunked = TSMediaReader(limits: limits)
            let chunkSize = 1 + Int(input.first ?? 0) % 200
            var events: [TSMediaReader.Event] = []
            var start = 0
            while start < input.count {
                let end = min(input.count, start + chunkSize)
                events += chunked.append(input[start..<end])
                start = end
            }
            events += chunked.finish()
            precondition(events == expected, "the events depend on how the stream was cut")
        }
    }
}
