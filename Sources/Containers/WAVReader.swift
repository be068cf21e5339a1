import MediaCore

/// Reads a WAV file (RIFF/WAVE, ITU/Microsoft "Multimedia Programming Interface and Data
/// Specifications 1.0") in blocks of samples: 16-bit PCM or 32-bit IEEE float, plain or
/// `WAVE_FORMAT_EXTENSIBLE`.
///
/// The header is read when the reader is created: chunks before `data` other than `fmt `
/// (`LIST`, `fact`, `JUNK` …) are skipped. Each ``read(maxFrameCount:)`` returns interleaved
/// samples in native byte order. A `data` size of `0xFFFFFFFF` (a streamed file) means "until the end".
/// A `data` chunk cut short yields every complete sample frame, then
/// ``WAVError/truncatedData(byteOffset:declaredBytes:availableBytes:)``.
public struct WAVReader<Source: ByteSource> {
    /// The format from the `fmt ` chunk.
    public let format: WAVFormat
    /// The file offset of the first sample byte.
    public let dataByteOffset: Int
    /// The `data` chunk's declared size, or `nil` for a streamed file (`0xFFFFFFFF`).
    public let declaredDataByteCount: Int?
    /// The sample frames read so far.
    public private(set) var framesRead = 0
    private var input: BufferedByteInput<Source>
    private var dataBytesRead = 0
    private var pendingError: WAVError?
    private var isDone = false

    /// Creates a reader and reads the header up to the first sample.
    /// - Parameter source: the file, positioned at its first byte.
    /// - Throws: ``WAVError`` for a file that is not a WAVE file, a format other than 16-bit PCM or
    ///   32-bit float (naming the format tag), or a header cut short.
    public init(source: Source) throws(WAVError) {
        var input = BufferedByteInput(source: source)
        let riff = try Self.read(&input, 12)
        let riffTag: [UInt8] = [0x52, 0x49, 0x46, 0x46]  // "RIFF"
        let waveTag: [UInt8] = [0x57, 0x41, 0x56, 0x45]  // "WAVE"
        guard riff.count == 12 else {
            if riff.count >= 4 && !riff.starts(with: riffTag) { throw .notRIFF(found: Self.fourCC(riff, 0)) }
            throw .truncatedHeader(byteOffset: riff.count, what: "RIFF header")
        }
        guard riff.starts(with: riffTag) else { throw .notRIFF(found: Self.fourCC(riff, 0)) }
        guard riff[8...].elementsEqual(waveTag) else { throw .notWAVE(found: Self.fourCC(riff, 8)) }
        var format: WAVFormat?
        while true {
            let chunkOffset = input.offset
            let chunkHeader = try Self.read(&input, 8)
            if chunkHeader.isEmpty { throw format == nil ? .missingFormatChunk(byteOffset: chunkOffset) : .missingDataChunk(byteOffset: chunkOffset) }
            guard chunkHeader.count == 8 else { throw .truncatedHeader(byteOffset: chunkOffset, what: "chunk header") }
            let id = Self.fourCC(chunkHeader, 0)
            let size = Int(chunkHeader[4]) | Int(chunkHeader[5]) << 8 | Int(chunkHeader[6]) << 16 | Int(chunkHeader[7]) << 24
            let payloadOffset = chunkOffset + 8
            switch id {
            case "fmt ":
                // WAVEFORMATEXTENSIBLE is 40 bytes; anything past the first 4 KiB is not looked at.
                let wanted = Swift.min(size, 4096)
                let payload = try Self.read(&input, wanted)
                guard payload.count == wanted else { throw .truncatedHeader(byteOffset: payloadOffset, what: "fmt chunk") }
                format = try WAVFormat.parse(payload, byteOffset: payloadOffset)
                try Self.skip(&input, size - wanted + (size & 1), payloadOffset: payloadOffset, what: "fmt chunk")
            case "data":
                guard let format else { throw .missingFormatChunk(byteOffset: chunkOffset) }
                self.format = format
                self.dataByteOffset = payloadOffset
                self.declaredDataByteCount = size == 0xFFFF_FFFF ? nil : size
                self.input = input
                return
            default:
                let skipped: Int
                do { skipped = try input.skip(count: size + (size & 1)) } catch { throw .io(error) }
                if skipped < size { throw .missingDataChunk(byteOffset: input.offset) }
            }
        }
    }

    /// The number of sample frames the `data` chunk declares (`nil` for a streamed file).
    public var declaredFrameCount: Int? { declaredDataByteCount.map { $0 / format.blockAlign } }

