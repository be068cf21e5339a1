import Foundation
import MediaCore
import Testing
import TestSupport
@testable import Capture

/// V4L2 on a machine without a camera: the errors are typed and say what is wrong; the device listing skips
/// what is not a camera; the kernel structs match `videodev2.h`; buffer conversion matches ffmpeg.
@Suite("V4L2 camera")
struct V4L2CameraTests {
    @Test("opening a device node that does not exist is deviceNotFound")
    func missingDevice() {
        #expect(throws: CaptureError.deviceNotFound(path: "/dev/video99")) {
            try V4L2Camera(device: "/dev/video99")
        }
        let error = CaptureError.deviceNotFound(path: "/dev/video99")
        #expect(error.description.contains("/dev/video99"))
    }

    @Test("opening something that is not a V4L2 device is notAVideoDevice, with the errno text")
    func notAVideoDevice() throws {
        #if os(Linux)
        do {
            _ = try V4L2Camera(device: "/dev/null")
            Issue.record("/dev/null opened as a camera")
        } catch {
            guard case let .notAVideoDevice(path, reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == "/dev/null")
            // VIDIOC_QUERYCAP on a character device that is not V4L2 fails with ENOTTY.
            #expect(reason.contains("errno \(ENOTTY)"), "\(reason)")
            #expect(error.description.contains("not a V4L2 video device"))
        }
        #endif
    }

    @Test("bad parameters are rejected before the device is touched")
    func invalidParameters() {
        #expect(throws: CaptureError.invalidConfiguration(parameter: "frameRate", reason: "is 0; allowed 1…1000")) {
            try V4L2Camera(device: "/dev/video99", frameRate: 0)
        }
        #expect(throws: CaptureError.self) { try V4L2Camera(device: "/dev/video99", bufferCount: 1) }
    }

    @Test("availableDevices skips video* entries that are not capture devices; nodes sort by number")
    func listing() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["video10", "video2", "video0", "videoX", "vbi0"] {
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: Data([0]))
        }
        let base = directory.path
        #expect(V4L2Camera.videoNodes(in: base) == ["video0", "video2", "video10"].map { base + "/" + $0 })
        #expect(V4L2Camera.availableDevices(in: base).isEmpty)
        #expect(V4L2Camera.availableDevices(in: base + "/absent").isEmpty)
        // This machine has no camera: whatever /dev holds, nothing listed may fail to be a capture device.
        for device in V4L2Camera.availableDevices() { #expect(device.path.hasPrefix("/dev/video")) }
    }

    #if os(Linux) && (arch(x86_64) || arch(arm64))
    @Test("the Swift structs have videodev2.h's sizes and offsets, and the ioctl numbers match")
    func kernelLayout() {
        // Expected values printed by a C program compiled with gcc against /usr/include/linux/videodev2.h
        // (x86_64, Linux headers 6.1): sizeof, offsetof and the VIDIOC_* macros.
        #expect(MemoryLayout<V4L2ABI.Capability>.stride == 104)
        #expect(MemoryLayout<V4L2ABI.Capability>.offset(of: \.version) == 80)
        #expect(MemoryLayout<V4L2ABI.Capability>.offset(of: \.capabilities) == 84)
        #expect(MemoryLayout<V4L2ABI.Capability>.offset(of: \.deviceCaps) == 88)
        #expect(MemoryLayout<V4L2ABI.FormatDescription>.stride == 64)
        #expect(MemoryLayout<V4L2ABI.FormatDescription>.offset(of: \.description) == 12)
        #expect(MemoryLayout<V4L2ABI.FormatDescription>.offset(of: \.pixelFormat) == 44)
        #expect(MemoryLayout<V4L2ABI.PixFormat>.stride == 48)
        #expect(MemoryLayout<V4L2ABI.Format>.stride == 208)
        #expect(MemoryLayout<V4L2ABI.Format>.alignment == 8)
        #expect(MemoryLayout<V4L2ABI.Format>.offset(of: \.pix) == 8)
        #expect(MemoryLayout<V4L2ABI.Format>.offset(of: \.pix.bytesPerLine) == 24)
        #expect(MemoryLayout<V4L2ABI.Format>.offset(of: \.pix.sizeImage) == 28)
        #expect(MemoryLayout<V4L2ABI.StreamParameters>.stride == 204)
        #expect(MemoryLayout<V4L2ABI.StreamParameters>.offset(of: \.capture.capability) == 4)
        #expect(MemoryLayout<V4L2ABI.StreamParameters>.offset(of: \.capture.timePerFrame) == 12)
        #expect(MemoryLayout<V4L2ABI.RequestBuffers>.stride == 20)
        #expect(MemoryLayout<V4L2ABI.Buffer>.stride == 88)
        #expect(MemoryLayout<V4L2ABI.Buffer>.size == 88)
        #expect(MemoryLayout<V4L2ABI.Buffer>.offset(of: \.field) == 16)
        #expect(MemoryLayout<V4L2ABI.Buffer>.offset(of: \.timestamp) == 24)
        #expect(MemoryLayout<V4L2ABI.Buffer>.offset(of: \.timecode) == 40)
        #expect(MemoryLayout<V4L2ABI.Buffer>.offset(of: \.sequence) == 56)
        #expect(MemoryLayout<V4L2ABI.Buffer>.offset(of: \.memory) == 60)
        #expect(MemoryLayout<V4L2ABI.Buffer>.offset(of: \.m) == 64)
        #expect(MemoryLayout<V4L2ABI.Buffer>.offset(of: \.length) == 72)
        #expect(MemoryLayout<V4L2ABI.Buffer>.offset(of: \.reserved2) == 76)
        #expect(MemoryLayout<V4L2ABI.Buffer>.offset(of: \.requestFD) == 80)
        #expect(V4L2ABI.queryCapability == 0x8068_5600)
        #expect(V4L2ABI.enumerateFormats == 0xC040_5602)
        #expect(V4L2ABI.getFormat == 0xC0D0_5604)
        #expect(V4L2ABI.setFormat == 0xC0D0_5605)
        #expect(V4L2ABI.requestBuffers == 0xC014_5608)
        #expect(V4L2ABI.queryBuffer == 0xC058_5609)
        #expect(V4L2ABI.queueBuffer == 0xC058_560F)
        #expect(V4L2ABI.dequeueBuffer == 0xC058_5611)
        #expect(V4L2ABI.streamOn == 0x4004_5612)
        #expect(V4L2ABI.streamOff == 0x4004_5613)
        #expect(V4L2ABI.getParameters == 0xC0CC_5615)
        #expect(V4L2ABI.setParameters == 0xC0CC_5616)
        // V4L2_PIX_FMT_* from the same program.
        #expect(V4L2FrameConverter.nv12 == 0x3231_564E)
        #expect(V4L2FrameConverter.yu12 == 0x3231_5559)
        #expect(V4L2FrameConverter.nv21 == 0x3132_564E)
        #expect(V4L2FrameConverter.yv12 == 0x3231_5659)
        #expect(V4L2FrameConverter.yuyv == 0x5659_5559)
        #expect(V4L2FrameConverter.fourCCText(0x5659_5559) == "YUYV")
    }
    #endif
}

