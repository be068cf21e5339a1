import NativeH264Kernels
import TestSupport

/// A plane of random samples the tests own, with a stride wider than the width.
struct RandomPlane {
    var samples: [UInt8]
    let width: Int, height: Int, stride: Int

    init(width: Int, height: Int, generator: inout SplitMix64, smooth: Bool = false) {
        self.width = width
        self.height = height
        stride = width + 7
        samples = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            for x in 0..<width {
                // Smooth planes keep neighbours close, so filters that look at gradients take every branch.
                samples[y * stride + x] = smooth ? UInt8(truncatingIfNeeded: 100 + (x + y) / 3 + Int(generator.next() % 6))
                    : UInt8(truncatingIfNeeded: generator.next())
            }
        }
    }

    func withView<R>(_ body: (PlaneView) -> R) -> R {
        samples.withUnsafeBufferPointer { body(PlaneView(base: $0.baseAddress!, width: width, height: height, stride: stride)) }
    }

    mutating func withMutableView<R>(_ body: (MutablePlaneView) -> R) -> R {
        let (w, h, s) = (width, height, stride)
        return samples.withUnsafeMutableBufferPointer {
            body(MutablePlaneView(base: $0.baseAddress!, width: w, height: h, stride: s))
        }
    }
}
