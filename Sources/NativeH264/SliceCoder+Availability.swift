import NativeH264Kernels

extension SliceCoder {
    /// Whether macroblock (mbX, mbY), a neighbour left of or above the current one, is available
    /// (§6.4.8, §6.4.12): inside the picture and in the current slice. Slices are runs of macroblocks in
    /// raster order, so a neighbour of the slice is one whose address is not below first_mb_in_slice.
    func isMacroblockAvailable(mbX: Int, mbY: Int) -> Bool {
        mbX >= 0 && mbY >= 0 && mbX < widthInMbs && mbY < heightInMbs && mbY * widthInMbs + mbX >= sliceStart
    }

    /// The neighbours of a macroblock available for Intra_16x16 and chroma prediction (§8.3.3, §8.3.4:
    /// mbAddrA left, mbAddrB above, mbAddrD above left; the above-right one is not used by them).
    func intraNeighbours(mbX: Int, mbY: Int) -> IntraNeighbours {
        var neighbours: IntraNeighbours = []
        if isMacroblockAvailable(mbX: mbX - 1, mbY: mbY) { neighbours.insert(.left) }
        if isMacroblockAvailable(mbX: mbX, mbY: mbY - 1) { neighbours.insert(.top) }
        if isMacroblockAvailable(mbX: mbX - 1, mbY: mbY - 1) { neighbours.insert(.topLeft) }
        return neighbours
    }
}
