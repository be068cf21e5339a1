import AAC
import Bitstream
import MediaCore
import Opus

/// Writes a transport stream (ISO/IEC 13818-1 / ITU-T H.222.0) of one program — H.264 or H.265 video and AAC
/// in ADTS — the way `ffmpeg -f mpegts` lays it out:
///
/// - 188-byte packets (§2.4.3.2) with a continuity counter per PID (§2.4.3.3), adaptation fields (§2.4.3.4) for
///   the PCR, `random_access_indicator` on key frames, and stuffing;
/// - the program association and program map sections (§2.4.4.3, §2.4.4.8, with their `CRC_32`, Annex A) at the
///   start, before every key frame and at least every 100 ms;
/// - one PES packet (§2.4.3.6) per picture with PTS and DTS (§2.4.3.7), its payload an Annex B access unit
///   (ITU-T H.264 / H.265 Annex B) that starts with an access unit delimiter and, on key frames, the
///   parameter sets; `PES_packet_length` 0 for video, as FFmpeg writes;
/// - AAC frames behind ADTS headers (ISO/IEC 13818-7 §6.2.1), several per PES packet up to
///   ``Configuration/audioPayloadSize`` bytes, as FFmpeg groups them; or Opus packets, each behind its
///   `opus_control_header` (``TSOpusMapping``), grouped the same way in private_stream_1 PES packets, the
///   encoder's pre-skip cut by `start_trim` on the first units and a short last unit by `end_trim`;
/// - the PCR (§2.4.3.5) on the video PID (the audio PID without video), at least every
///   ``Configuration/pcrInterval`` — in an adaptation-field-only packet when no picture comes in time.
///
/// Feed frames in decode order, both tracks interleaved by decode time; times are written as given (plus
/// ``Configuration/timestampOffset``), modulo 2^33.
public struct TSWriter<Sink: ByteSink> {
    /// What the stream carries and how it is laid out.
    public struct Configuration: Sendable, Hashable {
        /// The video format (H.264 or H.265), `nil` for audio alone.
        public var video: FormatDescription?
        /// The audio format (AAC or Opus), `nil` for video alone.
        public var audio: AudioFormatDescription?
        /// The PID of the program map section (FFmpeg's 0x1000).
        public var pmtPID: UInt16
        /// The video PID (FFmpeg's 0x100).
        public var videoPID: UInt16
        /// The audio PID (0x101 beside video, as FFmpeg numbers them).
        public var audioPID: UInt16
        /// Added to every time written, in 90 kHz ticks (for example 126 000 — FFmpeg's 1.4 s — so that the
        /// negative decode times of an encoder with B-frames stay positive).
        public var timestampOffset: Int64
        /// The longest time between two PCRs, in 90 kHz ticks (20 ms, FFmpeg's default; §2.7.2 allows 100 ms).
        public var pcrInterval: Int64
        /// The longest time between two copies of the program tables, in 90 kHz ticks (100 ms).
        public var tableInterval: Int64
        /// How many bytes of ADTS frames one audio PES packet gathers (FFmpeg's `pes_payload_size`, 2930).
        public var audioPayloadSize: Int

        /// Creates a configuration.
        /// - Parameters:
        ///   - video: the video format, or `nil`.
        ///   - audio: the audio format, or `nil`.
        ///   - pmtPID: the program map's PID.
        ///   - videoPID: the video PID.
        ///   - audioPID: the audio PID.
        ///   - timestampOffset: ticks added to every time.
        ///   - pcrInterval: the longest gap between PCRs.
        ///   - tableInterval: the longest gap between program tables.
        ///   - audioPayloadSize: the ADTS bytes per audio PES packet.
        public init(video: FormatDescription?, audio: AudioFormatDescription?, pmtPID: UInt16 = 0x1000,
                    videoPID: UInt16 = 0x100, audioPID: UInt16 = 0x101, timestampOffset: Int64 = 0,
                    pcrInterval: Int64 = 1800, tableInterval: Int64 = 9000, audioPayloadSize: Int = 2930) {
            self.video = video
            self.audio = audio
            self.pmtPID = pmtPID
            self.videoPID = videoPID
            self.audioPID = audioPID
            self.timestampOffset = timestampOffset
            self.pcrInterval = pcrInterval
            self.tableInterval = tableInterval
            self.audioPayloadSize = audioPayloadSize
        }
    }

