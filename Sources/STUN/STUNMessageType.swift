/// A STUN message type (RFC 8489 §5): a method and a class, interleaved in the 14 bits after the two leading zeros.
public struct STUNMessageType: Hashable, Sendable, CustomStringConvertible {
    /// The class of a message (§3, §5): the C1 and C0 bits.
    public enum Class: UInt16, Hashable, Sendable {
        /// A request (0b00).
        case request = 0
        /// An indication (0b01).
        case indication = 1
        /// A success response (0b10).
        case successResponse = 2
        /// An error response (0b11).
        case errorResponse = 3
    }

    /// The method, 12 bits; 0x001 is Binding (§18.2).
    public var method: UInt16
    /// The class.
    public var messageClass: Class

    /// The Binding method (§18.2), the only one ICE uses.
    public static let bindingMethod: UInt16 = 0x001

    /// A type.
    /// - Parameters:
    ///   - method: the 12-bit method.
    ///   - messageClass: the class.
    public init(method: UInt16, messageClass: Class) {
        self.method = method & 0x0FFF
        self.messageClass = messageClass
    }

    /// The type read from the 16-bit field (its two leading bits already known to be zero).
    /// - Parameter value: the field: M11–M7, C1, M6–M4, C0, M3–M0 (§5, Figure 3).
    public init(rawValue value: UInt16) {
        method = (value & 0x000F) | ((value & 0x00E0) >> 1) | ((value & 0x3E00) >> 2)
        messageClass = Class(rawValue: ((value >> 4) & 0x1) | ((value >> 7) & 0x2)) ?? .request
    }

    /// The 16-bit field.
    public var rawValue: UInt16 {
        let classBits = messageClass.rawValue
        return (method & 0x000F) | ((method & 0x0070) << 1) | ((method & 0x0F80) << 2) | ((classBits & 1) << 4) | ((classBits & 2) << 7)
    }

    /// `Binding request`, for example.
    public var description: String {
        let name = method == Self.bindingMethod ? "Binding" : "method 0x\(String(method, radix: 16))"
        switch messageClass {
        case .request: return "\(name) request"
        case .indication: return "\(name) indication"
        case .successResponse: return "\(name) success response"
        case .errorResponse: return "\(name) error response"
        }
    }

    /// Binding request (0x0001).
    public static let bindingRequest = STUNMessageType(method: bindingMethod, messageClass: .request)
    /// Binding success response (0x0101).
    public static let bindingSuccess = STUNMessageType(method: bindingMethod, messageClass: .successResponse)
    /// Binding error response (0x0111).
    public static let bindingError = STUNMessageType(method: bindingMethod, messageClass: .errorResponse)
    /// Binding indication (0x0011), the ICE keep-alive (RFC 8445 §11).
    public static let bindingIndication = STUNMessageType(method: bindingMethod, messageClass: .indication)
}
