import Bitstream

// The slice-header entry point for NAL units handed out as `ByteView`s (the Annex B and AVCC scanners'
// form): concrete, so the generic parse is specialised inside this module instead of running as
// unspecialised generic code (metadata look-ups, a witness call per byte) in the caller's.

extension H264SliceHeader {
    /// Parses the slice header at the start of a slice NAL unit held in a byte view (ITU-T H.264 §7.3.3),
    /// unescaping it into a buffer the caller keeps from one slice to the next.
    ///
    /// The result is that of ``init(nalUnit:parameterSets:)``; the view is read in place.
    /// - Parameters:
    ///   - nalUnit: the NAL unit (type 1, 2 or 5), without start code, as a view into its stream.
    ///   - parameterSets: the parameter sets received so far.
    ///   - scratch: a buffer reused for the RBSP; its contents on return are unspecified.
    /// - Throws: ``H264Error`` as ``init(nalUnit:parameterSets:)``.
    public init(nalUnit: ByteView, parameterSets: H264ParameterSets, scratch: inout [UInt8]) throws(H264Error) {
        try self.init(nalUnit: nalUnit,
                      pictureParameterSet: { parameterSets.pictureParameterSet(id: $0) },
                      sequenceParameterSet: { parameterSets.sequenceParameterSet(id: $0) },
                      scratch: &scratch)
    }
}
