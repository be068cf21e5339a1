/// What the table-of-contents byte of an Opus packet says about its length in time (RFC 6716 §3.1): the
/// frame size its configuration number gives (Table 2) and the number of frames its code gives (§3.2: code 0
/// one frame, codes 1 and 2 two, code 3 the count in the next byte).
public struct OpusPacket: Sendable, Hashable {
    /// The configuration number, the top five bits of the TOC byte (0...31).
    public var configuration: Int
    /// Whether the packet is stereo (the `s` bit).
    public var isStereo: Bool
    /// The number of frames in the packet (1...48).
    public var frameCount: Int
    /// The samples at 48 kHz in each frame: 120 (2.5 ms) to 2880 (60 ms).
    public var samplesPerFrame: Int

    /// The packet's duration in samples at 48 kHz, at most 5760 (120 ms).
    public var sampleCount: Int { frameCount * samplesPerFrame }

    /// The most samples at 48 kHz one packet may hold (RFC 6716 §3.2.5: 120 ms).
    public static let maximumSampleCount = 5760

    /// Reads the TOC byte and, for code 3, the frame count byte.
    /// - Parameter packet: the packet's bytes (only the first two are read).
    /// - Throws: ``OpusSyntaxError``: an empty packet (§3.4 rule R1), a code 3 packet without its frame count
    ///   byte, a count of 0, or more than 120 ms of audio (rule R5).
    public init<Bytes: Collection>(_ packet: Bytes) throws(OpusSyntaxError) where Bytes.Element == UInt8 {
        var iterator = packet.makeIterator()
        guard let toc = iterator.next() else {
            throw OpusSyntaxError(field: "TOC byte", byteOffset: 0, reason: "the packet is empty")
        }
        configuration = Int(toc >> 3)
        isStereo = toc & 0x04 != 0
        samplesPerFrame = Self.samplesPerFrame(configuration: configuration)
        switch toc & 0x03 {
        case 0: frameCount = 1
        case 1, 2: frameCount = 2
        default:
            guard let countByte = iterator.next() else {
                throw OpusSyntaxError(field: "frame count byte", byteOffset: 1, reason: "a code 3 packet ends after its TOC byte")
            }
            frameCount = Int(countByte & 0x3F)
            guard frameCount > 0 else {
                throw OpusSyntaxError(field: "frame count byte", byteOffset: 1, reason: "0 frames")
            }
        }
        guard frameCount * samplesPerFrame <= Self.maximumSampleCount else {
            throw OpusSyntaxError(field: "frame count byte", byteOffset: 1,
                                  reason: "\(frameCount) frames of \(samplesPerFrame) samples exceed 120 ms")
        }
    }

    /// The frame size of a configuration number (RFC 6716 Table 2), in samples at 48 kHz: SILK-only
    /// 0...11 (10, 20, 40, 60 ms), hybrid 12...15 (10, 20 ms), CELT-only 16...31 (2.5, 5, 10, 20 ms).
    /// - Parameter configuration: 0...31.
    /// - Returns: the samples per frame.
    public static func samplesPerFrame(configuration: Int) -> Int {
        switch configuration {
        case 0...11: return [480, 960, 1920, 2880][configuration % 4]
        case 12...15: return [480, 960][configuration % 2]
        default: return [120, 240, 480, 960][configuration % 4]
        }
    }
}
