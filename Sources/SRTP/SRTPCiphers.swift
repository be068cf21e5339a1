#if OpenSSL
import COpenSSL

/// AES-128 in counter mode (RFC 3711 §4.1.1) over one EVP context made once; each call sets a new counter block.
final class AESCounterMode {
    private let context: OpaquePointer

    /// - Parameter key: the 16-byte key.
    /// - Throws: ``SRTPError/cipherFailed(operation:)``.
    init(key: [UInt8]) throws(SRTPError) {
        guard let context = EVP_CIPHER_CTX_new() else { throw .cipherFailed(operation: "EVP_CIPHER_CTX_new") }
        let ok = key.withUnsafeBufferPointer { EVP_EncryptInit_ex(context, EVP_aes_128_ctr(), nil, $0.baseAddress, nil) }
        guard ok == 1 else {
            EVP_CIPHER_CTX_free(context)
            throw .cipherFailed(operation: "EVP_EncryptInit_ex(aes-128-ctr)")
        }
        self.context = context
    }

    deinit { EVP_CIPHER_CTX_free(context) }

    /// XORs the keystream that starts at counter block `iv` into `count` bytes at `data`, in place.
    /// - Returns: `false` when OpenSSL failed.
    @inline(__always)
    func apply(iv: UnsafeRawPointer, to data: UnsafeMutableRawPointer, count: Int) -> Bool {
        guard EVP_EncryptInit_ex(context, nil, nil, nil, iv.assumingMemoryBound(to: UInt8.self)) == 1 else { return false }
        guard count > 0 else { return true }
        var written: Int32 = 0
        let bytes = data.assumingMemoryBound(to: UInt8.self)
        return EVP_EncryptUpdate(context, bytes, &written, bytes, Int32(count)) == 1
    }
}

/// AES-128-GCM with a 16-byte tag (RFC 7714 §5), one EVP context for each direction.
final class AESGCM {
    private let encryptor: OpaquePointer
    private let decryptor: OpaquePointer

    /// - Parameter key: the 16-byte key.
    /// - Throws: ``SRTPError/cipherFailed(operation:)``.
    init(key: [UInt8]) throws(SRTPError) {
        guard let encryptor = EVP_CIPHER_CTX_new() else { throw .cipherFailed(operation: "EVP_CIPHER_CTX_new") }
        guard let decryptor = EVP_CIPHER_CTX_new() else {
            EVP_CIPHER_CTX_free(encryptor)
            throw .cipherFailed(operation: "EVP_CIPHER_CTX_new")
        }
        let ok = key.withUnsafeBufferPointer {
            EVP_EncryptInit_ex(encryptor, EVP_aes_128_gcm(), nil, $0.baseAddress, nil) == 1
                && EVP_DecryptInit_ex(decryptor, EVP_aes_128_gcm(), nil, $0.baseAddress, nil) == 1
        }
        guard ok else {
            EVP_CIPHER_CTX_free(encryptor)
            EVP_CIPHER_CTX_free(decryptor)
            throw .cipherFailed(operation: "EVP_EncryptInit_ex(aes-128-gcm)")
        }
        self.encryptor = encryptor
        self.decryptor = decryptor
    }

    deinit {
        EVP_CIPHER_CTX_free(encryptor)
        EVP_CIPHER_CTX_free(decryptor)
    }

    /// Encrypts `count` bytes at `data` in place, authenticating `aad` (one or two pieces) too, and writes the 16-byte
    /// tag at `tag`.
    /// - Returns: `false` when OpenSSL failed.
    func seal(iv: UnsafeRawPointer, aad: UnsafeRawBufferPointer, aad2: UnsafeRawBufferPointer?,
              data: UnsafeMutableRawPointer, count: Int, tag: UnsafeMutableRawPointer) -> Bool
    {
        guard EVP_EncryptInit_ex(encryptor, nil, nil, nil, iv.assumingMemoryBound(to: UInt8.self)) == 1 else { return false }
        var written: Int32 = 0
        if let base = aad.baseAddress, aad.count > 0 {
            guard EVP_EncryptUpdate(encryptor, nil, &written, base.assumingMemoryBound(to: UInt8.self), Int32(aad.count)) == 1
            else { return false }
        }
        if let aad2, let base = aad2.baseAddress, aad2.count > 0 {
            guard EVP_EncryptUpdate(encryptor, nil, &written, base.assumingMemoryBound(to: UInt8.self), Int32(aad2.count)) == 1
            else { return false }
        }
        let bytes = data.assumingMemoryBound(to: UInt8.self)
        if count > 0 {
            guard EVP_EncryptUpdate(encryptor, bytes, &written, bytes, Int32(count)) == 1 else { return false }
        }
        guard EVP_EncryptFinal_ex(encryptor, bytes + count, &written) == 1 else { return false }
        return streamkit_gcm_get_tag(encryptor, tag.assumingMemoryBound(to: UInt8.self), 16) == 1
    }