    /// The sink; with ``MemoryByteSink`` its `bytes` hold the stream.
    public private(set) var sink: Sink
    /// The configuration.
    public let configuration: Configuration
    /// The program map written.
    public let programMap: TSProgramMap
    /// The bytes written so far.
    public private(set) var byteCount = 0
    /// The pictures written so far.
    public private(set) var videoFrameCount = 0
    /// The audio frames taken so far.
    public private(set) var audioFrameCount = 0

    private var counters: [UInt16: UInt8] = [:]
    private var lastPCR: Int64?
    private var lastTables: Int64?
    private var pendingAudio: [UInt8] = []
    private var pendingAudioPTS: Int64 = 0
    private var audioHeader: (format: AudioFormatDescription, header: ADTSHeader)?
    /// Opus: samples of the encoder's pre-skip still to be cut by `start_trim`.
    private var pendingStartTrim = 0
    private var packets: [UInt8] = []
    private var isFinished = false

    /// Creates a writer and writes the program tables.
    /// - Parameters:
    ///   - sink: where the stream goes.
    ///   - configuration: the tracks and layout.
    /// - Throws: ``ContainerWriteError/invalidConfiguration(_:)`` without any track or with PIDs that collide,
    ///   ``ContainerWriteError/unsupportedCodec(_:frameIndex:)`` for a codec other than H.264/H.265/AAC,
    ///   ``ContainerWriteError/io(_:)``.
    public init(sink: Sink, configuration: Configuration) throws(ContainerWriteError) {
        self.sink = sink
        self.configuration = configuration
        var streams: [TSProgramMap.Stream] = []
        if let video = configuration.video {
            switch video.codec {
            case .h264: streams.append(.init(streamType: .h264, pid: configuration.videoPID))
            case .hevc: streams.append(.init(streamType: .hevc, pid: configuration.videoPID))
            default: throw .unsupportedCodec(video.codec, frameIndex: 0)
            }
        }
        if let audio = configuration.audio {
            switch audio.codec {
            case .aac: streams.append(.init(streamType: .adtsAAC, pid: configuration.audioPID))
            case .opus:
                guard (1...2).contains(audio.channelCount) else {
                    throw .invalidConfiguration("Opus in MPEG-TS is written for mono or stereo, not \(audio.channelCount) channels")
                }
                streams.append(.init(streamType: .privateData, pid: configuration.audioPID,
                                     descriptors: TSOpusMapping.descriptors(channelCount: audio.channelCount)))
                pendingStartTrim = audio.encoderDelay
            default: throw .unsupportedCodec(audio.codec, frameIndex: 0)
            }
        }
        guard !streams.isEmpty else { throw .invalidConfiguration("a transport stream needs a video or an audio track") }
        let pids = [configuration.pmtPID] + streams.map(\.pid)
        guard Set(pids).count == pids.count, pids.allSatisfy({ (0x10...0x1FFE).contains($0) }) else {
            throw .invalidConfiguration("the PIDs \(pids) must differ and lie in 0x10...0x1FFE (§2.4.3.3, Table 2-3)")
        }
        programMap = TSProgramMap(pmtPID: configuration.pmtPID, pcrPID: streams[0].pid, streams: streams)
        try writeTables(at: nil)
        try flushPackets()
    }

    /// Writes one picture as a PES packet (§2.4.3.6): an access unit delimiter, the parameter sets before a key
    /// frame (unless the picture carries them), its NAL units with 4-byte start codes; a PCR and
    /// `random_access_indicator` in the first packet's adaptation field as due, the program tables before a key
    /// frame.
    /// - Parameter frame: a picture in AVCC form, in decode order.
    /// - Throws: ``ContainerWriteError``: `unsupportedCodec` without a video track of its codec,
    ///   `malformedFrame` for NAL unit lengths that overrun the frame, `alreadyFinished`, `io`.
    public mutating func append(_ frame: EncodedFrame) throws(ContainerWriteError) {
        guard !isFinished else { throw .alreadyFinished }
        guard let video = configuration.video, frame.codec == video.codec else {
            throw .unsupportedCodec(frame.codec, frameIndex: videoFrameCount)
        }
        let dts = frame.dts.converted(to: 90_000).value + configuration.timestampOffset
        let pts = frame.pts.converted(to: 90_000).value + configuration.timestampOffset
        let payload = try Self.annexB(of: frame, frameIndex: videoFrameCount)
        if frame.isKeyFrame || lastTables.map({ dts - $0 >= configuration.tableInterval }) ?? true {
            try writeTables(at: dts)
        }
        let isPCRStream = programMap.pcrPID == configuration.videoPID
        let pcr = isPCRStream && (frame.isKeyFrame || lastPCR.map { dts - $0 >= configuration.pcrInterval } ?? true) ? nextPCR(dts) : nil
        let header = TSPESHeader(streamID: 0xE0, pts: pts, dts: dts == pts ? nil : dts, payloadLength: nil)
        writePES(pid: configuration.videoPID, header: header.serialized(), payload: payload, pcr: pcr, randomAccess: frame.isKeyFrame)
        videoFrameCount += 1
        try flushPackets()
    }

