#if canImport(Glibc)
import Glibc
import POSIX

/// The parts of the Linux V4L2 kernel interface (`<linux/videodev2.h>`) the camera uses, declared in Swift
/// with the kernel's exact layout for 64-bit Linux (x86_64, arm64).
///
/// Sizes and offsets were checked against `videodev2.h` with a C program built by gcc (x86_64, Linux
/// headers 6.x); `V4L2ABITests` keeps checking them. Every struct is a plain value of fixed-width integers
/// and byte tuples, laid out in declaration order with explicit padding where C pads, so that
/// `MemoryLayout<T>.stride` equals C's `sizeof`. Unions are declared as their largest/most aligned member
/// plus raw bytes; the program reads only the member it needs. Multi-byte fields are native (little-endian).
enum V4L2ABI {
    typealias Bytes4 = (UInt8, UInt8, UInt8, UInt8)
    typealias Bytes16 = (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                         UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)
    typealias Bytes32 = (Bytes16, Bytes16)

    /// `struct v4l2_capability` (104 bytes): `VIDIOC_QUERYCAP`'s answer.
    struct Capability {
        var driver: Bytes16 = zeroBytes16
        var card: Bytes32 = (zeroBytes16, zeroBytes16)
        var busInfo: Bytes32 = (zeroBytes16, zeroBytes16)
        var version: UInt32 = 0
        var capabilities: UInt32 = 0
        var deviceCaps: UInt32 = 0
        var reserved: (UInt32, UInt32, UInt32) = (0, 0, 0)
    }

    /// `struct v4l2_fmtdesc` (64 bytes): one entry of `VIDIOC_ENUM_FMT`.
    struct FormatDescription {
        var index: UInt32 = 0
        var type: UInt32 = 0
        var flags: UInt32 = 0
        var description: Bytes32 = (zeroBytes16, zeroBytes16)
        var pixelFormat: UInt32 = 0
        var mbusCode: UInt32 = 0
        var reserved: (UInt32, UInt32, UInt32) = (0, 0, 0)
    }

    /// `struct v4l2_pix_format` (48 bytes): a single-planar picture format.
    struct PixFormat {
        var width: UInt32 = 0
        var height: UInt32 = 0
        var pixelFormat: UInt32 = 0
        var field: UInt32 = 0
        var bytesPerLine: UInt32 = 0
        var sizeImage: UInt32 = 0
        var colorspace: UInt32 = 0
        var priv: UInt32 = 0
        var flags: UInt32 = 0
        var ycbcrEncoding: UInt32 = 0
        var quantization: UInt32 = 0
        var transferFunction: UInt32 = 0
    }

    /// `struct v4l2_format` (208 bytes): `type`, 4 bytes of padding (the union holds pointers, so it is
    /// 8-aligned), then the 200-byte union, of which only `pix` is used.
    struct Format {
        var type: UInt32 = 0
        var unionPadding: UInt32 = 0
        var pix = PixFormat()
        /// The rest of the 200-byte union: 152 bytes, as 8-byte words so the struct is 8-aligned like C's.
        var unionRest: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
            = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    /// `struct v4l2_fract`: a fraction such as the time per frame.
    struct Fraction {
        var numerator: UInt32 = 0
        var denominator: UInt32 = 0
    }

    /// `struct v4l2_captureparm` (40 bytes).
    struct CaptureParameters {
        var capability: UInt32 = 0
        var captureMode: UInt32 = 0
        var timePerFrame = Fraction()
        var extendedMode: UInt32 = 0
        var readBuffers: UInt32 = 0
        var reserved: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    }

    /// `struct v4l2_streamparm` (204 bytes): `type` then a 200-byte union of which `capture` is used.
    struct StreamParameters {
        var type: UInt32 = 0
        var capture = CaptureParameters()
        /// The rest of the union: 160 bytes.
        var unionRest: (Bytes32, Bytes32, Bytes32, Bytes32, Bytes32)
            = ((zeroBytes16, zeroBytes16), (zeroBytes16, zeroBytes16), (zeroBytes16, zeroBytes16),
               (zeroBytes16, zeroBytes16), (zeroBytes16, zeroBytes16))
    }

    /// `struct v4l2_requestbuffers` (20 bytes).
    struct RequestBuffers {
        var count: UInt32 = 0
        var type: UInt32 = 0
        var memory: UInt32 = 0
        var capabilities: UInt32 = 0
        var flags: UInt8 = 0
        var reserved: (UInt8, UInt8, UInt8) = (0, 0, 0)
    }

    /// `struct v4l2_timecode` (16 bytes).
    struct TimeCode {
        var type: UInt32 = 0
        var flags: UInt32 = 0
        var frames: UInt8 = 0
        var seconds: UInt8 = 0
        var minutes: UInt8 = 0
        var hours: UInt8 = 0
        var userBits: Bytes4 = (0, 0, 0, 0)
    }

    /// `struct v4l2_buffer` (88 bytes): one capture buffer, as `VIDIOC_QUERYBUF`, `VIDIOC_QBUF` and
    /// `VIDIOC_DQBUF` exchange it. `m` is the union `{ __u32 offset; unsigned long userptr; … }`: for MMAP
    /// buffers its low 32 bits are the offset to pass to `mmap`.
    struct Buffer {
        var index: UInt32 = 0
        var type: UInt32 = 0
        var bytesUsed: UInt32 = 0
        var flags: UInt32 = 0
        var field: UInt32 = 0
        var timestampPadding: UInt32 = 0
        var timestamp = timeval(tv_sec: 0, tv_usec: 0)
        var timecode = TimeCode()
        var sequence: UInt32 = 0
        var memory: UInt32 = 0
        var m: UInt64 = 0
        var length: UInt32 = 0
        var reserved2: UInt32 = 0
        var requestFD: UInt32 = 0
        var tailPadding: UInt32 = 0

