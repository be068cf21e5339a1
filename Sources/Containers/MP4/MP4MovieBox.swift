import MediaCore

/// What the `moov` box says about one track.
struct MP4TrackLayout {
    var description: MP4TrackDescription
    var trackID: UInt32
    /// The sum of the sample durations, in track units (0 for a fragmented file's empty `moov`).
    var mediaDuration: Int64
    /// The edit list's `media_time` (§8.6.6): where presentation starts on the media timeline;
    /// `nil` writes no edit list.
    var editMediaTime: Int64?
    /// The sample tables; `nil` for the empty tables of a fragmented file.
    var sampleTable: MP4SampleTable?
    var bitRate: MP4BitRate?
    /// The presented duration in track units: from the edit's start to the end of the last sample
    /// to be shown (0 for a fragmented file's empty `moov`).
    var presentationDuration: Int64
}

/// Writes `ftyp` (ISO/IEC 14496-12 §4.3) and `moov` (§8.2.1): `mvhd`, one `trak` per track
/// (`tkhd`, `edts`/`elst`, `mdia` with `mdhd`, `hdlr`, `minf` holding `vmhd`/`smhd`, `dinf`/`dref`
/// and `stbl`), and for fragmented files `mvex` with a `trex` per track (§8.8.1).
enum MP4MovieBox {
    /// The movie timescale (`mvhd`), as FFmpeg writes it.
    static let movieTimescale: Int64 = 1000

    /// The `ftyp` box.
    static func fileType(tracks: [MP4TrackDescription], fragmented: Bool) -> [UInt8] {
        var builder = MP4BoxBuilder()
        builder.box("ftyp") { ftyp in
            ftyp.fourCC("isom")
            ftyp.uint32(0x200)
            ftyp.fourCC("isom")
            ftyp.fourCC("iso2")
            if fragmented { ftyp.fourCC("iso6") }
            for track in tracks {
                if case let .video(format) = track.media {
                    if format.codec == .h264 { ftyp.fourCC("avc1") } else { ftyp.fourCC(track.carriesParameterSetsInBand ? "hev1" : "hvc1") }
                    break
                }
            }
            ftyp.fourCC("mp41")
        }
        return builder.bytes
    }

    /// The `moov` box.
    /// - Parameters:
    ///   - tracks: each track's layout.
    ///   - fragmented: whether to add `mvex` (and write durations of 0 where fragments will add samples).
    ///   - chunkOffsetShift: added to every chunk offset (faststart moves `mdat` behind `moov`).
    ///   - forcesLargeOffsets: write `co64` even when every offset fits 32 bits.
    static func movie(tracks: [MP4TrackLayout], fragmented: Bool, chunkOffsetShift: Int64 = 0,
                      forcesLargeOffsets: Bool = false) throws(ContainerWriteError) -> [UInt8] {
        var builder = MP4BoxBuilder(reservingCapacity: 4096 + tracks.reduce(0) { $0 + ($1.sampleTable?.estimatedByteCount ?? 0) })
        let durations = tracks.map { movieUnits($0.presentationDuration, timescale: $0.description.timescale) }
        let movieDuration = durations.max() ?? 0
        var failure: ContainerWriteError?
        builder.box("moov") { moov in
            let long = movieDuration > Int64(UInt32.max)
            moov.fullBox("mvhd", version: long ? 1 : 0) { mvhd in
                if long { mvhd.uint64(0); mvhd.uint64(0) } else { mvhd.uint32(0); mvhd.uint32(0) }
                mvhd.uint32(UInt32(movieTimescale))
                if long { mvhd.uint64(UInt64(movieDuration)) } else { mvhd.uint32(UInt32(movieDuration)) }
                mvhd.uint32(0x0001_0000)  // rate 1.0
                mvhd.uint16(0x0100)       // volume 1.0
                mvhd.zeros(10)
                mvhd.unityMatrix()
                mvhd.zeros(24)
                mvhd.uint32(UInt32(tracks.count + 1))  // next_track_ID
            }
            for (track, duration) in zip(tracks, durations) {
                do throws(ContainerWriteError) {
                    try writeTrack(track, movieDuration: duration, fragmented: fragmented, chunkOffsetShift: chunkOffsetShift,
                                   forcesLargeOffsets: forcesLargeOffsets, into: &moov)
                } catch {
                    failure = failure ?? error
                }
            }
            if fragmented {
                moov.box("mvex") { mvex in
                    for track in tracks {
                        mvex.fullBox("trex") { trex in
                            trex.uint32(track.trackID)
                            trex.uint32(1)  // default_sample_description_index
                            trex.uint32(0)
                            trex.uint32(0)
                            trex.uint32(0)
                        }
                    }
                }
            }
        }
        if let failure { throw failure }
        return builder.bytes
    }

