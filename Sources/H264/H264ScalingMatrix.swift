import Bitstream

/// The scaling lists of an SPS (`seq_scaling_matrix`, ITU-T H.264 §7.3.2.1.1) or a PPS
/// (`pic_scaling_matrix`, §7.3.2.2): one entry per `…_scaling_list_present_flag[ i ]`.
///
/// Entries 0…5 are 4x4 lists (Intra Y, Cb, Cr, Inter Y, Cb, Cr), the rest 8x8 lists (Intra Y,
/// Inter Y, then Cb and Cr for 4:4:4). An SPS has 8 or 12 entries, a PPS 6, 8 or 12.
public struct H264ScalingMatrix: Sendable, Hashable {
    /// The lists; `nil` where the present flag is 0 (a fall-back rule of Table 7-2 applies).
    public var lists: [H264ScalingList?]

    /// Creates a matrix from its lists.
    /// - Parameter lists: one entry per present flag, `nil` for a list that is not present.
    public init(lists: [H264ScalingList?]) {
        self.lists = lists
    }

    /// Reads `count` present flags, each followed by its `scaling_list( )` when set
    /// (the loops of §7.3.2.1.1 and §7.3.2.2).
    /// - Parameters:
    ///   - reader: the RBSP reader.
    ///   - count: the number of lists: 8 or 12 in an SPS, 6, 8 or 12 in a PPS.
    /// - Throws: ``SyntaxError`` naming `scaling_list_present_flag` or `delta_scale`.
    public init(from reader: inout BitReader, count: Int) throws(SyntaxError) {
        var lists: [H264ScalingList?] = []
        lists.reserveCapacity(count)
        for index in 0..<count {
            if try reader.flag("scaling_list_present_flag") {
                lists.append(try H264ScalingList(from: &reader, size: index < 6 ? 16 : 64))
            } else {
                lists.append(nil)
            }
        }
        self.lists = lists
    }

    /// Writes the present flags and the lists.
    /// - Parameter writer: the RBSP writer.
    public func write(to writer: inout BitWriter) {
        for list in lists {
            writer.flag(list != nil)
            list?.write(to: &writer)
        }
    }
}