    /// Takes one AAC frame: behind its ADTS header it joins the audio PES packet being gathered, which is
    /// written when it reaches ``Configuration/audioPayloadSize`` bytes (FFmpeg's grouping).
    /// - Parameter frame: a raw AAC access unit.
    /// - Throws: ``ContainerWriteError``: `unsupportedCodec` without an audio track, `adtsHeader` /
    ///   `audioSpecificConfig` when ADTS cannot describe it, `alreadyFinished`, `io`.
    public mutating func append(_ frame: EncodedAudioFrame) throws(ContainerWriteError) {
        guard !isFinished else { throw .alreadyFinished }
        guard let audio = configuration.audio, frame.format.codec == audio.codec else {
            throw .unsupportedCodec(frame.format.codec, frameIndex: audioFrameCount)
        }
        if audio.codec == .opus {
            try appendOpus(frame)
            return
        }
        let template: ADTSHeader
        if let audioHeader, audioHeader.format == frame.format {
            template = audioHeader.header
        } else {
            template = try ADTSWriter<MemoryByteSink>.header(for: frame.format, frameIndex: audioFrameCount)
            audioHeader = (frame.format, template)
        }
        let header: ADTSHeader
        do { header = try template.withPayloadLength(frame.data.count) } catch {
            throw .adtsHeader(frameIndex: audioFrameCount, error)
        }
        let pts = frame.pts.converted(to: 90_000).value + configuration.timestampOffset
        if !pendingAudio.isEmpty, pendingAudio.count + header.frameLength > configuration.audioPayloadSize {
            try flushAudio()
        }
        if pendingAudio.isEmpty { pendingAudioPTS = pts }
        pendingAudio += header.serialized()
        pendingAudio += frame.data
        audioFrameCount += 1
    }

    /// One Opus packet behind its control header (``TSOpusMapping``): `start_trim` while the pre-skip lasts,
    /// `end_trim` when the frame's duration is shorter than its TOC byte says (the padded last frame).
    private mutating func appendOpus(_ frame: EncodedAudioFrame) throws(ContainerWriteError) {
        let samples: Int
        do { samples = try OpusPacket(frame.data).sampleCount } catch {
            throw .frameMismatch(frameIndex: audioFrameCount, reason: "not an Opus packet: \(error)")
        }
        let startTrim = min(pendingStartTrim, samples)
        pendingStartTrim -= startTrim
        let duration = Int(frame.duration.converted(to: 48_000).value)
        let endTrim = duration > 0 && duration < samples ? min(samples - duration, samples - startTrim) : 0
        var unit: [UInt8] = []
        unit.reserveCapacity(frame.data.count + 16)
        TSOpusMapping.appendAccessUnit(frame.data, startTrim: startTrim, endTrim: endTrim, to: &unit)
        let pts = frame.pts.converted(to: 90_000).value + configuration.timestampOffset
        if !pendingAudio.isEmpty, pendingAudio.count + unit.count > configuration.audioPayloadSize {
            try flushAudio()
        }
        if pendingAudio.isEmpty { pendingAudioPTS = pts }
        pendingAudio += unit
        audioFrameCount += 1
    }

