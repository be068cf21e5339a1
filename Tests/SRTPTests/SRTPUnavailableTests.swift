#if !OpenSSL
import NetworkIO
import Testing
@testable import SRTP

/// Without the OpenSSL trait the public API exists and fails with a clear `unavailable`.
@Suite struct SRTPUnavailableTests {
    @Test func contextsAndCertificatesAreUnavailable() throws {
        let material = try SRTPKeyingMaterial(profile: .aeadAES128GCM, masterKey: Array(0..<16), masterSalt: Array(0..<12))
        #expect(throws: SRTPError.unavailable) { try SRTPContext(material: material) }
        #expect(throws: DTLSError.unavailable) { try DTLSCertificate() }
        #expect(SRTPError.unavailable.description.contains("built without OpenSSL"))
        #expect(DTLSError.unavailable.description.contains("built without OpenSSL"))
    }
}
#endif
