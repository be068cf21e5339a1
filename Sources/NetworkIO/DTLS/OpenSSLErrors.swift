#if OpenSSL
import COpenSSL

/// OpenSSL's thread-local error queue as text.
enum OpenSSLErrors {
    /// The queue's messages joined (and the queue emptied), for example
    /// `error:0A000086:SSL routines::certificate verify failed`.
    static func text() -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? "no OpenSSL error reported" : messages.joined(separator: "; ")
    }
}
#endif
