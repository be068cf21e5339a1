import AAC
import Bitstream
import H264
import HEVC
import MediaCore
import Opus

/// Turns a transport stream, arriving in chunks split anywhere, into ``EncodedFrame``s and
/// ``EncodedAudioFrame``s — what `ffmpeg -i x.ts -c copy` reads — over a ``TSDemuxer``.
///
/// - Video (H.264 `stream_type` 0x1B, H.265 0x24): one PES packet is one access unit (ITU-T H.264 §7.4.1.2.3,
///   H.265 §7.4.2.4.4), as every muxer we know writes them; its Annex B NAL units become an AVCC frame (4-byte
///   lengths) without access unit delimiters, with a ``FormatDescription`` from the latest SPS/PPS (and VPS) seen
///   on the PID. A key frame is one with an IDR (H.264) or IRAP (H.265) slice. Times are the PES's PTS and DTS
///   (90 kHz, unwrapped); a PES packet without PTS continues the times of the one before.
/// - Audio (ISO/IEC 13818-7 ADTS, 0x0F): each ADTS frame (§6.2.1) of a PES packet is one frame, the header
///   taken off, its format (AudioSpecificConfig, ISO/IEC 14496-3 §1.6.2.1) from the header; the first frame that
///   starts in a PES packet takes its PTS (§2.4.3.7), the next ones follow by 1024 samples; a frame cut across
///   two PES packets is joined.
/// - Opus (PES private data registered as "Opus", ``TSOpusMapping``): each access unit behind its
///   `opus_control_header` is one frame; the first of a PES packet takes its PTS, the next follow by the
///   duration their TOC byte gives (RFC 6716 §3.1); the channel count comes from the Opus audio descriptor, and a
///   `start_trim` on the stream's first unit becomes the format's encoder delay (the pre-skip of its `OpusHead`).
///
/// Everything the demuxer reports comes out as ``Event/issue(_:)`` between the frames, and the frames after a
/// damaged one still come.
public struct TSMediaReader: Sendable {
    /// One thing read, in stream order.
    public enum Event: Hashable, Sendable {
        /// A program map, new or changed.
        case programMap(TSProgramMap)
        /// A picture, in decode order, from the PID given.
        case video(EncodedFrame, pid: UInt16)
        /// An audio frame from the PID given.
        case audio(EncodedAudioFrame, pid: UInt16)
        /// Something that went wrong; reading went on.
        case issue(TSStreamIssue)
    }

    private struct VideoState: Sendable {
        var parameterSets: [UInt8: [UInt8]] = [:]
        var format: FormatDescription?
        var lastDTS: Int64?
        var lastPTS: Int64?
        var duration: Int64 = 3000
    }

    private struct AudioState: Sendable {
        var carry: [UInt8] = []
        var nextPTS: Int64?
        var format: AudioFormatDescription?
        var formatKey: [UInt8] = []
    }

    /// The demuxer underneath.
    public private(set) var demuxer: TSDemuxer
    private var videos: [UInt16: VideoState] = [:]
    private var audios: [UInt16: AudioState] = [:]
    /// The channel count of each Opus PID of the current program maps.
    private var opusChannels: [UInt16: Int] = [:]

    /// Creates a reader.
    /// - Parameter limits: the demuxer's memory bounds.
    public init(limits: TSDemuxerLimits = TSDemuxerLimits()) {
        demuxer = TSDemuxer(limits: limits)
    }

    /// Adds bytes of the stream.
    /// - Parameter chunk: the next bytes, of any length.
    /// - Returns: what they completed, in stream order.
    public mutating func append<Bytes: Collection>(_ chunk: Bytes) -> [Event] where Bytes.Element == UInt8 {
        var events: [Event] = []
        for event in demuxer.append(chunk) { handle(event, into: &events) }
        return events
    }

    /// Ends the stream.
    /// - Returns: the last frames and issues.
    public mutating func finish() -> [Event] {
        var events: [Event] = []
        for event in demuxer.finish() { handle(event, into: &events) }
        return events
    }

    private mutating func handle(_ event: TSDemuxer.Event, into events: inout [Event]) {
        switch event {
        case let .programMap(map):
            let pids = Set(map.streams.map(\.pid))
            for pid in videos.keys where !pids.contains(pid) { videos[pid] = nil }
            for pid in audios.keys where !pids.contains(pid) { audios[pid] = nil }
            for stream in map.streams where stream.streamType == .privateData {
                opusChannels[stream.pid] = TSOpusMapping.channelCount(descriptors: stream.descriptors)
            }
            events.append(.programMap(map))
        case let .issue(issue):
            events.append(.issue(issue))
        case let .pes(packet):
            if packet.streamType.isVideo {
                video(packet, into: &events)
            } else if packet.streamType == .adtsAAC {
                audio(packet, into: &events)
            } else if packet.streamType == .privateData, let channels = opusChannels[packet.pid] {
                opus(packet, channelCount: channels, into: &events)
            }
        }
    }

