import POSIX
import Testing

/// ``SocketAddress`` text in and out, and what bad text is told.
@Suite struct SocketAddressTests {
    @Test("parsing then formatting gives the text back", arguments: [
        "127.0.0.1:5004", "0.0.0.0:0", "255.255.255.255:65535", "192.168.1.20:554",
        "[::1]:5004", "[::]:0", "[fe80::1%2]:8554", "[2001:db8::8:800:200c:417a]:443", "[::ffff:192.0.2.1]:80",
    ])
    func roundTrip(text: String) throws {
        let address = try SocketAddress(parsing: text)
        #expect(address.description == text)
        #expect(try SocketAddress(parsing: address.description) == address)
    }

    @Test("the parts: family, host, port, bytes, zone")
    func parts() throws {
        let ipv4 = try SocketAddress(parsing: "10.1.2.3:5004")
        #expect(ipv4.family == .ipv4 && ipv4.port == 5004 && ipv4.host == "10.1.2.3")
        #expect(ipv4.addressBytes == [10, 1, 2, 3])
        let ipv6 = try SocketAddress(parsing: "[2001:DB8:0:0::1]:6000")
        #expect(ipv6.family == .ipv6 && ipv6.port == 6000)
        #expect(ipv6.host == "2001:db8::1", "inet_ntop's canonical form")
        #expect(ipv6.addressBytes == [0x20, 0x01, 0x0d, 0xb8] + Array(repeating: 0, count: 11) + [1])
        #expect(try SocketAddress(parsing: "[fe80::1%3]:1").scopeID == 3)
        #expect(try SocketAddress(host: "::1", port: 9) == .loopback(.ipv6, port: 9))
        #expect(try SocketAddress(host: "127.0.0.1", port: 9) == .loopback(.ipv4, port: 9))
        #expect(SocketAddress.any(.ipv4, port: 1).description == "0.0.0.0:1")
        #expect(SocketAddress.any(.ipv6, port: 1).description == "[::]:1")
    }

    @Test("bad text is a typed error that says what is wrong")
    func badInput() {
        let cases: [(String, SocketAddressError)] = [
            ("127.0.0.1", .missingPort(text: "127.0.0.1")),
            ("127.0.0.1:", .invalidPort(text: "127.0.0.1:", port: "")),
            ("127.0.0.1:65536", .invalidPort(text: "127.0.0.1:65536", port: "65536")),
            ("127.0.0.1:-1", .invalidPort(text: "127.0.0.1:-1", port: "-1")),
            ("127.0.0.1:+80", .invalidPort(text: "127.0.0.1:+80", port: "+80")),
            ("127.0.0.1:80x", .invalidPort(text: "127.0.0.1:80x", port: "80x")),
            ("127.0.0.1:٣", .invalidPort(text: "127.0.0.1:٣", port: "٣")),
            ("256.0.0.1:80", .invalidHost(text: "256.0.0.1:80", host: "256.0.0.1")),
            ("1.2.3:80", .invalidHost(text: "1.2.3:80", host: "1.2.3")),
            ("localhost:80", .invalidHost(text: "localhost:80", host: "localhost")),
            (":80", .invalidHost(text: ":80", host: "")),
            ("::1:5004", .missingBrackets(text: "::1:5004")),
            ("[::1]", .missingPort(text: "[::1]")),
            ("[::1:5004", .malformedBrackets(text: "[::1:5004")),
            ("[::1]5004", .malformedBrackets(text: "[::1]5004")),
            ("[127.0.0.1]:80", .invalidHost(text: "[127.0.0.1]:80", host: "127.0.0.1")),
            ("[fe80::1%eth0]:80", .invalidHost(text: "[fe80::1%eth0]:80", host: "fe80::1%eth0")),
            ("", .missingPort(text: "")),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text)") { try SocketAddress(parsing: text) }
        }
        #expect(SocketAddressError.invalidPort(text: "127.0.0.1:99999", port: "99999").description
            == "bad address \"127.0.0.1:99999\": port \"99999\" is not a number from 0 to 65535")
        #expect(throws: SocketAddressError.invalidHost(text: "nowhere", host: "nowhere")) {
            try SocketAddress(host: "nowhere", port: 1)
        }
    }
}