    /// Converts a duration in track units to movie units.
    static func movieUnits(_ value: Int64, timescale: Int32) -> Int64 {
        MediaTime(value: value, timescale: timescale).converted(to: Int32(movieTimescale)).value
    }

    private static func writeTrack(_ track: MP4TrackLayout, movieDuration: Int64, fragmented: Bool, chunkOffsetShift: Int64,
                                   forcesLargeOffsets: Bool, into moov: inout MP4BoxBuilder) throws(ContainerWriteError) {
        var failure: ContainerWriteError?
        let description = track.description
        moov.box("trak") { trak in
            let long = movieDuration > Int64(UInt32.max)
            trak.fullBox("tkhd", version: long ? 1 : 0, flags: 0x3) { tkhd in
                if long { tkhd.uint64(0); tkhd.uint64(0) } else { tkhd.uint32(0); tkhd.uint32(0) }
                tkhd.uint32(track.trackID)
                tkhd.uint32(0)
                if long { tkhd.uint64(UInt64(movieDuration)) } else { tkhd.uint32(UInt32(movieDuration)) }
                tkhd.zeros(8)
                tkhd.uint16(0)  // layer
                tkhd.uint16(0)  // alternate_group
                tkhd.uint16(description.isVideo ? 0 : 0x0100)
                tkhd.uint16(0)
                tkhd.unityMatrix()
                if case let .video(format) = description.media {
                    tkhd.uint32(UInt32(clamping: format.width) << 16)
                    tkhd.uint32(UInt32(clamping: format.height) << 16)
                } else {
                    tkhd.uint32(0)
                    tkhd.uint32(0)
                }
            }
            if let mediaTime = track.editMediaTime {
                // §8.6.6: one edit that presents the media from `mediaTime` on; in a fragmented file a
                // segment_duration of 0 means "to the end of all the fragments".
                let segment = fragmented ? 0 : movieDuration
                let long = segment > Int64(UInt32.max) || mediaTime > Int64(Int32.max) || mediaTime < Int64(Int32.min)
                trak.box("edts") { edts in
                    edts.fullBox("elst", version: long ? 1 : 0) { elst in
                        elst.uint32(1)
                        if long {
                            elst.uint64(UInt64(segment))
                            elst.uint64(UInt64(bitPattern: mediaTime))
                        } else {
                            elst.uint32(UInt32(segment))
                            elst.int32(Int32(mediaTime))
                        }
                        elst.uint32(0x0001_0000)  // media_rate 1.0
                    }
                }
            }
            trak.box("mdia") { mdia in
                let mediaDuration = fragmented ? 0 : track.mediaDuration
                let longMedia = mediaDuration > Int64(UInt32.max)
                mdia.fullBox("mdhd", version: longMedia ? 1 : 0) { mdhd in
                    if longMedia { mdhd.uint64(0); mdhd.uint64(0) } else { mdhd.uint32(0); mdhd.uint32(0) }
                    mdhd.uint32(UInt32(description.timescale))
                    if longMedia { mdhd.uint64(UInt64(mediaDuration)) } else { mdhd.uint32(UInt32(mediaDuration)) }
                    mdhd.uint16(0x55C4)  // language "und" (ISO 639-2/T, 5 bits a letter)
                    mdhd.uint16(0)
                }
                mdia.fullBox("hdlr") { hdlr in
                    hdlr.uint32(0)
                    if description.isVideo { hdlr.fourCC("vide") } else { hdlr.fourCC("soun") }
                    hdlr.zeros(12)
                    hdlr.append(Array((description.isVideo ? "VideoHandler" : "SoundHandler").utf8) + [0])
                }
                mdia.box("minf") { minf in
                    if description.isVideo {
                        minf.fullBox("vmhd", flags: 1) { $0.zeros(8) }
                    } else {
                        minf.fullBox("smhd") { $0.zeros(4) }
                    }
                    minf.box("dinf") { dinf in
                        dinf.fullBox("dref") { dref in
                            dref.uint32(1)
                            dref.fullBox("url ", flags: 1) { _ in }
                        }
                    }
                    minf.box("stbl") { stbl in
                        do throws(ContainerWriteError) {
                            try MP4SampleEntry.writeDescriptionBox(for: description, bitRate: track.bitRate, into: &stbl)
                        } catch {
                            failure = error
                        }
                        (track.sampleTable ?? MP4SampleTable()).write(into: &stbl, chunkOffsetShift: chunkOffsetShift,
                                                                      forcesLargeOffsets: forcesLargeOffsets)
                    }
                }
            }
        }
        if let failure { throw failure }
    }
}
