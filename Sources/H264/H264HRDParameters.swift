import Bitstream

/// `hrd_parameters( )` of ITU-T H.264 Annex E.1.2: the hypothetical reference decoder's coded
/// picture buffer schedules, used for the NAL HRD and the VCL HRD of the VUI.
public struct H264HRDParameters: Sendable, Hashable {
    /// One coded picture buffer specification (`SchedSelIdx`).
    public struct Schedule: Sendable, Hashable {
        /// `bit_rate_value_minus1[ SchedSelIdx ]`, 0…2^32 − 2.
        public var bitRateValueMinus1: UInt32
        /// `cpb_size_value_minus1[ SchedSelIdx ]`, 0…2^32 − 2.
        public var cpbSizeValueMinus1: UInt32
        /// `cbr_flag[ SchedSelIdx ]`: constant bit rate.
        public var cbrFlag: Bool

        /// Creates a schedule.
        /// - Parameters:
        ///   - bitRateValueMinus1: `bit_rate_value_minus1`.
        ///   - cpbSizeValueMinus1: `cpb_size_value_minus1`.
        ///   - cbrFlag: `cbr_flag`.
        public init(bitRateValueMinus1: UInt32, cpbSizeValueMinus1: UInt32, cbrFlag: Bool) {
            self.bitRateValueMinus1 = bitRateValueMinus1
            self.cpbSizeValueMinus1 = cpbSizeValueMinus1
            self.cbrFlag = cbrFlag
        }
    }

    /// `bit_rate_scale`, 0…15.
    public var bitRateScale: UInt8
    /// `cpb_size_scale`, 0…15.
    public var cpbSizeScale: UInt8
    /// The schedules: `cpb_cnt_minus1` + 1 of them, 1…32.
    public var schedules: [Schedule]
    /// `initial_cpb_removal_delay_length_minus1`, 0…31.
    public var initialCPBRemovalDelayLengthMinus1: UInt8
    /// `cpb_removal_delay_length_minus1`, 0…31.
    public var cpbRemovalDelayLengthMinus1: UInt8
    /// `dpb_output_delay_length_minus1`, 0…31.
    public var dpbOutputDelayLengthMinus1: UInt8
    /// `time_offset_length`, 0…31.
    public var timeOffsetLength: UInt8

    /// Creates HRD parameters.
    /// - Parameters:
    ///   - bitRateScale: `bit_rate_scale`.
    ///   - cpbSizeScale: `cpb_size_scale`.
    ///   - schedules: 1…32 schedules.
    ///   - initialCPBRemovalDelayLengthMinus1: `initial_cpb_removal_delay_length_minus1`.
    ///   - cpbRemovalDelayLengthMinus1: `cpb_removal_delay_length_minus1`.
    ///   - dpbOutputDelayLengthMinus1: `dpb_output_delay_length_minus1`.
    ///   - timeOffsetLength: `time_offset_length`.
    public init(bitRateScale: UInt8, cpbSizeScale: UInt8, schedules: [Schedule],
                initialCPBRemovalDelayLengthMinus1: UInt8 = 23, cpbRemovalDelayLengthMinus1: UInt8 = 23,
                dpbOutputDelayLengthMinus1: UInt8 = 23, timeOffsetLength: UInt8 = 24) {
        self.bitRateScale = bitRateScale
        self.cpbSizeScale = cpbSizeScale
        self.schedules = schedules
        self.initialCPBRemovalDelayLengthMinus1 = initialCPBRemovalDelayLengthMinus1
        self.cpbRemovalDelayLengthMinus1 = cpbRemovalDelayLengthMinus1
        self.dpbOutputDelayLengthMinus1 = dpbOutputDelayLengthMinus1
        self.timeOffsetLength = timeOffsetLength
    }

    /// Reads `hrd_parameters( )` (ITU-T H.264 §E.1.2).
    /// - Parameter reader: the RBSP reader.
    /// - Throws: ``SyntaxError`` naming the field that is cut off or out of range.
    public init(from reader: inout BitReader) throws(SyntaxError) {
        let count = try reader.ue("cpb_cnt_minus1", max: 31) + 1
        bitRateScale = try reader.u8(4, "bit_rate_scale")
        cpbSizeScale = try reader.u8(4, "cpb_size_scale")
        var schedules: [Schedule] = []
        schedules.reserveCapacity(Int(count))
        for _ in 0..<count {
            let bitRate = try reader.ue("bit_rate_value_minus1")
            let cpbSize = try reader.ue("cpb_size_value_minus1")
            let cbr = try reader.flag("cbr_flag")
            schedules.append(Schedule(bitRateValueMinus1: bitRate, cpbSizeValueMinus1: cpbSize, cbrFlag: cbr))
        }
        self.schedules = schedules
        initialCPBRemovalDelayLengthMinus1 = try reader.u8(5, "initial_cpb_removal_delay_length_minus1")
        cpbRemovalDelayLengthMinus1 = try reader.u8(5, "cpb_removal_delay_length_minus1")
        dpbOutputDelayLengthMinus1 = try reader.u8(5, "dpb_output_delay_length_minus1")
        timeOffsetLength = try reader.u8(5, "time_offset_length")
    }

    /// Writes `hrd_parameters( )` (§E.1.2).
    /// - Parameter writer: the RBSP writer.
    public func write(to writer: inout BitWriter) {
        writer.ue(UInt32(max(schedules.count, 1) - 1))
        writer.u(4, UInt32(bitRateScale))
        writer.u(4, UInt32(cpbSizeScale))
        for schedule in schedules {
            writer.ue(schedule.bitRateValueMinus1)
            writer.ue(schedule.cpbSizeValueMinus1)
            writer.flag(schedule.cbrFlag)
        }
        writer.u(5, UInt32(initialCPBRemovalDelayLengthMinus1))
        writer.u(5, UInt32(cpbRemovalDelayLengthMinus1))
        writer.u(5, UInt32(dpbOutputDelayLengthMinus1))
        writer.u(5, UInt32(timeOffsetLength))
    }

    /// The bit rate of a schedule in bits per second: (`bit_rate_value_minus1` + 1) · 2^(6 + `bit_rate_scale`) (E.2.2).
    /// - Parameter index: the schedule (`SchedSelIdx`).
    /// - Returns: the bit rate, or `nil` when there is no such schedule.
    public func bitRate(schedule index: Int) -> UInt64? {
        guard schedules.indices.contains(index) else { return nil }
        return (UInt64(schedules[index].bitRateValueMinus1) + 1) << (6 + UInt64(bitRateScale))
    }

    /// The coded picture buffer size of a schedule in bits: (`cpb_size_value_minus1` + 1) · 2^(4 + `cpb_size_scale`) (E.2.2).
    /// - Parameter index: the schedule (`SchedSelIdx`).
    /// - Returns: the size, or `nil` when there is no such schedule.
    public func cpbSize(schedule index: Int) -> UInt64? {
        guard schedules.indices.contains(index) else { return nil }
        return (UInt64(schedules[index].cpbSizeValueMinus1) + 1) << (4 + UInt64(cpbSizeScale))
    }
}
