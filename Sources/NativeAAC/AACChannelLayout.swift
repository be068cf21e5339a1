import AAC

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

    /// The layout a program config element describes: its front, side and back elements, then its LFEs,
    /// output in that order.
    /// - Parameter pce: the program config element.
    public init(programConfigElement pce: ProgramConfigElement) {
        var elements: [ElementKind] = []
        for element in pce.frontElements + pce.sideElements + pce.backElements {
            elements.append(element.isChannelPair ? .pair : .single)
        }
        elements += pce.lfeElementTags.map { _ in .lowFrequency }
        let count = elements.reduce(0) { $0 + ($1 == .pair ? 2 : 1) }
        self.init(elements: elements, outputOrder: Array(0..<count))
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