    /// Writes the audio PES packet being gathered, if any — before a cut (an HLS segment's end) or at the end.
    /// - Throws: ``ContainerWriteError/io(_:)``.
    public mutating func flushAudio() throws(ContainerWriteError) {
        guard !pendingAudio.isEmpty else { return }
        let pts = pendingAudioPTS
        var pcr: Int64?
        if programMap.pcrPID == configuration.audioPID {
            if lastPCR.map({ pts - $0 >= configuration.pcrInterval }) ?? true { pcr = nextPCR(pts) }
        } else if let last = lastPCR, pts - last >= configuration.pcrInterval {
            writePCROnly(pid: programMap.pcrPID, pcr: nextPCR(pts))
        }
        if configuration.video == nil, lastTables.map({ pts - $0 >= configuration.tableInterval }) ?? true {
            try writeTables(at: pts)
        }
        let streamID = configuration.audio?.codec == .opus ? TSOpusMapping.streamID : 0xC0
        let header = TSPESHeader(streamID: streamID, pts: pts, dts: nil, payloadLength: pendingAudio.count)
        writePES(pid: configuration.audioPID, header: header.serialized(), payload: pendingAudio, pcr: pcr, randomAccess: configuration.video == nil)
        pendingAudio.removeAll(keepingCapacity: true)
        try flushPackets()
    }

    /// Puts another sink in place of the one written so far — an HLS writer takes each segment's bytes this way,
    /// the continuity counters and clocks running on across segments.
    /// - Parameter newSink: the sink for what comes next.
    /// - Returns: the sink written so far.
    public mutating func replaceSink(with newSink: Sink) -> Sink {
        let old = sink
        sink = newSink
        return old
    }

    /// Writes the audio still gathered, flushes and closes the sink. Calling it again does nothing.
    /// - Throws: ``ContainerWriteError/io(_:)``.
    public mutating func finish() throws(ContainerWriteError) {
        guard !isFinished else { return }
        try flushAudio()
        isFinished = true
        do { try sink.close() } catch { throw .io(error) }
    }

    /// Writes the program association and program map sections (§2.4.4.3, §2.4.4.8), each in one packet.
    private mutating func writeTables(at time: Int64?) throws(ContainerWriteError) {
        let pat = TSSection.programAssociation(programs: [(programMap.programNumber, programMap.pmtPID)])
        writeSection(pat, pid: TSPacket.programAssociationPID)
        writeSection(TSSection.programMap(programMap), pid: programMap.pmtPID)
        lastTables = time ?? lastTables
    }

    /// One section in one packet: `pointer_field` 0, the section, 0xFF stuffing (§2.4.4.1, §2.4.4.2).
    private mutating func writeSection(_ section: [UInt8], pid: UInt16) {
        let start = packets.count
        packets += [TSPacket.syncByte, 0x40 | UInt8(pid >> 8), UInt8(pid & 0xFF), 0x10 | nextCounter(pid), 0x00]
        packets += section.prefix(TSPacket.size - 5)
        packets += repeatElement(0xFF, count: start + TSPacket.size - packets.count)
    }

    /// The PCR for a decode time: never behind the last one (§2.4.3.5), in 90 kHz ticks.
    private mutating func nextPCR(_ time: Int64) -> Int64 {
        let pcr = max(time, lastPCR ?? time)
        lastPCR = pcr
        return pcr
    }

    /// The continuity counter of a packet with payload on a PID, then advanced (§2.4.3.3).
    private mutating func nextCounter(_ pid: UInt16) -> UInt8 {
        let counter = counters[pid, default: 0]
        counters[pid] = (counter + 1) & 0x0F
        return counter
    }

    /// An adaptation field with only a PCR (`adaptation_field_control` '10', no payload: the counter stays, §2.4.3.3).
    private mutating func writePCROnly(pid: UInt16, pcr: Int64) {
        let counter = (counters[pid, default: 0] &+ 0x0F) & 0x0F
        packets += [TSPacket.syncByte, UInt8(pid >> 8), UInt8(pid & 0xFF), 0x20 | counter, 183, 0x10]
        Self.appendPCR(pcr, to: &packets)
        packets += repeatElement(0xFF, count: 183 - 7)
    }

    /// `program_clock_reference_base` (33 bits), 6 reserved bits and the 9-bit extension (0) (§2.4.3.4, §2.4.3.5).
    private static func appendPCR(_ base: Int64, to bytes: inout [UInt8]) {
        let value = UInt64(truncatingIfNeeded: base) & UInt64(TSPacket.timestampModulus - 1)
        bytes += [UInt8(value >> 25 & 0xFF), UInt8(value >> 17 & 0xFF), UInt8(value >> 9 & 0xFF), UInt8(value >> 1 & 0xFF),
                  UInt8(value << 7 & 0x80) | 0x7E, 0x00]
    }

