import SRTP

extension FuzzTargets {
    /// Keys shared by every SRTP fuzz input (fixed, so a crashing input replays the same).
    private static func srtpContexts(_ profile: SRTPProtectionProfile) -> (sender: SRTPContext, receiver: SRTPContext)? {
        let key = (0..<UInt8(profile.keyLength)).map { $0 &* 7 &+ 1 }
        let salt = (0..<UInt8(profile.saltLength)).map { $0 &* 13 &+ 5 }
        guard let material = try? SRTPKeyingMaterial(profile: profile, masterKey: key, masterSalt: salt),
              let sender = try? SRTPContext(material: material),
              let receiver = try? SRTPContext(material: material)
        else { return nil }  // a build without OpenSSL: nothing to fuzz
        return (sender, receiver)
    }

    /// SRTP/SRTCP unprotect on hostile bytes (RFC 3711 §3.3, §3.4): byte 0 picks the profile and RTP or RTCP, the rest
    /// is cut into packets by 2-byte big-endian lengths. Each packet is unprotected as it came (a typed error, never a
    /// trap), then protected as plain text and unprotected again, which must give it back, and once more with one bit
    /// flipped, which must fail authentication (or the replay check).
    static func srtp(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let profile: SRTPProtectionProfile = first & 1 == 0 ? .aes128CounterModeHMACSHA1_80 : .aeadAES128GCM
        let rtcp = first & 2 != 0
        guard let (sender, receiver) = srtpContexts(profile) else { return }
        var offset = 1
        var packets = 0
        while offset + 2 <= bytes.count, packets < 64 {
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            offset += 2
            let end = min(bytes.count, offset + length)
            let packet = Array(bytes[offset..<end])
            offset = end
            packets += 1
            var hostile = packet
            if rtcp { _ = try? receiver.unprotectRTCP(&hostile) } else { _ = try? receiver.unprotectRTP(&hostile) }
            var sealed = packet
            let protected = rtcp ? (try? sender.protectRTCP(&sealed)) != nil : (try? sender.protectRTP(&sealed)) != nil
            guard protected else { continue }
            precondition(sealed.count == packet.count + (rtcp ? profile.rtcpOverhead : profile.rtpOverhead),
                         "SRTP: protect added the wrong overhead")
            var tampered = sealed
            let bit = Int(first >> 2) % max(1, tampered.count * 8)
            tampered[bit / 8] ^= 1 << (bit % 8)
            let forged = rtcp ? (try? receiver.unprotectRTCP(&tampered)) != nil : (try? receiver.unprotectRTP(&tampered)) != nil
            precondition(!forged, "SRTP: a packet with a flipped bit was accepted")
            var opened = sealed
            // A hostile packet may already have taken this index (same SSRC and sequence number): then it is a replay.
            if rtcp {
                if (try? receiver.unprotectRTCP(&opened)) != nil { precondition(opened == packet, "SRTCP: round trip differs") }
            } else {
                do throws(SRTPError) {
                    try receiver.unprotectRTP(&opened)
                    precondition(opened == packet, "SRTP: round trip differs")
                } catch {
                    switch error {
                    case .replayed, .outsideReplayWindow, .authenticationFailed: break
                    default: preconditionFailure("SRTP: our own packet failed with \(error)")
                    }
                }
            }
        }
    }
}
