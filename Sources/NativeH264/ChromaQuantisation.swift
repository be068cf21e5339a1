/// QPC from QPY for 8-bit 4:2:0 (§8.5.8, Table 8-15): qPI = Clip3(0, 51, QPY + chroma_qp_index_offset),
/// QPC = qPI below 30 and the table above.
enum ChromaQuantisation {
    static let table: [Int] = [29, 30, 31, 32, 32, 33, 34, 34, 35, 35, 36, 36, 37, 37, 37, 38, 38, 38, 39, 39, 39, 39]

    /// QPC.
    /// - Parameters:
    ///   - lumaQP: QPY, 0…51.
    ///   - offset: chroma_qp_index_offset, −12…12.
    /// - Returns: QPC.
    static func chromaQP(lumaQP: Int, offset: Int = 0) -> Int {
        let qPI = min(max(lumaQP + offset, 0), 51)
        return qPI < 30 ? qPI : table[qPI - 30]
    }
}