/// Capture-buffer conversion checked against ffmpeg: ffmpeg writes a test picture as YUYV, NV12 and I420;
/// our conversion of the YUYV bytes must give ffmpeg's own YUYV → NV12 conversion exactly, and copying padded
/// NV12/I420 buffers must give ffmpeg's packed bytes exactly.
@Suite("V4L2 buffer conversion, checked with ffmpeg", .enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct V4L2FrameConverterTests {
    static let width = 96, height = 64

    /// ffmpeg's raw bytes of one testsrc2 frame in a pixel format.
    static func ffmpegFrame(_ pixelFormat: String, from source: String? = nil) throws -> [UInt8] {
        let input = source.map { ["-f", "rawvideo", "-pix_fmt", "yuyv422", "-s", "\(width)x\(height)", "-i", $0] }
            ?? ["-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=1"]
        // swscale's "area" filter averages the two chroma rows a 4:2:0 sample covers (a box filter), rounding.
        let output = try ExternalTool.check("ffmpeg", ["-v", "error"] + input + ["-frames:v", "1", "-sws_flags", "area",
                                                                                 "-f", "rawvideo", "-pix_fmt", pixelFormat, "-"])
        return [UInt8](output.standardOutput)
    }

    /// Rows of `rowLength` bytes re-laid `stride` apart, padding filled with 0xEE.
    static func padded(_ bytes: ArraySlice<UInt8>, rowLength: Int, stride: Int) -> [UInt8] {
        var out: [UInt8] = []
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            out += bytes[offset..<min(offset + rowLength, bytes.endIndex)]
            out += [UInt8](repeating: 0xEE, count: stride - rowLength)
            offset += rowLength
        }
        return out
    }

    @Test("YUYV becomes exactly the NV12 ffmpeg makes with a box (area) chroma filter")
    func yuyv() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let yuyv = try Self.ffmpegFrame("yuyv422")
        try #require(yuyv.count == Self.width * Self.height * 2)
        let path = directory.appendingPathComponent("frame.yuyv").path
        try Data(yuyv).write(to: URL(fileURLWithPath: path))
        let reference = try Self.ffmpegFrame("nv12", from: path)
        let lumaCount = Self.width * Self.height
        try #require(reference.count == lumaCount * 3 / 2)
        // A driver's rows may be padded: 16 bytes per row here.
        let stride = 2 * Self.width + 16
        let source = Self.padded(yuyv[...], rowLength: 2 * Self.width, stride: stride)
        let picture = try #require(source.withUnsafeBytes {
            V4L2FrameConverter.pixelBuffer(from: $0, fourCC: V4L2FrameConverter.yuyv, width: Self.width,
                                           height: Self.height, bytesPerLine: stride)
        })
        #expect(picture.format == .nv12)
        let ours = picture.packedBytes
        #expect(Array(ours[..<lumaCount]) == Array(reference[..<lumaCount]), "luma")
        #expect(Array(ours[lumaCount...]) == Array(reference[lumaCount...]), "chroma")
    }

    @Test("padded NV12, NV21, I420 and YV12 buffers are copied to ffmpeg's packed bytes exactly")
    func planarAndBiplanar() throws {
        let width = Self.width, height = Self.height
        let lumaCount = width * height, chromaCount = lumaCount / 4
        let line = width + 32
        let i420 = try Self.ffmpegFrame("yuv420p"), nv12 = try Self.ffmpegFrame("nv12"), nv21 = try Self.ffmpegFrame("nv21")
        let cases: [(UInt32, PixelFormat, [UInt8], [UInt8])] = [
            (V4L2FrameConverter.nv12, .nv12, nv12,
             Self.padded(nv12[..<lumaCount], rowLength: width, stride: line) + Self.padded(nv12[lumaCount...], rowLength: width, stride: line)),
            (V4L2FrameConverter.nv21, .nv21, nv21,
             Self.padded(nv21[..<lumaCount], rowLength: width, stride: line) + Self.padded(nv21[lumaCount...], rowLength: width, stride: line)),
            (V4L2FrameConverter.yu12, .i420, i420,
             Self.padded(i420[..<lumaCount], rowLength: width, stride: line)
                + Self.padded(i420[lumaCount..<(lumaCount + chromaCount)], rowLength: width / 2, stride: line / 2)
                + Self.padded(i420[(lumaCount + chromaCount)...], rowLength: width / 2, stride: line / 2)),
            // YV12 is I420 with the chroma planes swapped (V first).
            (V4L2FrameConverter.yv12, .yv12, Array(i420[..<lumaCount]) + i420[(lumaCount + chromaCount)...] + i420[lumaCount..<(lumaCount + chromaCount)],
             Self.padded(i420[..<lumaCount], rowLength: width, stride: line)
                + Self.padded(i420[(lumaCount + chromaCount)...], rowLength: width / 2, stride: line / 2)
                + Self.padded(i420[lumaCount..<(lumaCount + chromaCount)], rowLength: width / 2, stride: line / 2)),
        ]
        for (fourCC, format, expected, buffer) in cases {
            let picture = try #require(buffer.withUnsafeBytes {
                V4L2FrameConverter.pixelBuffer(from: $0, fourCC: fourCC, width: width, height: height, bytesPerLine: line)
            })
            #expect(picture.format == format)
            #expect(picture.packedBytes == expected, "\(format)")
            // The last row needs no padding after it; one byte less than that is refused, not read past.
            let tailPadding = format.planeCount == 2 ? line - width : (line - width) / 2
            let exact = Array(buffer.dropLast(tailPadding)), short = Array(buffer.dropLast(tailPadding + 1))
            let accepted = exact.withUnsafeBytes {
                V4L2FrameConverter.pixelBuffer(from: $0, fourCC: fourCC, width: width, height: height, bytesPerLine: line)
            }
            #expect(accepted?.packedBytes == expected, "\(format) buffer without tail padding")
            let refused = short.withUnsafeBytes {
                V4L2FrameConverter.pixelBuffer(from: $0, fourCC: fourCC, width: width, height: height, bytesPerLine: line)
            }
            #expect(refused == nil, "\(format) short buffer")
        }
    }

    @Test("unknown formats and impossible geometry are refused")
    func refusals() {
        let bytes = [UInt8](repeating: 0, count: 1024)
        bytes.withUnsafeBytes { raw in
            #expect(V4L2FrameConverter.pixelBuffer(from: raw, fourCC: V4L2FrameConverter.fourCC("MJPG"), width: 8, height: 8, bytesPerLine: 8) == nil)
            #expect(V4L2FrameConverter.pixelBuffer(from: raw, fourCC: V4L2FrameConverter.nv12, width: 8, height: 8, bytesPerLine: 4) == nil)
            #expect(V4L2FrameConverter.pixelBuffer(from: raw, fourCC: V4L2FrameConverter.nv12, width: 0, height: 8, bytesPerLine: 8) == nil)
        }
    }
}
