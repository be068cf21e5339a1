import Bitstream

/// `scaling_list_data()` of ITU-T H.265 §7.3.4, kept as coded.
///
/// The syntax codes 20 lists: six each for `sizeId` 0 (4×4), 1 (8×8) and 2 (16×16), and two for
/// `sizeId` 3 (32×32, `matrixId` 0 and 3). ``lists`` holds them in that coded order.
public struct HEVCScalingListData: Sendable, Hashable {
    /// One coded scaling list.
    public struct List: Sendable, Hashable {
        /// `scaling_list_pred_mode_flag`: `false` copies a reference list (or the default),
        /// `true` codes the coefficients.
        public var predModeFlag: Bool
        /// `scaling_list_pred_matrix_id_delta` (coded when ``predModeFlag`` is `false`).
        public var predMatrixIDDelta: Int
        /// `scaling_list_dc_coef_minus8`, −7…247 (coded for `sizeId` 2 and 3 when ``predModeFlag`` is `true`).
        public var dcCoefficientMinus8: Int
        /// The `scaling_list_delta_coef` values, −128…127 each (`coefNum` of them when ``predModeFlag`` is `true`).
        public var deltaCoefficients: [Int]

        /// Creates a list.
        /// - Parameters:
        ///   - predModeFlag: `scaling_list_pred_mode_flag`.
        ///   - predMatrixIDDelta: `scaling_list_pred_matrix_id_delta`.
        ///   - dcCoefficientMinus8: `scaling_list_dc_coef_minus8`.
        ///   - deltaCoefficients: the `scaling_list_delta_coef` values.
        public init(predModeFlag: Bool = false, predMatrixIDDelta: Int = 0, dcCoefficientMinus8: Int = 8,
                    deltaCoefficients: [Int] = []) {
            self.predModeFlag = predModeFlag
            self.predMatrixIDDelta = predMatrixIDDelta
            self.dcCoefficientMinus8 = dcCoefficientMinus8
            self.deltaCoefficients = deltaCoefficients
        }
    }

    /// The (`sizeId`, `matrixId`) pairs in coded order.
    public static let codedOrder: [(sizeID: Int, matrixID: Int)] =
        (0..<3).flatMap { size in (0..<6).map { (size, $0) } } + [(3, 0), (3, 3)]

    /// The 20 lists in the order of ``codedOrder``.
    public var lists: [List]

    /// Creates scaling list data in which every list uses the default (`pred_mode_flag` 0, delta 0).
    public init() {
        lists = Array(repeating: List(), count: Self.codedOrder.count)
    }

    /// The number of coefficients coded for a size: `Min(64, 1 << (4 + (sizeId << 1)))`.
    /// - Parameter sizeID: 0…3.
    /// - Returns: 16 for 4×4, 64 otherwise.
    public static func coefficientCount(sizeID: Int) -> Int { sizeID == 0 ? 16 : 64 }

    /// Parses `scaling_list_data()` (ITU-T H.265 §7.3.4).
    /// - Parameter reader: the reader, positioned at the structure.
    /// - Throws: ``SyntaxError`` naming the element that ends early or is out of range.
    public init(from reader: inout BitReader) throws(SyntaxError) {
        lists = []
        for (sizeID, matrixID) in Self.codedOrder {
            var list = List()
            list.predModeFlag = try reader.flag("scaling_list_pred_mode_flag")
            if !list.predModeFlag {
                let limit = sizeID == 3 ? matrixID / 3 : matrixID
                list.predMatrixIDDelta = try reader.ueInt("scaling_list_pred_matrix_id_delta", range: 0...limit)
            } else {
                if sizeID > 1 {
                    list.dcCoefficientMinus8 = try reader.seInt("scaling_list_dc_coef_minus8", range: -7...247)
                }
                for _ in 0..<Self.coefficientCount(sizeID: sizeID) {
                    list.deltaCoefficients.append(try reader.seInt("scaling_list_delta_coef", range: -128...127))
                }
            }
            lists.append(list)
        }
    }

    /// Writes `scaling_list_data()` (ITU-T H.265 §7.3.4). Missing lists are written as "use the default".
    /// - Parameter writer: the destination.
    public func write(to writer: inout BitWriter) {
        for (index, (sizeID, _)) in Self.codedOrder.enumerated() {
            let list = index < lists.count ? lists[index] : List()
            writer.flag(list.predModeFlag)
            if !list.predModeFlag {
                writer.ue(list.predMatrixIDDelta)
            } else {
                if sizeID > 1 { writer.se(list.dcCoefficientMinus8) }
                let count = Self.coefficientCount(sizeID: sizeID)
                for position in 0..<count {
                    writer.se(position < list.deltaCoefficients.count ? list.deltaCoefficients[position] : 0)
                }
            }
        }
    }
}