    /// Decrypts `count` bytes at `data` in place and checks the 16-byte tag at `tag` over them and `aad`.
    /// - Returns: `false` when the tag does not match (or OpenSSL failed); the data is then garbage.
    func open(iv: UnsafeRawPointer, aad: UnsafeRawBufferPointer, aad2: UnsafeRawBufferPointer?,
              data: UnsafeMutableRawPointer, count: Int, tag: UnsafeMutableRawPointer) -> Bool
    {
        guard EVP_DecryptInit_ex(decryptor, nil, nil, nil, iv.assumingMemoryBound(to: UInt8.self)) == 1 else { return false }
        var written: Int32 = 0
        if let base = aad.baseAddress, aad.count > 0 {
            guard EVP_DecryptUpdate(decryptor, nil, &written, base.assumingMemoryBound(to: UInt8.self), Int32(aad.count)) == 1
            else { return false }
        }
        if let aad2, let base = aad2.baseAddress, aad2.count > 0 {
            guard EVP_DecryptUpdate(decryptor, nil, &written, base.assumingMemoryBound(to: UInt8.self), Int32(aad2.count)) == 1
            else { return false }
        }
        let bytes = data.assumingMemoryBound(to: UInt8.self)
        if count > 0 {
            guard EVP_DecryptUpdate(decryptor, bytes, &written, bytes, Int32(count)) == 1 else { return false }
        }
        guard streamkit_gcm_set_tag(decryptor, tag.assumingMemoryBound(to: UInt8.self), 16) == 1 else { return false }
        return EVP_DecryptFinal_ex(decryptor, bytes + count, &written) == 1
    }
}

/// HMAC-SHA1 (RFC 2104) keyed once (RFC 3711 §4.2.1); each tag restarts the context with the same key.
final class HMACSHA1 {
    private let context: OpaquePointer
    /// The full 20-byte MAC and the 4-byte suffix, in memory of the context's own.
    private let scratch = UnsafeMutableRawPointer.allocate(byteCount: 24, alignment: 8)

    /// - Parameter key: the 20-byte session authentication key.
    /// - Throws: ``SRTPError/cipherFailed(operation:)``.
    init(key: [UInt8]) throws(SRTPError) {
        guard let context = key.withUnsafeBufferPointer({ streamkit_hmac_sha1_new($0.baseAddress, $0.count) }) else {
            throw .cipherFailed(operation: "EVP_MAC HMAC-SHA1")
        }
        self.context = context
    }

    deinit {
        EVP_MAC_CTX_free(context)
        scratch.deallocate()
    }

    /// The first bytes of HMAC-SHA1 over `message` followed by the 4-byte `suffix`, written at `output`.
    /// - Parameters:
    ///   - message: the authenticated portion.
    ///   - suffix: the ROC (SRTP) or nothing (`nil`, SRTCP carries its index inside the message).
    ///   - output: where the tag goes; `length` bytes (at most 20).
    /// - Returns: `false` when OpenSSL failed.
    @inline(__always)
    func tag(_ message: UnsafeRawBufferPointer, suffix: UInt32?, into output: UnsafeMutableRawPointer, length: Int) -> Bool {
        guard EVP_MAC_init(context, nil, 0, nil) == 1 else { return false }
        if let base = message.baseAddress, message.count > 0 {
            guard EVP_MAC_update(context, base.assumingMemoryBound(to: UInt8.self), message.count) == 1 else { return false }
        }
        let full = scratch.assumingMemoryBound(to: UInt8.self)
        if let suffix {
            (scratch + 20).storeBytes(of: suffix.bigEndian, as: UInt32.self)
            guard EVP_MAC_update(context, full + 20, 4) == 1 else { return false }
        }
        var produced = 0
        guard EVP_MAC_final(context, full, &produced, 20) == 1, produced == 20 else { return false }
        output.copyMemory(from: scratch, byteCount: min(length, 20))
        return true
    }
}
#endif
