import AAC
import Bitstream

/// Which syntactic elements a stream's raw data blocks carry, in order, and where their channels go
/// in the output (ISO/IEC 14496-3 §1.6.3.4, Table 1.19 for channel configurations 1–7, or a
/// `program_config_element` for configuration 0).
///
/// The k-th element of a kind in a raw data block fills the k-th slot of that kind. Channels are
/// delivered in WAV / FFmpeg order (front left, front right, centre, LFE, back, side); a layout from a
/// PCE keeps the element order.
public struct AACChannelLayout: Sendable, Hashable {
    /// The kind of a channel element.
    public enum ElementKind: Sendable, Hashable {
        /// `single_channel_element`.
        case single
        /// `channel_pair_element`.
        case pair
        /// `lfe_channel_element`.
        case lowFrequency
    }

    /// The elements, in the order their kind's elements appear in a raw data block.
    public let elements: [ElementKind]
    /// For each output channel, the decoded channel (in element order) it takes.
    public let outputOrder: [Int]

    /// The number of channels.
    public var channelCount: Int { outputOrder.count }

    /// The layout of a channel configuration 1 through 7.
    /// - Parameter configuration: the configuration.
    /// - Returns: the layout, or `nil` for 0 (a PCE names it) and values above 7.
    public init?(configuration: ChannelConfiguration) {
        switch configuration.rawValue {
        case 1: self.init(elements: [.single], outputOrder: [0])
        case 2: self.init(elements: [.pair], outputOrder: [0, 1])
        case 3: self.init(elements: [.single, .pair], outputOrder: [1, 2, 0])
        case 4: self.init(elements: [.single, .pair, .single], outputOrder: [1, 2, 0, 3])
        case 5: self.init(elements: [.single, .pair, .pair], outputOrder: [1, 2, 0, 3, 4])
        case 6: self.init(elements: [.single, .pair, .pair, .lowFrequency], outputOrder: [1, 2, 0, 5, 3, 4])
        // L R C LFE, back (surround) pair, then the outside-front pair on the side speakers, as
        // WAVChannelMask(aacChannelConfiguration:) and FFmpeg label them.
        case 7: self.init(elements: [.single, .pair, .pair, .pair, .lowFrequency], outputOrder: [1, 2, 0, 7, 5, 6, 3, 4])
        default: return nil
        }
    }

    /// The layout a program config element describes: its front, side and back elements, then its LFEs.
    /// When they are the elements of a channel configuration 1–7 (FFmpeg's `-aac_pce` writes 5.1 so),
    /// the channels come out in that configuration's order, as FFmpeg delivers them; otherwise in
    /// element order.
    /// - Parameter pce: the program config element.
    public init(programConfigElement pce: ProgramConfigElement) {
        var elements: [ElementKind] = []
        for element in pce.frontElements + pce.sideElements + pce.backElements {
            elements.append(element.isChannelPair ? .pair : .single)
        }
        elements += pce.lfeElementTags.map { _ in .lowFrequency }
        for value in UInt8(1)...7 {
            if let fixed = ChannelConfiguration(rawValue: value).flatMap(AACChannelLayout.init(configuration:)), fixed.elements == elements {
                self = fixed
                return
            }
        }
        let count = elements.reduce(0) { $0 + ($1 == .pair ? 2 : 1) }
        self.init(elements: elements, outputOrder: Array(0..<count))
    }

    /// The program config element at the start of a raw data block (after any fill elements), where an
    /// ADTS stream with `channel_configuration` 0 carries its layout (ISO/IEC 14496-3 §1.6.3.4).
    /// - Parameter block: a raw data block.
    /// - Returns: the PCE, or `nil` when the block does not start with one.
    public static func programConfigElement<Bytes: Collection>(atStartOf block: Bytes) -> ProgramConfigElement?
    where Bytes.Element == UInt8 {
        var reader = BitReader(Array(block) + [UInt8](repeating: 0, count: 8))
        let limit = block.count * 8
        while reader.bitPosition + 3 <= limit, let id = reader.readBits(3) {
            switch id {
            case 5:
                guard let pce = try? ProgramConfigElement.parse(from: &reader, alignmentOrigin: 0), reader.bitPosition <= limit else { return nil }
                return pce
            case 6:
                guard var count = reader.readBits(4).map(Int.init) else { return nil }
                if count == 15 { count += Int(reader.readBits(8) ?? 0) - 1 }
                guard reader.skipBits(count * 8) else { return nil }
            default:
                return nil
            }
        }
        return nil
    }

    /// Creates a layout.
    /// - Parameters:
    ///   - elements: the element kinds in order.
    ///   - outputOrder: for each output channel, the decoded channel it takes.
    public init(elements: [ElementKind], outputOrder: [Int]) {
        self.elements = elements
        self.outputOrder = outputOrder
    }

    /// The first decoded channel of each element.
    var firstChannels: [Int] {
        var next = 0
        return elements.map { kind in
            defer { next += kind == .pair ? 2 : 1 }
            return next
        }
    }
}
