import Bitstream
import Foundation
import H264
import TestSupport
import Testing

/// SEI messages, recovery points and access unit delimiters in streams x264 writes.
@Suite("SEI and access unit delimiters", .enabled(if: ExternalTool.isRunnable("x264")))
struct H264SEITests {
    static let foreman = MediaFiles.url("sequences/foreman_qcif8.y4m").path

    @Test("x264's user_data_unregistered SEI names the x264 build that `x264 --version` reports", .requiresMedia)
    func userDataUnregistered() async throws {
        let (stream, _) = try H264TestSupport.x264(["--preset", "ultrafast"], y4m: Self.foreman)
        let sei = try #require(AnnexB.nalUnitRanges(in: stream).map { stream[$0] }.first { H264NALUnitType(headerByte: $0.first ?? 0) == .supplementalEnhancementInformation })
        let messages = try H264SEIMessage.messages(inNALUnit: sei)
        let message = try #require(messages.first)
        #expect(message.payloadType == .userDataUnregistered)
        #expect(message.payloadType.name == "user_data_unregistered")
        // "x264 0.164.3095 baee400" → the SEI text starts "x264 - core 164 r3095 baee400".
        let version = try await ExternalTool.check("x264", ["--version"]).text
        let parts = (version.split(whereSeparator: \.isNewline).first ?? "").split(separator: " ")
        let numbers = parts.count > 1 ? parts[1].split(separator: ".") : []
        try #require(numbers.count == 3 && parts.count > 2)
        let text = String(decoding: message.payload.dropFirst(16), as: UTF8.self)
        #expect(text.hasPrefix("x264 - core \(numbers[1]) r\(numbers[2]) \(parts[2])"))
        // Writing the messages back gives the same RBSP and NAL unit.
        let rbsp = EmulationPrevention.rbsp(fromEBSP: sei.dropFirst())
        #expect(H264SEIMessage.rbsp(for: messages) == rbsp)
        #expect(H264SEIMessage.nalUnit(for: messages, nalRefIDC: (sei.first ?? 0) >> 5) == Array(sei))
    }

    @Test("recovery point SEIs of an open-GOP stream parse and write back", .requiresMedia)
    func recoveryPoints() throws {
        let (stream, _) = try H264TestSupport.x264(["--preset", "veryfast", "--open-gop", "--keyint", "4", "--bframes", "2"],
                                                   y4m: Self.foreman)
        var points: [H264RecoveryPoint] = []
        for nal in AnnexB.nalUnitRanges(in: stream).map({ stream[$0] }) where H264NALUnitType(headerByte: nal.first ?? 0) == .supplementalEnhancementInformation {
            for message in try H264SEIMessage.messages(inNALUnit: nal) where message.payloadType == .recoveryPoint {
                let point = try H264RecoveryPoint(payload: message.payload)
                #expect(point.payload() == message.payload)
                points.append(point)
            }
        }
        #expect(!points.isEmpty)
    }

    @Test("x264 --aud: one delimiter first in every access unit, allowing the slice types that follow", .requiresMedia)
    func accessUnitDelimiters() throws {
        let (stream, _) = try H264TestSupport.x264(["--preset", "veryfast", "--aud", "--bframes", "2"], y4m: Self.foreman)
        let units = try H264TestSupport.accessUnits(in: stream)
        #expect(units.count == 8)
        for unit in units {
            #expect(unit.nalUnitTypes.first == .accessUnitDelimiter)
            #expect(unit.nalUnitTypes.filter { $0 == .accessUnitDelimiter }.count == 1)
            let nal = try #require(unit.nalUnits.first)
            let delimiter = try H264AccessUnitDelimiter(nalUnit: nal)
            #expect(delimiter.nalUnit() == Array(nal))
            for slice in unit.sliceHeaders {
                #expect(delimiter.allowedSliceTypes.contains(slice.sliceType))
            }
        }
    }

    @Test("payloadType and payloadSize use 0xFF continuation bytes")
    func longPayloads() throws {
        // §7.3.2.3.1: a value v is coded as v / 255 bytes 0xFF and a last byte v % 255.
        let messages = [H264SEIMessage(payloadType: H264SEIPayloadType(rawValue: 300), payload: [UInt8](repeating: 0x42, count: 600)),
                        H264SEIMessage(payloadType: .recoveryPoint, payload: H264RecoveryPoint(recoveryFrameCount: 3).payload())]
        let rbsp = H264SEIMessage.rbsp(for: messages)
        #expect(Array(rbsp.prefix(5)) == [0xFF, 0x2D, 0xFF, 0xFF, 0x5A])
        #expect(try H264SEIMessage.messages(inRBSP: rbsp) == messages)
        #expect(H264SEIPayloadType(rawValue: 300).name == nil)
        #expect(H264SEIPayloadType(rawValue: 47).name == "display_orientation")
    }

    @Test("a payloadSize past the end is an error naming payloadSize")
    func truncatedPayload() {
        #expect {
            try H264SEIMessage.messages(inNALUnit: [0x06, 0x05, 0x20, 0x01, 0x02, 0x80])
        } throws: { error in
            guard let error = error as? H264Error, case let .syntax(syntax, type) = error else { return false }
            return syntax.field == "payloadSize" && type == .supplementalEnhancementInformation
        }
    }
}
