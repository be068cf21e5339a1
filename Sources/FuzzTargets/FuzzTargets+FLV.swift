import Bitstream
import Containers

extension FuzzTargets {
    /// AMF0 and FLV: the input as AMF0 values (what decodes is encoded, decoded and encoded again to the same
    /// bytes), as a video and an audio tag body (what parses is written and parsed again to the same body), and
    /// as a whole FLV file read tag by tag — each body parsed by its type, script data decoded — and as its
    /// video (Annex B) and audio (ADTS) elementary streams. Every step returns or throws an ``AMF0Error`` /
    /// ``FLVError``; nothing may trap.
    /// - Parameter bytes: arbitrary bytes.
    static func flv(_ bytes: [UInt8]) {
        let view = ByteView(bytes)
        amf0RoundTrip(view)
        if let body = try? FLVVideoTagBody(parsing: view), let written = try? body.bytes() {
            let again = try? FLVVideoTagBody(parsing: ByteView(written))
            precondition(again == body, "a video tag body changed through write and parse")
            var annexB: [UInt8] = []
            try? body.appendAnnexB(to: &annexB)
            _ = try? body.formatDescription()
        }
        if let body = try? FLVAudioTagBody(parsing: view), let written = try? body.bytes() {
            precondition((try? FLVAudioTagBody(parsing: ByteView(written))) == body, "an audio tag body changed through write and parse")
            _ = try? body.formatDescription()
        }
        flvFile(bytes)
    }

    private static func amf0RoundTrip(_ view: ByteView) {
        guard let values = try? AMF0Decoder().decodeValues(from: view), let encoded = try? AMF0Value.encode(values) else { return }
        // NaN numbers make values unequal to themselves: the bytes are compared instead.
        guard let again = try? AMF0Decoder().decodeValues(from: ByteView(encoded)) else {
            preconditionFailure("AMF0 that we encoded does not decode")
        }
        precondition((try? AMF0Value.encode(again)) == encoded, "AMF0 changed through encode and decode")
    }

    private static func flvFile(_ bytes: [UInt8]) {
        let limits = FLVReaderLimits(blockByteCount: 64)
        guard var reader = try? FLVReader(source: MemoryByteSource(bytes), limits: limits) else { return }
        var framer = FLVAnnexBFramer()
        var annexB: [UInt8] = []
        var count = 0
        while case let .tag(tag, offset)? = try? reader.next(), count < 10_000 {
            count += 1
            precondition(offset >= 0 && offset + tag.byteCount <= bytes.count, "a tag outside the file")
            switch tag.type {
            case .video:
                if let body = try? tag.videoBody() { _ = try? framer.append(body, to: &annexB) }
            case .audio: _ = try? tag.audioBody()
            case .scriptData: _ = try? tag.scriptData()
            default: break
            }
        }
        for stream in [FLVElementaryStreamSource<MemoryByteSource>.Stream.video, .audio] {
            guard let reader = try? FLVReader(source: MemoryByteSource(bytes), limits: limits) else { continue }
            var source = FLVElementaryStreamSource(reader: reader, stream: stream)
            while let chunk = try? source.read(upToCount: 4096), !chunk.isEmpty {}
        }
    }
}
