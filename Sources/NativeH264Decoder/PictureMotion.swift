/// The motion of a decoded frame that direct prediction of later B slices reads from it as the
/// co-located picture (§8.4.1.2.1): per 4x4 luma block (raster order inside each macroblock), for both
/// lists, the reference index, the identity of the picture it meant, and the motion vector. −1 in both
/// lists marks an intra (or concealed) block. Allocated once with the frame buffer, never per macroblock.
final class PictureMotion {
    /// 4x4 blocks in the frame (16 per macroblock).
    let blockCount: Int
    /// refIdxL0 and refIdxL1 per block (list 1 at offset ``blockCount``).
    let referenceIndices: UnsafeMutablePointer<Int8>
    /// The identity (``DecoderPicture/identity``) of the picture each reference index meant, −1 for none.
    let referenceIdentities: UnsafeMutablePointer<Int32>
    /// Horizontal motion vector components, list 0 then list 1.
    let motionX: UnsafeMutablePointer<Int32>
    /// Vertical motion vector components, list 0 then list 1.
    let motionY: UnsafeMutablePointer<Int32>
    /// Per macroblock (internal index): 1 for a field macroblock of an MBAFF frame (mb_field_decoding_flag, what
    /// §8.4.1.2.1 calls fieldDecodingFlagX of a co-located pair), 0 otherwise. Its blocks' vectors are then in
    /// field units and its reference indices field indices.
    let fieldMacroblocks: UnsafeMutablePointer<UInt8>
    /// Macroblocks in the frame.
    let macroblockCount: Int

    /// Allocates the motion of a frame of `macroblockCount` macroblocks, every block intra.
    /// - Parameter macroblockCount: macroblocks in the frame.
    init(macroblockCount: Int) {
        blockCount = max(macroblockCount, 1) * 16
        referenceIndices = .allocate(capacity: 2 * blockCount)
        referenceIndices.initialize(repeating: -1, count: 2 * blockCount)
        referenceIdentities = .allocate(capacity: 2 * blockCount)
        referenceIdentities.initialize(repeating: -1, count: 2 * blockCount)
        motionX = .allocate(capacity: 2 * blockCount)
        motionX.initialize(repeating: 0, count: 2 * blockCount)
        motionY = .allocate(capacity: 2 * blockCount)
        motionY.initialize(repeating: 0, count: 2 * blockCount)
        self.macroblockCount = max(macroblockCount, 1)
        fieldMacroblocks = .allocate(capacity: self.macroblockCount)
        fieldMacroblocks.initialize(repeating: 0, count: self.macroblockCount)
    }

    deinit {
        referenceIndices.deallocate()
        referenceIdentities.deallocate()
        motionX.deallocate()
        motionY.deallocate()
        fieldMacroblocks.deallocate()
    }

    /// Marks every block intra (a frame with no motion of its own: inferred for a gap in `frame_num`).
    func clear() {
        referenceIndices.update(repeating: -1, count: 2 * blockCount)
        referenceIdentities.update(repeating: -1, count: 2 * blockCount)
        motionX.update(repeating: 0, count: 2 * blockCount)
        motionY.update(repeating: 0, count: 2 * blockCount)
        fieldMacroblocks.update(repeating: 0, count: macroblockCount)
    }
}
