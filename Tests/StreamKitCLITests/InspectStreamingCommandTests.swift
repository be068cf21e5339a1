import Foundation
import Testing
import TestSupport

/// `streamkit inspect` on large files (memory must not grow with the file), `--nal --json`, and the
/// ADTS reports: a truncated tail after one frame, CRC counts.
extension InspectCommandTests {
    private func object(_ output: ExternalTool.Output) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: output.standardOutput) as? [String: Any])
    }

    /// Peak resident memory of one `streamkit inspect --json` run, in kilobytes, and its output.
    private func inspectPeakMemory(_ path: String) throws -> (kilobytes: Int, output: ExternalTool.Output) {
        let report = try ExternalTool.temporaryDirectory().appendingPathComponent("time.txt").path
        let output = try ExternalTool.run("time", ["-f", "%M", "-o", report, try ExternalTool.builtProduct("streamkit"), "inspect", "--json", path])
        let text = try String(contentsOfFile: report, encoding: .utf8)
        let kilobytes = try #require(text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        return (kilobytes, output)
    }

    @Test(.requiresMedia, .enabled(if: ExternalTool.isRunnable("time", "ffprobe")))
    func memoryStaysFlatWhateverTheFileSize() async throws {
        let piece = try MediaFiles.bytes("encoded/cars_320x240.h264")  // 30 frames
        let directory = try ExternalTool.temporaryDirectory()
        var results: [(copies: Int, kilobytes: Int)] = []
        for megabytes in [4, 64] {
            let copies = megabytes << 20 / piece.count
            let url = directory.appendingPathComponent("\(megabytes).h264")
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            let data = Data(piece)
            for _ in 0..<copies { handle.write(data) }
            try handle.close()
            let (kilobytes, output) = try inspectPeakMemory(url.path)
            #expect(output.status == 0, "\(output.standardError.prefix(300))")
            let frames = try #require(try object(output)["frames"] as? [[String: Any]])
            let packets = try await ExternalTool.check("ffprobe", ["-v", "error", "-f", "h264", "-show_entries", "packet=size", "-of", "csv=p=0", url.path])
            #expect(frames.count == packets.text.split(separator: "\n").count && frames.count == copies * 30)
            results.append((copies, kilobytes))
        }
        // Reading the whole file would take 64 MB more; chunked reading stays within a few MB.
        let growth = results[1].kilobytes - results[0].kilobytes
        #expect(growth < 12 << 10, "peak RSS \(results[0].kilobytes) KB for 4 MB, \(results[1].kilobytes) KB for 64 MB")
        #expect(results[1].kilobytes < 64 << 10)
    }

    @Test(.requiresMedia) func nalAndJSONTogetherListEveryUnitAfterTheFrames() async throws {
        let path = MediaFiles.url("encoded/cars_320x240.h265").path
        let output = try await ExternalTool.runProduct("streamkit", ["inspect", "--nal", "--json", path])
        #expect(output.status == 0)
        let object = try object(output)
        let units = try #require(object["nal_unit_list"] as? [[String: Any]])
        #expect(units.count == 34 && object["nal_units"] as? Int == 34)
        let offsets = units.compactMap { $0["offset"] as? Int }
        #expect(offsets.count == 34 && offsets == offsets.sorted() && offsets.first == 4)
        #expect((object["frames"] as? [[String: Any]])?.count == 30)
        let text = output.text
        let order = ["\"frames\"", "\"nal_units\"", "\"nal_unit_list\""].compactMap { text.range(of: $0)?.lowerBound }
        #expect(order.count == 3 && order == order.sorted())
    }

    @Test(.requiresMedia) func oneADTSFrameAndATruncatedSecondIsReportedAsADTS() async throws {
        let bytes = try MediaFiles.bytes("audio/exoplayer/sample.adts")
        // Frame 0 is 30 bytes; frame 1 (13 bytes) is cut after 10.
        let file = try ExternalTool.temporaryDirectory().appendingPathComponent("cut.aac")
        try Data(bytes.prefix(40)).write(to: file)
        let text = try await ExternalTool.runProduct("streamkit", ["inspect", file.path])
        #expect(text.status == 1)  // the cut frame is an error, reported after what was read
        #expect(text.text.contains("AAC in ADTS") && text.text.contains("frames       1 (1 raw data blocks), then a truncated frame (10 of 13 bytes)"))
        #expect(text.standardError.contains("frame 1 at byte 30 is truncated"))
        let json = try await object(try ExternalTool.runProduct("streamkit", ["inspect", "--json", file.path]))
        #expect(json["codec"] as? String == "aac" && json["frames"] as? Int == 1 && json["truncated_frames"] as? Int == 1)
    }

    /// An ADTS header with CRC and four raw data blocks (ISO/IEC 13818-7 §6.2.1), packed here bit by bit.
    private func protectedHeader(frameLength: Int, positions: [Int], privateBit: Bool) -> [UInt8] {
        var bits: [Bool] = []
        func put(_ value: Int, _ count: Int) { for bit in (0..<count).reversed() { bits.append(value >> bit & 1 == 1) } }
        put(0xFFF, 12); put(0, 1); put(0, 2); put(0, 1)            // syncword, ID (MPEG-4), layer, protection_absent = 0
        put(1, 2); put(4, 4); put(privateBit ? 1 : 0, 1); put(1, 3) // LC, 44.1 kHz, private_bit, mono
        put(0, 4); put(frameLength, 13); put(0x7FF, 11); put(3, 2)  // flags, aac_frame_length, fullness, 4 blocks
        for position in positions { put(position, 16) }
        var bytes = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<(start + 8)].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        // crc_check: CRC-16, polynomial 0x8005, register preset to 0xFFFF, over the header and positions.
        var register: UInt16 = 0xFFFF
        for bit in bits {
            let top = register >> 15 == 1
            register <<= 1
            if bit != top { register ^= 0x8005 }
        }
        bytes += [UInt8(register >> 8), UInt8(register & 0xFF)]
        return bytes
    }

    @Test(.requiresMedia) func adtsCRCCountsAndMismatchesAreReported() async throws {
        let sample = try MediaFiles.bytes("audio/exoplayer/sample.adts")
        var payloads: [[UInt8]] = []
        var offset = 0
        while offset + 7 <= sample.count {
            let length = Int(sample[offset + 3] & 3) << 11 | Int(sample[offset + 4]) << 3 | Int(sample[offset + 5] >> 5)
            payloads.append(Array(sample[(offset + 7)..<(offset + length)]))
            offset += length
        }
        #expect(payloads.count == 144)
        var stream: [UInt8] = []
        for (group, start) in stride(from: 0, to: 144, by: 4).enumerated() {
            let blocks = payloads[start..<(start + 4)]
            var positions: [Int] = []
            var position = 0
            for block in blocks.dropLast() { position += block.count + 2; positions.append(position) }
            let length = 15 + blocks.reduce(0) { $0 + $1.count + 2 }
            var header = protectedHeader(frameLength: length, positions: positions, privateBit: false)
            if group == 7 { header[2] ^= 0x02 }  // one corrupt byte: the private bit flipped after the CRC was made
            stream += header
            for block in blocks { stream += block + [0, 0] }
        }
        let file = try ExternalTool.temporaryDirectory().appendingPathComponent("crc.aac")
        try Data(stream).write(to: file)
        let jsonOutput = try await ExternalTool.runProduct("streamkit", ["inspect", "--json", file.path])
        #expect(jsonOutput.status == 1)
        let json = try object(jsonOutput)
        #expect(json["frames"] as? Int == 36)
        #expect(json["crc_protected_frames"] as? Int == 36 && json["crc_checked_frames"] as? Int == 36 && json["crc_mismatches"] as? Int == 1)
        let errors = try #require(json["errors"] as? [String])
        #expect(errors.count == 1 && errors[0].contains("frame 7") && errors[0].contains("crc_check"))
        let text = try await ExternalTool.runProduct("streamkit", ["inspect", file.path])
        #expect(text.text.contains("CRC          36 frames protected, 36 checked, 1 mismatch"))
        // ffprobe, which does not check the CRC, splits the same 36 frames.
        let packets = try await ExternalTool.check("ffprobe", ["-v", "error", "-f", "aac", "-show_entries", "packet=size", "-of", "csv=p=0", file.path])
        #expect(packets.text.split(separator: "\n").count == 36)
    }
}
