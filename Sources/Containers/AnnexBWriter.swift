import Bitstream
import MediaCore

/// Writes ``EncodedFrame``s (length-prefixed NAL units, as VideoToolbox hands them out) as an
/// ITU-T H.264 / H.265 Annex B byte stream (`.h264`, `.h265`): every NAL unit behind a 4-byte start
/// code `00 00 00 01`.
///
/// The parameter sets of the frame's ``FormatDescription`` (SPS, PPS — or VPS, SPS, PPS) go in front
/// of every key frame, and in front of the first frame, so a player that joins anywhere can start at
/// the next key frame. A parameter set the frame already carries in-band before its first slice
/// (byte for byte) is not repeated. Inserted parameter sets follow a leading access unit delimiter,
/// which must stay first (H.264 §7.4.1.2.3, H.265 §7.4.2.4.4).
public struct AnnexBWriter<Sink: ByteSink> {
    /// The sink; with ``MemoryByteSink`` its `bytes` hold the stream.
    public private(set) var sink: Sink
    /// The number of frames written.
    public private(set) var frameCount = 0
    /// The codec of the stream, fixed by the first frame.
    public private(set) var codec: CodecType?
    private var scratch: [UInt8] = []
    private var isFinished = false

    /// Creates a writer.
    /// - Parameter sink: where the byte stream goes.
    public init(sink: Sink) {
        self.sink = sink
    }

    /// Writes one frame.
    /// - Parameter frame: an H.264 or H.265 frame; every frame of a stream must have the same codec.
    /// - Throws: ``ContainerWriteError/unsupportedCodec(_:frameIndex:)`` for audio,
    ///   ``ContainerWriteError/frameMismatch(frameIndex:reason:)`` when the codec changes,
    ///   ``ContainerWriteError/malformedFrame(frameIndex:_:)`` for a bad length prefix,
    ///   ``ContainerWriteError/alreadyFinished`` after ``finish()``, ``ContainerWriteError/io(_:)``.
    public mutating func write(_ frame: EncodedFrame) throws(ContainerWriteError) {
        guard !isFinished else { throw .alreadyFinished }
        guard frame.codec.isVideo else { throw .unsupportedCodec(frame.codec, frameIndex: frameCount) }
        if let codec, codec != frame.codec {
            throw .frameMismatch(frameIndex: frameCount, reason: "codec \(frame.codec) in a \(codec) stream")
        }
        let units: [Range<Int>]
        do { units = try AVCC.nalUnitRanges(in: frame.data, lengthSize: frame.format.nalUnitLengthSize) } catch {
            throw .malformedFrame(frameIndex: frameCount, error)
        }
        let syntax = NALSyntax(codec: frame.codec)
        let data = frame.data
        var inserted: [[UInt8]] = []
        if frame.isKeyFrame || frameCount == 0 {
            // Parameter sets already in the frame before its first slice are not repeated.
            let leading = units.prefix { !syntax.isVCL(data[$0.lowerBound]) }
            inserted = frame.format.parameterSets.filter { set in
                !set.isEmpty && !leading.contains { data[$0].elementsEqual(set) }
            }
        }
        scratch.removeAll(keepingCapacity: true)
        var pending = inserted.isEmpty ? nil : inserted
        for unit in units {
            if let sets = pending, !syntax.isAccessUnitDelimiter(data[unit.lowerBound]) {
                for set in sets { scratch += AnnexB.startCode; scratch += set }
                pending = nil
            }
            scratch += AnnexB.startCode
            scratch += data[unit]
        }
        if let sets = pending {
            for set in sets { scratch += AnnexB.startCode; scratch += set }
        }
        do { try sink.write(scratch) } catch { throw .io(error) }
        codec = frame.codec
        frameCount += 1
    }

    /// Flushes and closes the sink. Calling it again does nothing.
    /// - Throws: ``ContainerWriteError/io(_:)`` when the last bytes cannot be written.
    public mutating func finish() throws(ContainerWriteError) {
        guard !isFinished else { return }
        isFinished = true
        do { try sink.close() } catch { throw .io(error) }
    }

    /// The NAL unit header fields the writer looks at, per codec.
    private struct NALSyntax {
        let codec: CodecType

        /// H.264 §7.4.1: `nal_unit_type` 1…5 are slices; H.265 §7.4.2.2: types 0…31 are VCL.
        func isVCL(_ firstByte: UInt8) -> Bool {
            codec == .hevc ? (firstByte >> 1) & 0x3F < 32 : (1...5).contains(firstByte & 0x1F)
        }

        /// H.264 type 9, H.265 type 35 (`AUD_NUT`).
        func isAccessUnitDelimiter(_ firstByte: UInt8) -> Bool {
            codec == .hevc ? (firstByte >> 1) & 0x3F == 35 : firstByte & 0x1F == 9
        }
    }
}

extension AnnexBWriter where Sink == FileByteSink {
    /// Creates (or truncates) a `.h264` / `.h265` file.
    /// - Parameter path: the file's path.
    /// - Throws: ``ContainerWriteError/io(_:)`` when the file cannot be created.
    public init(path: String) throws(ContainerWriteError) {
        let sink: FileByteSink
        do { sink = try FileByteSink(path: path) } catch { throw .io(error) }
        self.init(sink: sink)
    }
}