    /// One access unit: Annex B (ITU-T H.264 / H.265 Annex B) to AVCC, parameter sets remembered.
    private mutating func video(_ packet: TSPESPacket, into events: inout [Event]) {
        let isHEVC = packet.streamType == .hevc
        var state = videos[packet.pid] ?? VideoState()
        defer { videos[packet.pid] = state }
        var data: [UInt8] = []
        data.reserveCapacity(packet.payload.count + 16)
        var isKey = false
        var hasSlice = false
        var setsChanged = false
        for range in AnnexB.nalUnitRanges(in: packet.payload) where !range.isEmpty {
            let first = packet.payload[range.lowerBound]
            let type = isHEVC ? first >> 1 & 0x3F : first & 0x1F
            if type == (isHEVC ? 35 : 9) { continue }
            if isHEVC ? (32...34).contains(type) : (type == 7 || type == 8) {
                let unit = Array(packet.payload[range])
                if state.parameterSets[type] != unit { state.parameterSets[type] = unit; setsChanged = true }
            }
            if isHEVC ? type < 32 : (1...5).contains(type) { hasSlice = true }
            if isHEVC ? (16...23).contains(type) : type == 5 { isKey = true }
            try? AVCC.append(packet.payload[range], lengthSize: 4, to: &data)
        }
        guard hasSlice else { return }
        if setsChanged || state.format == nil { state.format = Self.format(isHEVC: isHEVC, sets: state.parameterSets) ?? state.format }
        guard let format = state.format else {
            events.append(.issue(.frameBeforeParameterSets(pid: packet.pid, byteOffset: packet.byteOffset)))
            return
        }
        let pts: Int64, dts: Int64
        if let packetPTS = packet.pts {
            pts = packetPTS
            dts = packet.dts ?? packetPTS
        } else {
            dts = (state.lastDTS ?? 0) + state.duration
            pts = (state.lastPTS ?? dts) + state.duration
        }
        if let last = state.lastDTS, dts > last { state.duration = dts - last }
        state.lastDTS = dts
        state.lastPTS = pts
        let frame = EncodedFrame(data: data, isKeyFrame: isKey, pts: MediaTime(value: pts, timescale: 90_000),
                                 dts: MediaTime(value: dts, timescale: 90_000),
                                 duration: MediaTime(value: state.duration, timescale: 90_000), format: format)
        events.append(.video(frame, pid: packet.pid))
    }

    /// The format the parameter sets describe (size, profile and level from the SPS), `nil` while one is missing
    /// or the SPS does not parse.
    private static func format(isHEVC: Bool, sets: [UInt8: [UInt8]]) -> FormatDescription? {
        if isHEVC {
            guard let vps = sets[32], let spsBytes = sets[33], let pps = sets[34],
                  let sps = try? HEVCSequenceParameterSet(nalUnit: spsBytes) else { return nil }
            return FormatDescription(codec: .hevc, width: sps.width, height: sps.height,
                                     profileLevel: ProfileLevel(codec: .hevc, profileNamed: sps.profileName ?? "unknown", level: sps.levelName),
                                     parameterSets: [vps, spsBytes, pps])
        }
        guard let spsBytes = sets[7], let pps = sets[8], let sps = try? H264SequenceParameterSet(nalUnit: spsBytes) else { return nil }
        return FormatDescription(codec: .h264, width: sps.width, height: sps.height,
                                 profileLevel: ProfileLevel(codec: .h264, profileNamed: sps.profileName, level: sps.levelName),
                                 parameterSets: [spsBytes, pps])
    }

