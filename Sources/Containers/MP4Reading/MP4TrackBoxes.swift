/// The boxes of one `trak` the reader uses, found in a first pass (ISO/IEC 14496-12 §8.3–§8.7), with their paths.
struct MP4TrackBoxes {
    var path = ""
    var stblPath = ""
    var trackID: UInt32 = 0
    var timescale: UInt32 = 0
    var language = "und"
    var handler: UInt32 = 0
    var editList: [MP4EditListEntry] = []
    var stsd, stts, ctts, stss, stsz, stz2, stsc, stco, co64: (header: MP4BoxHeader, path: String)?
}

/// The defaults of one track's fragments (`trex`, ISO/IEC 14496-12 §8.8.3).
struct MP4TrackExtends {
    var sampleDescriptionIndex: UInt32 = 1
    var sampleDuration: UInt32 = 0
    var sampleSize: UInt32 = 0
    var sampleFlags: UInt32 = 0
}
