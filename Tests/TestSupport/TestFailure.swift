/// A test fixture that could not be found or made (for example "no avcC box in out.mp4"), thrown
/// so the test fails with that message.
public struct TestFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// A failure with a message.
    /// - Parameter description: what went wrong.
    public init(_ description: String) {
        self.description = description
    }
}