    /// The ADTS frames of a PES packet (ISO/IEC 13818-7 §6.2.1), joined to a frame cut at the end of the one before.
    private mutating func audio(_ packet: TSPESPacket, into events: inout [Event]) {
        var state = audios[packet.pid] ?? AudioState()
        defer { audios[packet.pid] = state }
        let carried = state.carry.count
        var bytes = state.carry
        bytes += packet.payload
        state.carry = []
        var index = 0
        var reportedDamage = false
        var tookPESTime = false
        while bytes.count - index >= ADTSHeader.minimumLength {
            guard bytes[index] == 0xFF, bytes[index + 1] & 0xF0 == 0xF0 else { index += 1; continue }
            let header: ADTSHeader
            do { header = try ADTSHeader.parse(bytes[index...], byteOffset: index) } catch {
                if !reportedDamage {
                    events.append(.issue(.malformedADTS(pid: packet.pid, byteOffset: packet.byteOffset, reason: "\(error)")))
                    reportedDamage = true
                }
                index += 1
                continue
            }
            guard header.frameLength >= header.headerLength else { index += 1; continue }
            guard index + header.frameLength <= bytes.count else { break }
            if index >= carried, !tookPESTime, let pts = packet.pts {
                state.nextPTS = pts
                tookPESTime = true
            }
            if let format = Self.format(of: header, bytes[index..<index + header.headerLength], state: &state) {
                let samples = Int64(format.samplesPerFrame * header.rawDataBlockCount)
                let rate = Int64(max(format.sampleRate, 1))
                let pts = state.nextPTS ?? 0
                let duration = (samples * 90_000 + rate / 2) / rate
                let next = Self.stableSum(pts, samples: samples, rate: rate)
                let frame = EncodedAudioFrame(data: Array(bytes[index + header.headerLength..<index + header.frameLength]),
                                              pts: MediaTime(value: pts, timescale: 90_000),
                                              duration: MediaTime(value: duration, timescale: 90_000), format: format)
                events.append(.audio(frame, pid: packet.pid))
                state.nextPTS = next
            }
            index += header.frameLength
        }
        if index < bytes.count, bytes.count - index <= ADTSHeader.maximumFrameLength {
            state.carry = Array(bytes[index...])
        }
    }

    /// The Opus access units of a PES packet, each behind its control header (``TSOpusMapping``).
    private mutating func opus(_ packet: TSPESPacket, channelCount: Int, into events: inout [Event]) {
        var state = audios[packet.pid] ?? AudioState()
        defer { audios[packet.pid] = state }
        if let pts = packet.pts { state.nextPTS = pts }
        var offset = 0
        while offset < packet.payload.count {
            let unit: TSOpusMapping.AccessUnit
            let toc: OpusPacket
            do throws(OpusSyntaxError) {
                unit = try TSOpusMapping.accessUnit(in: packet.payload, at: offset)
                toc = try OpusPacket(packet.payload[unit.range])
            } catch {
                events.append(.issue(.malformedOpus(pid: packet.pid, byteOffset: packet.byteOffset, reason: "\(error)")))
                return
            }
            if state.format == nil {
                let head = OpusIdentificationHeader(channelCount: channelCount, preSkip: unit.startTrim)
                state.format = AudioFormatDescription(codec: .opus, sampleRate: 48000, channelCount: channelCount, profile: "Opus",
                                                      audioSpecificConfig: head.opusHeadBytes(), samplesPerFrame: 960,
                                                      encoderDelay: unit.startTrim)
            }
            guard let format = state.format else { return }
            let pts = state.nextPTS ?? 0
            let duration = Int64(toc.sampleCount) * 90_000 / 48_000
            events.append(.audio(EncodedAudioFrame(data: Array(packet.payload[unit.range]), pts: MediaTime(value: pts, timescale: 90_000),
                                                   duration: MediaTime(value: duration, timescale: 90_000), format: format),
                                 pid: packet.pid))
            state.nextPTS = pts + duration
            offset = unit.range.upperBound
        }
    }

    /// The time of the frame after one at `time` (90 kHz) that lasts `samples` at `rate`: the frames' own grid of
    /// `samples / rate` steps, counted from zero, moved to `time` — FFmpeg's stable addition (libavutil
    /// `av_add_stable`), so that the frames of a PES packet at 44.1 kHz get the very times ffprobe shows.
    static func stableSum(_ time: Int64, samples: Int64, rate: Int64) -> Int64 {
        let numerator = samples * 90_000
        guard time >= 0, numerator % rate != 0 else { return time + numerator / rate }
        func rounded(_ value: Int64, _ divisor: Int64) -> Int64 { (value + divisor / 2) / divisor }
        let steps = rounded(time * rate, numerator)
        return rounded((steps + 1) * numerator, rate) + time - rounded(steps * numerator, rate)
    }

    /// The format of an ADTS header, made once per distinct header start (profile, rate, channels).
    private static func format(of header: ADTSHeader, _ headerBytes: ArraySlice<UInt8>, state: inout AudioState) -> AudioFormatDescription? {
        let key = Array(headerBytes.prefix(4))
        let keyBits = key.enumerated().map { $0.offset == 3 ? $0.element & 0xC0 : $0.element }
        if let format = state.format, state.formatKey == keyBits { return format }
        guard let config = try? AudioSpecificConfig(adtsHeader: header), let bytes = try? config.serialized() else { return nil }
        let format = AudioFormatDescription(codec: .aac, sampleRate: header.sampleRate,
                                            channelCount: header.channelConfiguration.channelCount ?? 2,
                                            profile: header.audioObjectType.profileName ?? "LC", audioSpecificConfig: bytes)
        state.format = format
        state.formatKey = keyBits
        return format
    }
}
