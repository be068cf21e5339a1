/// One program of a transport stream as its program map section describes it (ISO/IEC 13818-1 §2.4.4.8,
/// Table 2-33): the PID carrying its PCR and its elementary streams.
public struct TSProgramMap: Hashable, Sendable {
    /// One elementary stream of the program.
    public struct Stream: Hashable, Sendable {
        /// `stream_type` (Table 2-34).
        public var streamType: TSStreamType
        /// `elementary_PID`.
        public var pid: UInt16
        /// The `ES_info` descriptors, as coded.
        public var descriptors: [UInt8]

        /// Creates a stream entry.
        /// - Parameters:
        ///   - streamType: the codec's `stream_type`.
        ///   - pid: the PID of its packets.
        ///   - descriptors: its descriptors (none by default).
        public init(streamType: TSStreamType, pid: UInt16, descriptors: [UInt8] = []) {
            self.streamType = streamType
            self.pid = pid
            self.descriptors = descriptors
        }
    }

    /// `program_number`.
    public var programNumber: UInt16
    /// The PID of the program map section (from the program association table).
    public var pmtPID: UInt16
    /// `version_number` (5 bits).
    public var version: UInt8
    /// `PCR_PID`.
    public var pcrPID: UInt16
    /// The elementary streams, in section order.
    public var streams: [Stream]

    /// Creates a program map.
    /// - Parameters:
    ///   - programNumber: the program's number (1 by default, as FFmpeg writes).
    ///   - pmtPID: the PID of its section.
    ///   - version: the section's version.
    ///   - pcrPID: the PID whose adaptation fields carry the PCR.
    ///   - streams: the elementary streams.
    public init(programNumber: UInt16 = 1, pmtPID: UInt16, version: UInt8 = 0, pcrPID: UInt16, streams: [Stream]) {
        self.programNumber = programNumber
        self.pmtPID = pmtPID
        self.version = version
        self.pcrPID = pcrPID
        self.streams = streams
    }
}
