import Codecs

extension DecompressionSession {
    /// Closes the session and prints its report: the pictures that failed and the ones withheld until a key frame.
    /// - Returns: what closing threw, if it did.
    func closeReporting() async -> (any Error)? {
        do {
            let report = try await close()
            for error in report.failures { printError("error: \(error)") }
            if report.dropped > 0 { printError("note: \(report.dropped) frames withheld until the next key frame") }
            return nil
        } catch {
            return error
        }
    }
}
