extension Duration {
    /// The duration in seconds, as a `Double` (for the link measurements, which count in seconds).
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
