import Bitstream
import Containers
import MediaCore

extension FuzzTargets {
    /// The HLS code that reads outside bytes: RFC 6381 codec strings from parameter sets and an
    /// AudioSpecificConfig (the input's NAL units as SPS candidates of both codecs, the input as the
    /// config), and the playlist checks on URIs and durations taken from the input. Each must return a
    /// string or a typed error; a playlist that validates must render.
    static func hls(_ bytes: [UInt8]) {
        let units = AnnexB.nalUnitRanges(in: bytes).prefix(8).map { Array(bytes[$0]) }
        for codec in [CodecType.h264, .hevc] {
            let format = FormatDescription(codec: codec, width: 16, height: 16, profileLevel: codec == .hevc ? .hevcMain : .h264High,
                                           parameterSets: units.isEmpty ? [bytes] : units)
            _ = try? CodecString.video(format)
        }
        _ = try? CodecString.audio(AudioFormatDescription(codec: .aac, sampleRate: 48_000, channelCount: 2, profile: "LC", audioSpecificConfig: bytes))

        let text = String(decoding: bytes, as: UTF8.self)
        let words = text.split(separator: " ", maxSplits: 8, omittingEmptySubsequences: false).map(String.init)
        var playlist = HLSMediaPlaylist(initializationSegmentURI: words.first, playlistType: bytes.first.map { $0 & 1 == 0 ? .vod : .event })
        for (index, word) in words.dropFirst().enumerated() {
            let value = Int64(bytes.count > index ? Int8(bitPattern: bytes[index]) : 1)
            playlist.append(HLSMediaSegment(uri: word, duration: MediaTime(value: value, timescale: Int32(1 + index))))
            playlist.removeSegments(keepingLast: Int(bytes.last ?? 0) % 5)
        }
        if (try? playlist.validate()) != nil { precondition((try? playlist.text()) != nil, "a valid playlist must render") }
        let variants = words.map { HLSVariantStream(uri: $0, bandwidth: $0.utf8.count, codecs: [$0], resolution: ($0.count, 1), frameRate: Double($0.count)) }
        if (try? HLSMultivariantPlaylist(variants: variants).validate()) != nil {
            precondition((try? HLSMultivariantPlaylist(variants: variants).text()) != nil, "a valid multivariant playlist must render")
        }
        hlsLiveResource(text)
    }

    /// The live HLS server's reading of a request's path (``HLSLiveResource``): the input as the name after the stream's
    /// path, for both segment formats. A name read back must be the one written for it (no two spellings of a segment).
    static func hlsLiveResource(_ name: String) {
        for format in HLSSegmentFormat.allCases {
            guard let resource = HLSLiveResource(name: name, segmentFormat: format) else { continue }
            precondition(resource.name(segmentFormat: format) == name, "a live HLS name must read back as written")
            if case let .segment(number) = resource { precondition(number >= 0, "a segment number is never negative") }
        }
    }
}
