import CLibCrypto
import PayRPCStore

/// AES-256-GCM (NIST SP 800-38D) from OpenSSL's libcrypto (`EVP_aes_256_gcm`): the
/// authenticated encryption that seals what the store must give back later but may hold a
/// secret. 12-byte nonces, 16-byte tags.
public enum AES256GCM {
    /// The size of a key in bytes.
    public static let keySize = 32
    /// The size of a nonce in bytes (GCM's standard IV length).
    public static let nonceSize = 12
    /// The size of an authentication tag in bytes.
    public static let tagSize = 16

    /// What ``seal(_:key:nonce:authenticating:)`` produced.
    public struct Box: Sendable, Equatable {
        /// The encrypted bytes, as long as the plaintext.
        public var ciphertext: [UInt8]
        /// The tag that authenticates the ciphertext and the associated data.
        public var tag: [UInt8]

        /// A box of `ciphertext` and its `tag`.
        public init(ciphertext: [UInt8], tag: [UInt8]) {
            self.ciphertext = ciphertext
            self.tag = tag
        }
    }

    /// Encrypts `plaintext` and authenticates it with `associatedData` (which is not encrypted).
    /// A nonce must never be used twice with one key: draw a fresh random one per message.
    /// - Throws: ``StoreError``: `invalidArgument` for a key or nonce of the wrong size,
    ///   `cryptography` when OpenSSL fails.
    public static func seal(
        _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], authenticating associatedData: [UInt8]
    ) throws(StoreError) -> Box {
        guard plaintext.count <= Int(Int32.max) - 16 else { throw StoreError(.invalidArgument, "a plaintext over 2 GiB") }
        let context = try start(encrypting: true, key: key, nonce: nonce, associatedData: associatedData)
        defer { EVP_CIPHER_CTX_free(context) }
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0
        if !plaintext.isEmpty {
            try OpenSSLCall.check(
                plaintext.withUnsafeBufferPointer { input in
                    EVP_EncryptUpdate(context, &ciphertext, &written, input.baseAddress, Int32(input.count))
                }, "EVP_EncryptUpdate(AES-256-GCM)")
        }
        var final: Int32 = 0
        try OpenSSLCall.check(
            ciphertext.withUnsafeMutableBufferPointer { output in
                EVP_EncryptFinal_ex(context, output.baseAddress! + Int(written), &final)
            }, "EVP_EncryptFinal_ex(AES-256-GCM)")
        var tag = [UInt8](repeating: 0, count: tagSize)
        try OpenSSLCall.check(EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagSize), &tag), "GCM tag")
        return Box(ciphertext: Array(ciphertext.prefix(Int(written + final))), tag: tag)
    }

    /// Decrypts `box` when its tag matches the key, nonce, ciphertext and `associatedData`; nil
    /// when anything was altered or the key, nonce or associated data differ, or OpenSSL fails
    /// (what cannot be authenticated is never returned).
    public static func open(
        _ box: Box, key: [UInt8], nonce: [UInt8], authenticating associatedData: [UInt8]
    ) -> [UInt8]? {
        guard box.tag.count == tagSize, box.ciphertext.count <= Int(Int32.max) - 16,
            let context = try? start(encrypting: false, key: key, nonce: nonce, associatedData: associatedData)
        else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        var plaintext = [UInt8](repeating: 0, count: box.ciphertext.count + 16)
        var written: Int32 = 0
        if !box.ciphertext.isEmpty {
            let updated = box.ciphertext.withUnsafeBufferPointer { input in
                EVP_DecryptUpdate(context, &plaintext, &written, input.baseAddress, Int32(input.count))
            }
            guard updated == 1 else { return nil }
        }
        var tag = box.tag
        guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tagSize), &tag) == 1 else { return nil }
        var final: Int32 = 0
        // The tag is checked here (in constant time, by OpenSSL): nothing is returned before.
        let verified = plaintext.withUnsafeMutableBufferPointer { output in
            EVP_DecryptFinal_ex(context, output.baseAddress! + Int(written), &final)
        }
        ERR_clear_error()
        guard verified == 1 else { return nil }
        return Array(plaintext.prefix(Int(written + final)))
    }

    /// A cipher context set up with the key, the nonce and the associated data.
    private static func start(
        encrypting: Bool, key: [UInt8], nonce: [UInt8], associatedData: [UInt8]
    ) throws(StoreError) -> OpaquePointer {
        guard key.count == keySize else { throw StoreError(.invalidArgument, "AES-256-GCM needs a \(keySize)-byte key") }
        guard nonce.count == nonceSize else {
            throw StoreError(.invalidArgument, "AES-256-GCM here takes \(nonceSize)-byte nonces")
        }
        guard associatedData.count <= Int(Int32.max) else { throw StoreError(.invalidArgument, "associated data over 2 GiB") }
        try OpenSSLCall.load()
        guard let context = EVP_CIPHER_CTX_new() else { throw OpenSSLCall.failure("EVP_CIPHER_CTX_new") }
        let initialized = key.withUnsafeBufferPointer { key in
            nonce.withUnsafeBufferPointer { nonce in
                EVP_CipherInit_ex(context, EVP_aes_256_gcm(), nil, key.baseAddress, nonce.baseAddress, encrypting ? 1 : 0)
            }
        }
        var ignored: Int32 = 0
        let authenticated =
            associatedData.isEmpty
            ? 1
            : associatedData.withUnsafeBufferPointer { data in
                EVP_CipherUpdate(context, nil, &ignored, data.baseAddress, Int32(data.count))
            }
        guard initialized == 1, authenticated == 1 else {
            EVP_CIPHER_CTX_free(context)
            throw OpenSSLCall.failure("AES-256-GCM set-up")
        }
        return context
    }
}
