/// The `c=` line (RFC 8866 §5.7): the address media is sent to.
public struct SDPConnection: Sendable, Hashable {
    /// `IN` (Internet).
    public var networkType: String
    /// `IP4` or `IP6`.
    public var addressType: String
    /// The address without its `/ttl` and `/count` suffixes.
    public var address: String
    /// The multicast time-to-live (IPv4 multicast only), when written.
    public var timeToLive: Int?
    /// The number of consecutive multicast addresses, when written.
    public var addressCount: Int?

    /// Creates a connection line.
    /// - Parameters:
    ///   - networkType: `IN`.
    ///   - addressType: `IP4` or `IP6`.
    ///   - address: the unicast or multicast address.
    ///   - timeToLive: the multicast TTL, if any.
    ///   - addressCount: the number of multicast addresses, if any.
    public init(networkType: String = "IN", addressType: String = "IP4", address: String,
                timeToLive: Int? = nil, addressCount: Int? = nil) {
        self.networkType = networkType
        self.addressType = addressType
        self.address = address
        self.timeToLive = timeToLive
        self.addressCount = addressCount
    }

    /// Reads `<nettype> <addrtype> <connection-address>` (RFC 8866 §5.7).
    /// - Parameters:
    ///   - value: the text after `c=`.
    ///   - line: the line number, for errors.
    /// - Throws: ``SDPError/invalidField(line:field:value:)``.
    init(parsing value: Substring, line: Int) throws(SDPError) {
        let fields = value.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 3 else { throw .invalidField(line: line, field: "c=", value: String(value)) }
        let parts = fields[2].split(separator: "/", omittingEmptySubsequences: false)
        guard let first = parts.first, !first.isEmpty, parts.count <= 3 else {
            throw .invalidField(line: line, field: "connection-address", value: String(fields[2]))
        }
        var numbers: [Int] = []
        for part in parts.dropFirst() {
            guard let number = Int(part), number >= 0 else {
                throw .invalidField(line: line, field: "connection-address", value: String(fields[2]))
            }
            numbers.append(number)
        }
        networkType = String(fields[0])
        addressType = String(fields[1])
        address = String(first)
        // IPv6 multicast has no TTL: a single suffix is the address count there (RFC 8866 §5.7).
        if addressType == "IP6" {
            timeToLive = nil
            addressCount = numbers.first
        } else {
            timeToLive = numbers.first
            addressCount = numbers.count > 1 ? numbers[1] : nil
        }
    }

    /// The line's value: `IN IP4 224.2.36.42/127/3`.
    public var value: String {
        var text = "\(networkType) \(addressType) \(address)"
        if let timeToLive { text += "/\(timeToLive)" }
        if let addressCount { text += "/\(addressCount)" }
        return text
    }
}
