import HTTPMessages
import Testing

/// Feeds `bytes` to a request parser in pieces of `piece` bytes and returns every request, or the error.
private func requests(_ bytes: [UInt8], piece: Int, limits: HTTPMessageLimits = HTTPMessageLimits()) -> Result<[HTTPRequest], HTTPParseError> {
    var parser = HTTPRequestParser(limits: limits)
    var found: [HTTPRequest] = []
    var start = 0
    while start < bytes.count {
        parser.append(Array(bytes[start..<min(bytes.count, start + piece)]))
        start += piece
        do {
            while let request = try parser.next() { found.append(request) }
        } catch {
            return .failure(error)
        }
    }
    return .success(found)
}

@Suite("HTTP/1.1 messages (RFC 9112)")
struct HTTPMessageTests {
    @Test("Pipelined requests with Content-Length and chunked bodies parse the same whatever the pieces they arrive in",
          arguments: [1, 3, 7, 64, 100_000])
    func pipelined(piece: Int) throws {
        let text = "\r\nPOST /live/whip?x=1 HTTP/1.1\r\nHost: a\r\ncontent-length: 5\r\nContent-Type: application/sdp\r\n\r\nv=0\r\n"
            + "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
            + "PATCH /s/1 HTTP/1.1\nTransfer-Encoding: chunked\n\n3;ext=1\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nTrailer: x\r\n\r\n"
            + "DELETE /s/1 HTTP/1.1\r\nConnection: close\r\n\r\n"
        let parsed = try requests(Array(text.utf8), piece: piece).get()
        #expect(parsed.map(\.method) == [.post, .get, .patch, .delete])
        #expect(parsed[0].path == "/live/whip" && parsed[0].query == "x=1")
        #expect(parsed[0].headers["CONTENT-TYPE"] == "application/sdp")
        #expect(parsed[0].body == Array("v=0\r\n".utf8))
        #expect(parsed[1].version == "HTTP/1.0" && parsed[1].keepsAlive)
        #expect(parsed[2].body == Array("abc0123456789abcdef".utf8))
        #expect(parsed[0].keepsAlive && !parsed[3].keepsAlive)
    }

    @Test("Written requests and responses parse back to themselves")
    func roundTrip() throws {
        let request = HTTPRequest(method: .post, target: "/a", headers: ["Host": "h", "X-Evil": "a\r\nInjected: yes"], body: [0, 1, 2, 255])
        var parser = HTTPRequestParser()
        parser.append(request.serialized())
        let again = try #require(try parser.next())
        #expect(again.body == request.body && again.headers["Content-Length"] == "4")
        #expect(again.headers["Injected"] == nil)

        let response = HTTPResponse(status: .created, headers: ["Location": "/whip/1", "ETag": "\"1\""], body: Array("answer".utf8))
        var responses = HTTPResponseParser()
        responses.append(response.serialized() + HTTPResponse(status: .noContent).serialized() + response.serialized(includingBody: false))
        #expect(try responses.next(answering: .post)?.body == Array("answer".utf8))
        #expect(try responses.next(answering: .delete)?.status.code == 204)
        let head = try #require(try responses.next(answering: .head))
        #expect(head.body.isEmpty && head.headers["Content-Length"] == "6")
    }

    @Test("Responses: chunked, 100 Continue skipped, body until close")
    func responses() throws {
        var parser = HTTPResponseParser()
        parser.append(Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n".utf8))
        let chunked = try #require(try parser.next(answering: .post))
        #expect(chunked.body == Array("Wikipedia".utf8))
        parser.append(Array("HTTP/1.0 200 OK\r\n\r\nuntil the end".utf8))
        #expect(try parser.next(answering: .get) == nil)
        parser.finish()
        let closed = try #require(try parser.next(answering: .get))
        #expect(closed.body == Array("until the end".utf8) && !closed.keepsAlive)
    }

    @Test("Caps and malformed input are typed errors naming the offset and the status a server answers")
    func errors() {
        let limits = HTTPMessageLimits(maximumStartLineLength: 64, maximumHeaderCount: 4, maximumHeaderSectionLength: 256, maximumBodyLength: 10)
        func error(_ text: String) -> HTTPParseError? {
            if case let .failure(error) = requests(Array(text.utf8), piece: 5, limits: limits) { return error }
            return nil
        }
        #expect(error("GET /" + String(repeating: "a", count: 100) + " HTTP/1.1\r\n\r\n") == .startLineTooLong(limit: 64, offset: 0))
        #expect(error("GET / HTTP/1.1\r\n" + (0..<5).map { "A\($0): b\r\n" }.joined() + "\r\n") == .tooManyHeaders(limit: 4, offset: 16 + 4 * 7))
        #expect(error("GET / HTTP/1.1\r\nA: " + String(repeating: "b", count: 300))?.status.code == 431)
        #expect(error("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n") == .bodyTooLarge(length: 11, limit: 10, offset: 0))
        #expect(error("POST / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n") == .invalidHeaderValue(field: "Content-Length", value: "1x", offset: 0))
        #expect(error("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")?.status.code == 400)
        #expect(error("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n")?.status.code == 400)
        #expect(error("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n")?.status.code == 501)
        #expect(error("GET / HTTP/2.0\r\n\r\n") == .unsupportedVersion(version: "HTTP/2.0", offset: 0))
        #expect(error("GET / HTTP/1.1\r\nbad line\r\n\r\n") == .malformedHeader(line: 1, text: "bad line", offset: 16))
        #expect(error("GET / HTTP/1.1\r\n\r\n\u{01}") == .garbage(byte: 1, offset: 18))
        #expect(error("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
            == .malformedChunk(reason: "no chunk size", offset: 47))
        #expect(error("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n0123456789\r\n")?.status.code == 400)
        #expect(error("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nb\r\n")?.status.code == 413)
    }
}