    /// Cuts a PES packet into transport packets (§2.4.3.2): the first with `payload_unit_start_indicator` and, when
    /// asked, an adaptation field with the PCR and `random_access_indicator`; the last filled out with adaptation
    /// field stuffing (§2.4.3.4).
    private mutating func writePES(pid: UInt16, header: [UInt8], payload: [UInt8], pcr: Int64?, randomAccess: Bool) {
        let total = header.count + payload.count
        var offset = 0
        var isFirst = true
        while offset < total {
            var field: [UInt8] = []
            if isFirst, pcr != nil || randomAccess {
                field.append((randomAccess ? 0x40 : 0) | (pcr != nil ? 0x10 : 0))
                if let pcr { Self.appendPCR(pcr, to: &field) }
            }
            var fieldLength = field.isEmpty ? 0 : 1 + field.count
            let remaining = total - offset
            if remaining < 184 - fieldLength {
                let needed = 184 - remaining
                if field.isEmpty {
                    field = needed == 1 ? [] : [0x00] + Array(repeating: 0xFF, count: needed - 2)
                } else {
                    field += repeatElement(0xFF, count: needed - fieldLength)
                }
                fieldLength = needed
            }
            let control: UInt8 = fieldLength > 0 ? 0x30 : 0x10
            packets += [TSPacket.syncByte, (isFirst ? 0x40 : 0) | UInt8(pid >> 8), UInt8(pid & 0xFF), control | nextCounter(pid)]
            if fieldLength > 0 {
                packets.append(UInt8(fieldLength - 1))
                packets += field
            }
            var count = 184 - fieldLength
            if offset < header.count {
                let part = min(count, header.count - offset)
                packets += header[offset..<offset + part]
                offset += part
                count -= part
            }
            if count > 0 {
                let start = offset - header.count
                packets += payload[start..<start + count]
                offset += count
            }
            isFirst = false
        }
    }

    private mutating func flushPackets() throws(ContainerWriteError) {
        guard !packets.isEmpty else { return }
        do { try sink.write(packets) } catch { throw .io(error) }
        byteCount += packets.count
        packets.removeAll(keepingCapacity: true)
    }

    /// A picture as an Annex B access unit (ITU-T H.264 §7.4.1.2.3 / H.265 §7.4.2.4.4, Annex B): an access unit
    /// delimiter (H.264 `primary_pic_type` 7, H.265 `pic_type` 2: any slice type), the format's parameter sets
    /// before a key frame that does not carry its own, then the frame's NAL units but its own delimiters.
    static func annexB(of frame: EncodedFrame, frameIndex: Int) throws(ContainerWriteError) -> [UInt8] {
        let isHEVC = frame.codec == .hevc
        var output: [UInt8] = isHEVC ? [0, 0, 0, 1, 0x46, 0x01, 0x50] : [0, 0, 0, 1, 0x09, 0xF0]
        output.reserveCapacity(frame.data.count + 64 + (frame.isKeyFrame ? frame.format.parameterSets.reduce(0) { $0 + $1.count + 4 } : 0))
        let units: [Range<Int>]
        do { units = try AVCC.nalUnitRanges(in: frame.data, lengthSize: frame.format.nalUnitLengthSize) } catch {
            throw .malformedFrame(frameIndex: frameIndex, error)
        }
        func type(_ first: UInt8) -> UInt8 { isHEVC ? first >> 1 & 0x3F : first & 0x1F }
        let carriesSPS = units.contains { !$0.isEmpty && type(frame.data[$0.lowerBound]) == (isHEVC ? 33 : 7) }
        if frame.isKeyFrame, !carriesSPS {
            for set in frame.format.parameterSets { output += [0, 0, 0, 1]; output += set }
        }
        for unit in units where !unit.isEmpty && type(frame.data[unit.lowerBound]) != (isHEVC ? 35 : 9) {
            output += [0, 0, 0, 1]
            output += frame.data[unit]
        }
        return output
    }
}

extension TSWriter where Sink == FileByteSink {
    /// Creates (or truncates) a `.ts` file and writes the program tables.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - configuration: the tracks and layout.
    /// - Throws: ``ContainerWriteError`` as ``init(sink:configuration:)``.
    public init(path: String, configuration: Configuration) throws(ContainerWriteError) {
        let sink: FileByteSink
        do { sink = try FileByteSink(path: path) } catch { throw .io(error) }
        try self.init(sink: sink, configuration: configuration)
    }
}
