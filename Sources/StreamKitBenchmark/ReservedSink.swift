// A ByteSink into memory for the mux benchmarks.
import Containers

/// A sink that copies into one buffer reserved up front, so a muxer and the plain copy it is measured against
/// pay the same for their output.
struct ReservedSink: ByteSink {
    /// What was written.
    var bytes: [UInt8]

    /// A sink with room for `capacity` bytes.
    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ buffer: UnsafeRawBufferPointer) { bytes.append(contentsOf: buffer) }

    mutating func overwrite(_ newBytes: [UInt8], at offset: Int) {
        bytes.replaceSubrange(offset..<(offset + newBytes.count), with: newBytes)
    }

    func flush() {}

    func close() {}
}
