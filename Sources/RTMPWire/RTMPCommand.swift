import Bitstream
import Containers

/// A NetConnection or NetStream command (Adobe RTMP specification 1.0 §7.2): its name, transaction id, command
/// object and further arguments, in AMF0 — message type 20 (or 17, AMF3's envelope around AMF0 values).
///
/// ```swift
/// let publish = RTMPCommand(name: "publish", transactionID: 5, arguments: ["key", "live"])
/// try await connection.send(try publish.message(streamID: 1))
/// ```
public struct RTMPCommand: Sendable, Hashable {
    /// The command name: `connect`, `_result`, `onStatus`…
    public var name: String
    /// The transaction id: matches a `_result`/`_error` to its call; 0 for commands that get no answer.
    public var transactionID: Double
    /// The command object (an object for `connect` and `_result`, else null).
    public var commandObject: AMF0Value
    /// The arguments after the command object.
    public var arguments: [AMF0Value]

    /// A command.
    /// - Parameters:
    ///   - name: the command name.
    ///   - transactionID: the transaction id.
    ///   - commandObject: the command object, null by default.
    ///   - arguments: the further arguments.
    public init(name: String, transactionID: Double, commandObject: AMF0Value = .null, arguments: [AMF0Value] = []) {
        self.name = name
        self.transactionID = transactionID
        self.commandObject = commandObject
        self.arguments = arguments
    }

    /// Reads a command message.
    /// - Parameters:
    ///   - message: a message of type 20 (AMF0 command) or 17 (AMF3 command whose values are AMF0).
    ///   - limits: the AMF0 depth cap comes from here.
    /// - Throws: ``RTMPError/malformedMessage(messageType:chunkStreamID:reason:)`` naming the AMF0 error and offset.
    public init(_ message: RTMPMessage, limits: RTMPLimits = RTMPLimits()) throws(RTMPError) {
        var payload = message.payload
        if message.type == .commandAMF3, payload.peekByte() == 0 { _ = payload.moveReaderIndex(forwardBy: 1) }
        func fail(_ reason: String) -> RTMPError {
            .malformedMessage(messageType: message.type.rawValue, chunkStreamID: message.chunkStreamID, reason: reason)
        }
        let values: [AMF0Value]
        do {
            values = try AMF0Decoder(limits: AMF0Limits(maximumDepth: limits.maximumAMFDepth)).decodeValues(from: payload)
        } catch {
            throw fail("AMF0: \(error)")
        }
        guard let name = values.first?.string else { throw fail("a command does not start with its name string") }
        self.name = name
        transactionID = values.count > 1 ? values[1].number ?? 0 : 0
        commandObject = values.count > 2 ? values[2] : .null
        arguments = Array(values.dropFirst(3))
    }

    /// The command as a message of type 20.
    /// - Parameter streamID: the message stream (0 for NetConnection commands).
    /// - Returns: the message, on chunk stream 3.
    /// - Throws: ``RTMPError/malformedMessage(messageType:chunkStreamID:reason:)`` when a value cannot be encoded.
    public func message(streamID: UInt32) throws(RTMPError) -> RTMPMessage {
        let bytes: [UInt8]
        do {
            bytes = try AMF0Value.encode([.string(name), .number(transactionID), commandObject] + arguments)
        } catch {
            throw .malformedMessage(messageType: RTMPMessageType.commandAMF0.rawValue, chunkStreamID: 3, reason: "AMF0: \(error)")
        }
        return RTMPMessage(type: .commandAMF0, streamID: streamID, timestamp: 0, payload: ByteView(bytes), chunkStreamID: 3)
    }

    /// The information object of a `_result`, `_error` or `onStatus` (the first object argument).
    public var information: AMF0Object? {
        arguments.lazy.compactMap(\.object).first ?? commandObject.object
    }

    /// The status an `onStatus` or `_error` (or `connect`'s `_result`) carries, if it has one.
    public var status: RTMPStatus? {
        information.flatMap { RTMPStatus($0) }
    }
}
