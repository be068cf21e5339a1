/// Conveniences over `[UInt8]` for callers that hold a packet in an array (tests, tools). They grow the array by the
/// overhead, so they allocate unless the array already has the capacity; the hot path is the buffer form.
extension SRTPContext {
    /// Protects the RTP packet in `packet`, appending the tag (``protectRTP(_:length:)``).
    /// - Parameter packet: the RTP packet; on return, the SRTP packet.
    /// - Throws: as ``protectRTP(_:length:)``.
    public func protectRTP(_ packet: inout [UInt8]) throws(SRTPError) {
        try transform(&packet, grow: profile.rtpOverhead) { buffer, length throws(SRTPError) in try protectRTP(buffer, length: length) }
    }

    /// Unprotects the SRTP packet in `packet`, dropping the tag (``unprotectRTP(_:length:)``).
    /// - Parameter packet: the SRTP packet; on return, the RTP packet.
    /// - Throws: as ``unprotectRTP(_:length:)``.
    public func unprotectRTP(_ packet: inout [UInt8]) throws(SRTPError) {
        try transform(&packet, grow: 0) { buffer, length throws(SRTPError) in try unprotectRTP(buffer, length: length) }
    }

    /// Protects the RTCP packet in `packet`, appending the SRTCP trailer (``protectRTCP(_:length:)``).
    /// - Parameter packet: the RTCP packet; on return, the SRTCP packet.
    /// - Throws: as ``protectRTCP(_:length:)``.
    public func protectRTCP(_ packet: inout [UInt8]) throws(SRTPError) {
        try transform(&packet, grow: profile.rtcpOverhead) { buffer, length throws(SRTPError) in try protectRTCP(buffer, length: length) }
    }

    /// Unprotects the SRTCP packet in `packet`, dropping the trailer (``unprotectRTCP(_:length:)``).
    /// - Parameter packet: the SRTCP packet; on return, the RTCP packet.
    /// - Throws: as ``unprotectRTCP(_:length:)``.
    public func unprotectRTCP(_ packet: inout [UInt8]) throws(SRTPError) {
        try transform(&packet, grow: 0) { buffer, length throws(SRTPError) in try unprotectRTCP(buffer, length: length) }
    }

    private func transform(_ packet: inout [UInt8], grow: Int,
                           _ body: (UnsafeMutableRawBufferPointer, Int) throws(SRTPError) -> Int) throws(SRTPError) {
        let length = packet.count
        packet.append(contentsOf: repeatElement(0, count: grow))
        let result: Result<Int, SRTPError> = packet.withUnsafeMutableBytes { buffer in
            do throws(SRTPError) { return .success(try body(buffer, length)) } catch { return .failure(error) }
        }
        switch result {
        case let .success(newLength): packet.removeSubrange(newLength...)
        case let .failure(error):
            packet.removeSubrange(length...)
            throw error
        }
    }
}