        /// The MMAP offset (`m.offset`).
        var offset: UInt32 { UInt32(truncatingIfNeeded: m) }
    }

    private static let zeroBytes16: Bytes16 = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    // MARK: Constants (videodev2.h)

    /// `V4L2_BUF_TYPE_VIDEO_CAPTURE`.
    static let bufferTypeVideoCapture: UInt32 = 1
    /// `V4L2_MEMORY_MMAP`.
    static let memoryMMAP: UInt32 = 1
    /// `V4L2_FIELD_NONE` (progressive).
    static let fieldNone: UInt32 = 1
    /// `V4L2_CAP_VIDEO_CAPTURE`.
    static let capabilityVideoCapture: UInt32 = 0x0000_0001
    /// `V4L2_CAP_VIDEO_CAPTURE_MPLANE`.
    static let capabilityVideoCaptureMultiplanar: UInt32 = 0x0000_1000
    /// `V4L2_CAP_STREAMING`.
    static let capabilityStreaming: UInt32 = 0x0400_0000
    /// `V4L2_CAP_DEVICE_CAPS`: `deviceCaps` is valid.
    static let capabilityDeviceCaps: UInt32 = 0x8000_0000
    /// `V4L2_CAP_TIMEPERFRAME` (in `v4l2_captureparm.capability`).
    static let captureTimePerFrame: UInt32 = 0x1000
    /// `V4L2_BUF_FLAG_ERROR`: the buffer's data may be corrupt.
    static let bufferFlagError: UInt32 = 0x0040

    // MARK: ioctl request numbers (<asm-generic/ioctl.h>: dir << 30 | size << 16 | type << 8 | nr)

    private static func request(_ direction: UInt, _ number: UInt, _ size: Int) -> UInt {
        direction << 30 | UInt(size) << 16 | UInt(UInt8(ascii: "V")) << 8 | number
    }
    private static let read: UInt = 2, write: UInt = 1, readWrite: UInt = 3

    /// `VIDIOC_QUERYCAP` = `_IOR('V', 0, struct v4l2_capability)`.
    static let queryCapability = request(read, 0, MemoryLayout<Capability>.stride)
    /// `VIDIOC_ENUM_FMT` = `_IOWR('V', 2, struct v4l2_fmtdesc)`.
    static let enumerateFormats = request(readWrite, 2, MemoryLayout<FormatDescription>.stride)
    /// `VIDIOC_G_FMT` = `_IOWR('V', 4, struct v4l2_format)`.
    static let getFormat = request(readWrite, 4, MemoryLayout<Format>.stride)
    /// `VIDIOC_S_FMT` = `_IOWR('V', 5, struct v4l2_format)`.
    static let setFormat = request(readWrite, 5, MemoryLayout<Format>.stride)
    /// `VIDIOC_REQBUFS` = `_IOWR('V', 8, struct v4l2_requestbuffers)`.
    static let requestBuffers = request(readWrite, 8, MemoryLayout<RequestBuffers>.stride)
    /// `VIDIOC_QUERYBUF` = `_IOWR('V', 9, struct v4l2_buffer)`.
    static let queryBuffer = request(readWrite, 9, MemoryLayout<Buffer>.stride)
    /// `VIDIOC_QBUF` = `_IOWR('V', 15, struct v4l2_buffer)`.
    static let queueBuffer = request(readWrite, 15, MemoryLayout<Buffer>.stride)
    /// `VIDIOC_DQBUF` = `_IOWR('V', 17, struct v4l2_buffer)`.
    static let dequeueBuffer = request(readWrite, 17, MemoryLayout<Buffer>.stride)
    /// `VIDIOC_STREAMON` = `_IOW('V', 18, int)`.
    static let streamOn = request(write, 18, MemoryLayout<Int32>.stride)
    /// `VIDIOC_STREAMOFF` = `_IOW('V', 19, int)`.
    static let streamOff = request(write, 19, MemoryLayout<Int32>.stride)
    /// `VIDIOC_G_PARM` = `_IOWR('V', 21, struct v4l2_streamparm)`.
    static let getParameters = request(readWrite, 21, MemoryLayout<StreamParameters>.stride)
    /// `VIDIOC_S_PARM` = `_IOWR('V', 22, struct v4l2_streamparm)`.
    static let setParameters = request(readWrite, 22, MemoryLayout<StreamParameters>.stride)

    /// Runs an ioctl on a V4L2 struct, retrying when a signal interrupts it (POSIX's ``retryOnInterrupt(_:)``).
    /// - Parameters:
    ///   - descriptor: the open device (`EBADF` once closed).
    ///   - request: one of the request numbers above.
    ///   - argument: the struct the kernel reads and fills.
    /// - Returns: 0 on success, else the `errno` value.
    static func control<Argument>(_ descriptor: FileDescriptor, _ request: UInt, _ argument: inout Argument) -> Int32 {
        let number = descriptor.rawValue
        let result = withUnsafeMutablePointer(to: &argument) { pointer in
            retryOnInterrupt { ioctl(number, request, UnsafeMutableRawPointer(pointer)) }
        }
        switch result {
        case .success: return 0
        case let .failure(code): return code.rawValue
        }
    }

    /// The text of a fixed-size, NUL-padded C string field.
    /// - Parameter field: the bytes.
    /// - Returns: the text up to the first NUL, invalid UTF-8 repaired.
    static func string<Field>(_ field: Field) -> String {
        withUnsafeBytes(of: field) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
#endif
