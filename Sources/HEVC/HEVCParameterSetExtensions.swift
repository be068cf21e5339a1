import Bitstream

/// The extension tail an SPS and a PPS share (ITU-T H.265 §7.3.2.2.1, §7.3.2.3.1): the
/// `*_extension_present_flag`, the range / multilayer / 3D / SCC flags, `*_extension_4bits`, the parsed
/// range extension and the raw bits of everything after it, up to the stop bit.
///
/// Both parameter sets keep one of these and expose its fields under their public property names.
struct HEVCParameterSetExtensions<RangeExtension: Sendable & Hashable>: Sendable, Hashable {
    /// The syntax element names of one parameter set, used in parse errors.
    struct FieldNames {
        let presentFlag: StaticString
        let rangeFlag: StaticString
        let multilayerFlag: StaticString
        let threeDFlag: StaticString
        let sccFlag: StaticString
        let fourBits: StaticString
        let dataFlag: StaticString
    }

    /// Whether the present flag is 1 although no extension flag is.
    var emptyExtensionPresent = false
    /// The range extension; `nil` when the range extension flag is 0.
    var rangeExtension: RangeExtension?
    /// The multilayer extension flag (its data is in ``extensionData``).
    var multilayerExtensionFlag = false
    /// The 3D extension flag (its data is in ``extensionData``).
    var threeDExtensionFlag = false
    /// The SCC extension flag (its data is in ``extensionData``).
    var sccExtensionFlag = false
    /// The `*_extension_4bits` (its data is in ``extensionData``).
    var extension4Bits = 0
    /// The unparsed multilayer / 3D / SCC extensions and extension data flags, up to the stop bit.
    var extensionData = HEVCRawBits()

    /// The present flag: 1 whenever an extension is set; setting it to `true` with no extension writes the
    /// flag with all four extension flags 0.
    var extensionPresentFlag: Bool {
        get { emptyExtensionPresent || rangeExtension != nil || hasUnparsedExtensions }
        set { emptyExtensionPresent = newValue }
    }

    /// Whether any extension kept as raw bits is flagged.
    private var hasUnparsedExtensions: Bool {
        multilayerExtensionFlag || threeDExtensionFlag || sccExtensionFlag || extension4Bits != 0
    }

    /// Reads the present flag, the extension flags, the range extension and the raw rest.
    /// - Parameters:
    ///   - reader: the reader, at the present flag.
    ///   - names: the syntax element names of this parameter set.
    ///   - readRange: parses the range extension.
    mutating func read(from reader: inout BitReader, names: FieldNames,
                       readRange: (inout BitReader) throws(SyntaxError) -> RangeExtension) throws(SyntaxError) {
        self = Self()
        emptyExtensionPresent = try reader.flag(names.presentFlag)
        guard emptyExtensionPresent else { return }
        let rangeFlag = try reader.flag(names.rangeFlag)
        multilayerExtensionFlag = try reader.flag(names.multilayerFlag)
        threeDExtensionFlag = try reader.flag(names.threeDFlag)
        sccExtensionFlag = try reader.flag(names.sccFlag)
        extension4Bits = Int(try reader.u(4, names.fourBits))
        if rangeFlag {
            rangeExtension = try readRange(&reader)
        }
        emptyExtensionPresent = !rangeFlag && !hasUnparsedExtensions
        if hasUnparsedExtensions {
            extensionData = try HEVCRawBits(readingUpToStopBitFrom: &reader, field: names.dataFlag)
        }
    }

    /// Writes the present flag and, when it is 1, the extension flags, the range extension and the raw rest.
    /// - Parameters:
    ///   - writer: the destination.
    ///   - writeRange: writes the range extension.
    func write(to writer: inout BitWriter, writeRange: (RangeExtension, inout BitWriter) -> Void) {
        writer.flag(extensionPresentFlag)
        guard extensionPresentFlag else { return }
        writer.flag(rangeExtension != nil)
        writer.flag(multilayerExtensionFlag)
        writer.flag(threeDExtensionFlag)
        writer.flag(sccExtensionFlag)
        writer.u(4, extension4Bits)
        if let rangeExtension { writeRange(rangeExtension, &writer) }
        if hasUnparsedExtensions { extensionData.write(to: &writer) }
    }
}
