import Codecs
import MediaCore
import Testing

/// The configuration's rules live in one place, `CompressionConfiguration.validate()`: a session refuses them at
/// creation and again when its rate control changes, the same way whichever engine would have served it.
struct ConfigurationRulesTests {
    /// A constant quantiser excludes both kinds of rate control, with the property named.
    @Test func aQuantiserExcludesRateControl() {
        var configuration = NativeEngineTests.configuration(bitRate: 800_000)
        configuration.quantizer = 28
        #expect(throws: CodecError.invalidConfiguration(
            property: .quantizer, reason: "excludes averageBitRate: a constant quantiser has no rate control")) {
            try configuration.validate()
        }
        configuration.averageBitRate = nil
        configuration.dataRateLimits = [DataRateLimit(bytes: 100_000, seconds: 1)]
        #expect(throws: CodecError.invalidConfiguration(
            property: .quantizer, reason: "excludes dataRateLimits: a constant quantiser ignores the rate limits")) {
            try configuration.validate()
        }
        configuration.dataRateLimits = []
        #expect(throws: Never.self) { try configuration.validate() }
    }

    /// The session refuses a conflicting configuration before any engine sees it, so every engine (here the
    /// pure-Swift one, present in every build) reports the same error.
    @Test func theSessionRefusesBeforeTheEngine() {
        var configuration = NativeEngineTests.configuration(bitRate: 800_000)
        configuration.quantizer = 28
        #expect {
            _ = try CompressionSession(configuration: configuration)
        } throws: { error in
            guard case .invalidConfiguration(.quantizer, _) = error as? CodecError else { return false }
            return true
        }
    }

    /// A running session checks a rate change with the same rules: a constant-quantiser session takes no bit rate,
    /// and a bit rate must be positive.
    @Test func aRateChangeFollowsTheSameRules() async throws {
        var constant = NativeEngineTests.configuration(bitRate: nil)
        constant.quantizer = 30
        let fixed = try CompressionSession(configuration: constant)
        await #expect(throws: CodecError.invalidConfiguration(
            property: .quantizer, reason: "excludes averageBitRate: a constant quantiser has no rate control")) {
            try await fixed.setRateControl(averageBitRate: 300_000, dataRateLimits: [])
        }
        #expect(fixed.currentRateControl.averageBitRate == nil, "a refused change leaves the rate control as it was")
        _ = try await fixed.close()

        let live = try CompressionSession(configuration: NativeEngineTests.configuration(bitRate: 800_000))
        await #expect(throws: CodecError.invalidConfiguration(property: .averageBitRate, reason: "must be positive, got 0")) {
            try await live.setRateControl(averageBitRate: 0, dataRateLimits: [])
        }
        try await live.setRateControl(averageBitRate: 400_000, dataRateLimits: [DataRateLimit(bytes: 60_000, seconds: 1)])
        #expect(live.currentRateControl.averageBitRate == 400_000)
        _ = try await live.close()
    }
}
