// The input of the mux benchmarks: an H.264 stream's pictures as AVCC samples, repeated to a size.
import Bitstream
import MediaCore

/// The pictures of an H.264 Annex B stream with one slice per picture (as x264 writes by default), each as an
/// AVCC sample (a 4-byte length before the slice), with the stream's format, repeated up to a size.
struct AVCCPictures {
    /// One picture of the repeated stream.
    struct Picture {
        /// Its number in the repeated stream (0, 1, 2 …: its time at 30 fps).
        var index: Int
        /// The AVCC sample.
        var data: [UInt8]
        /// Whether it is a key frame (an IDR slice, or the very first picture).
        var isKeyFrame: Bool
        /// Its presentation and decode time: the index at 30 fps.
        var time: MediaTime { MediaTime(value: Int64(index), timescale: 30) }
        /// Its duration: one frame at 30 fps.
        static let duration = MediaTime(value: 1, timescale: 30)
    }

    /// The 1280x720 High-profile format with the stream's first SPS and PPS.
    let format: FormatDescription
    /// The pictures, repeated until they hold the size asked for.
    let pictures: [Picture]
    /// Their bytes.
    let byteCount: Int

    /// Reads the stream's SPS, PPS and slices, and repeats the slices up to `megabytes`.
    /// - Parameters:
    ///   - file: the Annex B stream.
    ///   - path: its path (for the failure message).
    ///   - megabytes: the size to repeat the pictures to.
    init(annexB file: [UInt8], path: String, megabytes: Int) {
        var parameterSets: [[UInt8]] = []
        var slices: [(data: [UInt8], isKey: Bool)] = []
        for range in AnnexB.nalUnitRanges(in: file) {
            let unit = Array(file[range])
            guard let header = unit.first else { continue }
            switch header & 0x1F {
            case 7, 8: if parameterSets.count < 2 { parameterSets.append(unit) }
            case 1, 5:
                let length = UInt32(unit.count)
                let prefixed = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + unit
                slices.append((prefixed, header & 0x1F == 5))
            default: break
            }
        }
        guard parameterSets.count == 2, !slices.isEmpty else { fail("\(path): no SPS, PPS and slices found") }
        format = FormatDescription(codec: .h264, width: 1280, height: 720, profileLevel: .h264High, parameterSets: parameterSets)
        var pictures: [Picture] = []
        var total = 0
        while total < megabytes << 20 {
            for slice in slices {
                pictures.append(Picture(index: pictures.count, data: slice.data, isKeyFrame: slice.isKey || pictures.isEmpty))
                total += slice.data.count
            }
        }
        self.pictures = pictures
        byteCount = total
    }

    /// Room for a muxer's output: the pictures and an eighth more, plus a megabyte.
    var outputCapacity: Int { byteCount + byteCount / 8 + (1 << 20) }

    /// The floor a muxer is measured against: the best thread CPU time of copying every picture's bytes into one
    /// buffer of ``outputCapacity``.
    /// - Parameter rounds: timings (the best is kept).
    /// - Returns: seconds.
    func bestCopyTime(rounds: Int) -> Double {
        best(rounds, clock: threadCPUTime) {
            var out = [UInt8]()
            out.reserveCapacity(outputCapacity)
            for picture in pictures { out.append(contentsOf: picture.data) }
            sink &+= out.count
        }
    }
}
