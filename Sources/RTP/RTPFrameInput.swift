import Bitstream
import MediaCore

/// Reading an ``EncodedFrame`` for the packetizers.
enum RTPFrameInput {
    /// The frame's NAL units as views of its AVCC data.
    static func nalUnits(of frame: EncodedFrame) throws(RTPPacketizerError) -> [ByteView] {
        do {
            return try AVCC.nalUnits(in: ByteView(frame.data), lengthSize: frame.format.nalUnitLengthSize)
        } catch {
            switch error {
            case let .truncatedLength(offset, _), let .truncatedNALUnit(offset, _, _, _):
                throw .malformedAccessUnit(byteOffset: offset, reason: error.description)
            default:
                throw .malformedAccessUnit(byteOffset: 0, reason: error.description)
            }
        }
    }

    /// A presentation time in 90 kHz units, modulo 2^32.
    static func timestamp90kHz(_ time: MediaTime) -> UInt32 {
        UInt32(truncatingIfNeeded: time.converted(to: 90_000).value)
    }
}