    /// Reads the next block of samples.
    /// - Parameter maxFrameCount: the most sample frames (one sample per channel) to return; at least 1.
    /// - Returns: interleaved samples in the file's sample format, or `nil` at the end of the data
    ///   and after an error.
    /// - Throws: ``WAVError/truncatedData(byteOffset:declaredBytes:availableBytes:)`` once, after the
    ///   last complete samples, when the data chunk is cut short; ``WAVError/io(_:)`` when reading fails.
    public mutating func read(maxFrameCount: Int = 4096) throws(WAVError) -> AudioBuffer? {
        guard !isDone else { return nil }
        if let pendingError {
            isDone = true
            throw pendingError
        }
        let align = format.blockAlign
        var wanted = Swift.min(Swift.max(1, maxFrameCount), Int.max / align) * align
        if let declared = declaredDataByteCount { wanted = Swift.min(wanted, declared - dataBytesRead) }
        guard wanted > 0 else { isDone = true; return nil }
        var bytes: [UInt8]
        do { bytes = try input.read(count: wanted) } catch { isDone = true; throw .io(error) }
        dataBytesRead += bytes.count
        let whole = bytes.count - bytes.count % align
        if bytes.count < wanted {
            // The stream ended: a streamed file (no declared size) ending on a sample frame is complete.
            if declaredDataByteCount != nil || whole != bytes.count {
                pendingError = .truncatedData(byteOffset: dataByteOffset, declaredBytes: declaredDataByteCount,
                                              availableBytes: dataBytesRead)
            } else {
                isDone = true
            }
        }
        if whole < bytes.count { bytes.removeLast(bytes.count - whole) }
        guard whole > 0 else {
            isDone = true
            if let pendingError { throw pendingError }
            return nil
        }
        #if _endian(big)
        Self.swapToNative(&bytes, sampleSize: format.sampleFormat.byteCount)
        #endif
        let buffer: AudioBuffer
        do {
            buffer = try AudioBuffer(sampleRate: format.sampleRate, channelCount: format.channelCount,
                                     format: format.sampleFormat, isInterleaved: true, channelData: [bytes])
        } catch {
            // The format was checked (rate, channels, block alignment), so this cannot happen; report it anyway.
            isDone = true
            throw .invalidFormatField(field: "nBlockAlign", value: align, byteOffset: dataByteOffset, reason: error.description)
        }
        framesRead += whole / align
        return buffer
    }

    #if _endian(big)
    /// WAV samples are little-endian; swaps them on a big-endian machine.
    private static func swapToNative(_ bytes: inout [UInt8], sampleSize: Int) {
        var index = 0
        while index + sampleSize <= bytes.count {
            bytes[index..<(index + sampleSize)].reverse()
            index += sampleSize
        }
    }
    #endif

    private static func read(_ input: inout BufferedByteInput<Source>, _ count: Int) throws(WAVError) -> [UInt8] {
        do { return try input.read(count: count) } catch { throw .io(error) }
    }

    private static func skip(_ input: inout BufferedByteInput<Source>, _ count: Int, payloadOffset: Int, what: String) throws(WAVError) {
        guard count > 0 else { return }
        let skipped: Int
        do { skipped = try input.skip(count: count) } catch { throw .io(error) }
        if skipped < count - 1 { throw .truncatedHeader(byteOffset: payloadOffset, what: what) }
    }

    /// Four bytes as text (non-printable bytes as `?`).
    private static func fourCC(_ bytes: [UInt8], _ offset: Int) -> String {
        String(bytes[offset..<Swift.min(offset + 4, bytes.count)].map { (0x20...0x7E).contains($0) ? Character(Unicode.Scalar($0)) : "?" })
    }
}

extension WAVReader where Source == MemoryByteSource {
    /// Creates a reader over a whole WAV file in memory (the entry point for tests and fuzzing).
    /// - Parameter data: the file's bytes.
    /// - Throws: ``WAVError`` as ``init(source:)``.
    public init(data: [UInt8]) throws(WAVError) {
        try self.init(source: MemoryByteSource(data))
    }
}

extension WAVReader where Source == FileByteSource {
    /// Opens a WAV file and reads its header; samples are read as they are asked for.
    /// - Parameter path: the file's path.
    /// - Throws: ``WAVError/io(_:)`` when the file cannot be opened, else as ``init(source:)``.
    public init(path: String) throws(WAVError) {
        let source: FileByteSource
        do { source = try FileByteSource(path: path) } catch { throw .io(error) }
        try self.init(source: source)
    }
}
