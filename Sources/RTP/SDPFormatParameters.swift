/// The parameters of an `a=fmtp:` attribute (RFC 8866 §6.15) in the `name=value;name=value` form every
/// RTP payload format of interest here uses (RFC 6184, RFC 7798, RFC 3640). Names compare ignoring case
/// (RFC 4855 §3); order and spelling are kept as written.
public struct SDPFormatParameters: Sendable, Hashable {
    /// One `name=value` pair.
    public struct Parameter: Sendable, Hashable {
        /// The name as written.
        public var name: String
        /// The value (after the first `=`), `""` when the parameter had no `=`.
        public var value: String

        /// Creates a parameter.
        /// - Parameters:
        ///   - name: the name.
        ///   - value: the value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The parameters in order.
    public var parameters: [Parameter]

    /// Creates a list of parameters.
    /// - Parameter parameters: the pairs.
    public init(_ parameters: [Parameter] = []) {
        self.parameters = parameters
    }

    /// Reads `name=value;name=value` (spaces around the separators are dropped; empty entries skipped).
    /// - Parameter text: the parameter text, after the payload type.
    public init(parsing text: String) {
        var parameters: [Parameter] = []
        for entry in text.split(separator: ";") {
            let trimmed = entry.trimmingSDPSpaces
            if trimmed.isEmpty { continue }
            if let equals = trimmed.firstIndex(of: "=") {
                parameters.append(Parameter(name: String(trimmed[..<equals].trimmingSDPSpaces),
                                            value: String(trimmed[trimmed.index(after: equals)...].trimmingSDPSpaces)))
            } else {
                parameters.append(Parameter(name: String(trimmed), value: ""))
            }
        }
        self.init(parameters)
    }

    /// Splits an `a=fmtp:` value into its payload type and parameter text; `nil` when the payload type is
    /// not a number (formats of non-RTP media are kept as text too).
    /// - Parameter attributeValue: the text after `fmtp:`.
    /// - Returns: the format and the parameter text.
    static func split(attributeValue: String) -> (format: String, parameters: String)? {
        let trimmed = attributeValue.trimmingSDPSpaces
        guard !trimmed.isEmpty else { return nil }
        guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (String(trimmed), "") }
        return (String(trimmed[..<space]), String(trimmed[space...].trimmingSDPSpaces))
    }

    /// The value of the first parameter named `name`, compared ignoring case.
    /// - Parameter name: the parameter name.
    /// - Returns: the value, or `nil` if absent.
    public subscript(name: String) -> String? {
        get {
            let key = name.lowercased()
            return parameters.first { $0.name.lowercased() == key }?.value
        }
        set {
            let key = name.lowercased()
            if let index = parameters.firstIndex(where: { $0.name.lowercased() == key }) {
                if let newValue { parameters[index].value = newValue } else { parameters.remove(at: index) }
            } else if let newValue {
                parameters.append(Parameter(name: name, value: newValue))
            }
        }
    }

    /// The parameter text: `name=value;name=value`.
    public var text: String {
        parameters.map { $0.value.isEmpty ? $0.name : "\($0.name)=\($0.value)" }.joined(separator: ";")
    }

    /// An integer parameter.
    /// - Parameters:
    ///   - name: the parameter name.
    ///   - range: the values the RFC allows.
    /// - Returns: the value, or `nil` if absent.
    /// - Throws: ``SDPError/invalidParameter(name:value:reason:)`` when it is not an integer in `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(SDPError) -> Int? {
        guard let text = self[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .invalidParameter(name: name, value: text, reason: "not an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }
}
