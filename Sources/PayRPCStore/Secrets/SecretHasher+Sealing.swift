extension SecretHasher {
    /// Encrypts `plaintext` under the server key, for what must be stored and given back later
    /// but may hold a secret: the first answer of an idempotent call (a PBBA secureToken).
    ///
    /// No cipher library builds within payrpc's release-build budget (see ``SHA256``), so this is
    /// HMAC-SHA256 used as a pseudo-random function in counter mode (keystream block *i* =
    /// HMAC(key, "payrpc.seal" ‖ context ‖ nonce ‖ *i*)), with a fresh 16-byte random nonce per
    /// message and an encrypt-then-MAC tag (HMAC over "payrpc.tag" ‖ context ‖ nonce ‖
    /// ciphertext) so tampering is detected. Output: hex of nonce ‖ tag ‖ ciphertext.
    public func seal(_ plaintext: String, context: String) -> String {
        let nonce = Self.randomBytes(16)
        let ciphertext = xorKeystream(Array(plaintext.utf8), nonce: nonce, context: context)
        let tag = sealTag(nonce: nonce, ciphertext: ciphertext, context: context)
        return Hex.encode(nonce + tag + ciphertext)
    }

    /// Decrypts what ``seal(_:context:)`` produced with the same key and context; nil when it was
    /// altered, sealed under another key or context, or is not a sealed value at all.
    public func unseal(_ sealed: String, context: String) -> String? {
        guard let bytes = Hex.decode(sealed), bytes.count >= 32 else { return nil }
        let nonce = Array(bytes[0..<16]), tag = Array(bytes[16..<32]), ciphertext = Array(bytes[32...])
        guard ConstantTime.equals(tag, sealTag(nonce: nonce, ciphertext: ciphertext, context: context)) else { return nil }
        return String(decoding: xorKeystream(ciphertext, nonce: nonce, context: context), as: UTF8.self)
    }

    private func xorKeystream(_ input: [UInt8], nonce: [UInt8], context: String) -> [UInt8] {
        var output = input
        let prefix = Array("payrpc.seal".utf8) + [0] + Array(context.utf8) + [0] + nonce
        var counter: UInt32 = 0
        var offset = 0
        while offset < output.count {
            let block = mac.authenticate(prefix + withUnsafeBytes(of: counter.bigEndian) { Array($0) })
            for index in 0..<min(block.count, output.count - offset) { output[offset + index] ^= block[index] }
            offset += block.count
            counter += 1
        }
        return output
    }

    private func sealTag(nonce: [UInt8], ciphertext: [UInt8], context: String) -> [UInt8] {
        Array(mac.authenticate(Array("payrpc.tag".utf8) + [0] + Array(context.utf8) + [0] + nonce + ciphertext).prefix(16))
    }
}
