import Foundation
@testable import NativeAAC
import Testing

/// The normative tables and the transforms, checked against what they must satisfy.
@Suite struct AACTablesTests {
    @Test("every annex 4.A codebook is a complete prefix code (Kraft sum exactly 1, no codeword a prefix of another)")
    func codebooksArePrefixCodes() {
        let books = [("scalefactor", AACHuffmanCodebook.scalefactor)] + AACHuffmanCodebook.spectral.enumerated().map { ("spectral \($0.offset + 1)", $0.element) }
        let sizes = [121, 81, 81, 81, 81, 81, 81, 64, 64, 169, 169, 289]
        for ((name, book), size) in zip(books, sizes) {
            #expect(book.codewords.count == size, "\(name)")
            var kraft = 0.0
            for (code, length) in zip(book.codewords, book.lengths) {
                #expect(code < 1 << UInt32(length), "\(name): codeword wider than its length")
                kraft += pow(2.0, -Double(length))
            }
            #expect(kraft == 1.0, "\(name): Kraft sum \(kraft)")
            let table = AACHuffmanTable(book)
            for (index, (code, length)) in zip(book.codewords, book.lengths).enumerated() {
                let window = code << (32 - UInt32(length))
                let decoded = table.decode(window | ((1 << (32 - UInt32(length))) - 1) & 0x5555_5555)
                #expect(decoded?.index == index && decoded?.length == Int(length), "\(name): index \(index)")
            }
        }
    }

    @Test("band tables: offsets rise to 1024/128, band counts and TNS limits of Tables 4.129–4.147 and 4.155")
    func bandTables() {
        let longCounts = [41, 41, 47, 49, 49, 51, 47, 47, 43, 43, 43, 40, 40]
        let shortCounts = [12, 12, 12, 14, 14, 14, 15, 15, 15, 15, 15, 15, 15]
        for (index, table) in AACScalefactorBandTable.tables.enumerated() {
            #expect(table.longBandCount == longCounts[index] && table.shortBandCount == shortCounts[index])
            #expect(table.long.first == 0 && table.long.last == 1024 && table.short.first == 0 && table.short.last == 128)
            #expect(zip(table.long, table.long.dropFirst()).allSatisfy { $1 > $0 && ($1 - $0) % 4 == 0 })
            #expect(zip(table.short, table.short.dropFirst()).allSatisfy { $1 > $0 && ($1 - $0) % 4 == 0 })
        }
    }

    @Test("windows: Princen-Bradley condition W(n)² + W(N/2−1−n)² = 1 for every shape and length")
    func windowsArePowerComplementary() {
        for window in [AACWindows.sineLong, AACWindows.sineShort, AACWindows.kbdLong, AACWindows.kbdShort] {
            let half = window.count
            for n in 0..<half {
                #expect(abs(window[n] * window[n] + window[half - 1 - n] * window[half - 1 - n] - 1) < 1e-5)
            }
        }
    }

    @Test("the fast IMDCT equals the term-by-term formula", arguments: [2048, 256])
    func imdctMatchesDefinition(_ length: Int) {
        let transform = AACIMDCT(length: length)
        var state: UInt32 = 1
        let input = (0..<(length / 2)).map { _ -> Float in
            state = state &* 1_103_515_245 &+ 12345
            return Float(Int32(bitPattern: state)) / Float(Int32.max)
        }
        let expected = transform.referenceInverse(input, scale: 1)
        var output = [Float](repeating: 0, count: length)
        var scratch = [Float](repeating: 0, count: length)
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                scratch.withUnsafeMutableBufferPointer { work in
                    transform.inverse(source.baseAddress!, into: target.baseAddress!, scale: 1, scratch: work.baseAddress!)
                }
            }
        }
        let worst = zip(output, expected).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-3 * Float(length).squareRoot(), "largest difference \(worst)")
    }
}
