/// The memory behind one ``LumaReferencePlanes``: its four padded planes and the 16-bit
/// intermediates of the centre plane, in one allocation.
///
/// A picture's planes are rebuilt for every reference picture. Rebuilding them in the storage of a
/// reference that is no longer used keeps the pages the kernel has already mapped. A fresh allocation
/// of this size is a fresh `mmap`, and zeroing its pages cost about a fifth of the encoder's time at
/// 720p. An encoder keeps the retired storage and passes it to the next build once nothing else holds
/// it (`isKnownUniquelyReferenced`).
public final class ReferencePlaneStorage: @unchecked Sendable {
    /// Samples in one padded plane: `stride * (height + 2 * padding)`.
    public let planeSize: Int
    /// The four planes G, b, h and j, `planeSize` samples each, one after the other.
    let samples: UnsafeMutablePointer<UInt8>
    /// The unrounded horizontal half-sample values b1 of every padded position (`planeSize`).
    let intermediates: UnsafeMutablePointer<Int16>
    private let memory: UnsafeMutableRawPointer

    /// Allocates the storage of planes `planeSize` samples large (uninitialised).
    /// - Parameter planeSize: samples in one padded plane, positive.
    public init(planeSize: Int) {
        precondition(planeSize > 0, "a reference plane holds at least one sample")
        self.planeSize = planeSize
        // The four sample planes, then the Int16 intermediates (an even offset: aligned for Int16).
        let sampleBytes = (4 * planeSize + 15) & ~15
        memory = .allocate(byteCount: sampleBytes + 2 * planeSize, alignment: 16)
        samples = memory.bindMemory(to: UInt8.self, capacity: 4 * planeSize)
        intermediates = (memory + sampleBytes).bindMemory(to: Int16.self, capacity: planeSize)
    }

    deinit { memory.deallocate() }
}
