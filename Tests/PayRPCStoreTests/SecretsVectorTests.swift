import PayRPCStore
import Testing
import PayRPCSecrets

@Suite("SHA-256, HMAC-SHA256, HKDF and AES-256-GCM (OpenSSL) against the official vectors")
struct SecretsVectorTests {
    @Test("SHA-256: FIPS 180-2 \"abc\"")
    func sha256ABC() throws {
        #expect(Hex.encode(try SHA256.hash("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("SHA-256: FIPS 180-2 448-bit message")
    func sha256TwoBlocks() throws {
        #expect(
            Hex.encode(try SHA256.hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("SHA-256: FIPS 180-2 one million 'a'")
    func sha256MillionA() throws {
        #expect(
            Hex.encode(try SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("SHA-256: empty message and the 55/56/64-byte padding edges")
    func sha256Padding() throws {
        #expect(Hex.encode(try SHA256.hash("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // Values from an independent implementation (Python's hashlib).
        #expect(
            Hex.encode(try SHA256.hash(String(repeating: "a", count: 55)))
                == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(
            Hex.encode(try SHA256.hash(String(repeating: "a", count: 56)))
                == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(
            Hex.encode(try SHA256.hash(String(repeating: "a", count: 64)))
                == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    /// RFC 4231 §4: key, data, HMAC-SHA256 (case 5 is truncated to 128 bits).
    static let hmacCases: [(key: [UInt8], data: [UInt8], mac: String)] = [
        (
            [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            Array(1...25), [UInt8](repeating: 0xcd, count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        (
            [UInt8](repeating: 0x0c, count: 20), Array("Test With Truncation".utf8),
            "a3b6167473100ee06e0c796c2955552b"
        ),
        (
            [UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            [UInt8](repeating: 0xaa, count: 131),
            Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. "
                    + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ]

    @Test("HMAC-SHA256: RFC 4231 test cases 1-7", arguments: 0..<7)
    func hmac(index: Int) throws {
        let testCase = Self.hmacCases[index]
        let mac = Hex.encode(try HMACSHA256.authenticate(testCase.data, key: testCase.key))
        #expect(mac.hasPrefix(testCase.mac))
        #expect(mac.count == 64)
    }

    @Test("HKDF-SHA256 expand: RFC 5869 test case 1 (from its PRK) and test case 3's empty info")
    func hkdf() throws {
        let prk = try #require(Hex.decode("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5"))
        let okm = try HKDF.expand(key: prk, info: try #require(Hex.decode("f0f1f2f3f4f5f6f7f8f9")), length: 42)
        #expect(Hex.encode(okm) == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        let prk3 = try #require(Hex.decode("19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04"))
        #expect(
            Hex.encode(try HKDF.expand(key: prk3, info: [], length: 42))
                == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
        #expect(throws: StoreError.self) { try HKDF.expand(key: prk, info: [], length: 0) }
    }

    /// The AES-256 cases with 96-bit IVs of the GCM specification's test vectors (McGrew and
    /// Viega, as NIST's GCM validation uses them): 13 (nothing), 14 (one zero block), 16 (with
    /// associated data and a partial block).
    static let gcmCases: [(key: String, nonce: String, plaintext: String, data: String, ciphertext: String, tag: String)] = [
        (
            String(repeating: "00", count: 32), String(repeating: "00", count: 12), "", "", "",
            "530f8afbc74536b9a963b4f1c4cb738b"
        ),
        (
            String(repeating: "00", count: 32), String(repeating: "00", count: 12), String(repeating: "00", count: 16), "",
            "cea7403d4d606b6e074ec5d3baf39d18", "d0d1c8a799996bf0265b98b5d48ab919"
        ),
        (
            "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
                + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
            "feedfacedeadbeeffeedfacedeadbeefabaddad2",
            "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
                + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
            "76fc6ece0f4e1768cddf8853bb2d551b"
        ),
    ]

    @Test("AES-256-GCM: GCM specification test cases 13, 14 and 16, both ways", arguments: 0..<3)
    func gcm(index: Int) throws {
        let testCase = Self.gcmCases[index]
        let key = try #require(Hex.decode(testCase.key)), nonce = try #require(Hex.decode(testCase.nonce))
        let plaintext = try #require(Hex.decode(testCase.plaintext)), data = try #require(Hex.decode(testCase.data))
        let box = try AES256GCM.seal(plaintext, key: key, nonce: nonce, authenticating: data)
        #expect(Hex.encode(box.ciphertext) == testCase.ciphertext)
        #expect(Hex.encode(box.tag) == testCase.tag)
        #expect(AES256GCM.open(box, key: key, nonce: nonce, authenticating: data) == plaintext)
    }

    @Test("AES-256-GCM: a changed bit of key, nonce, ciphertext, tag or associated data opens nothing")
    func gcmTampering() throws {
        let testCase = Self.gcmCases[2]
        let key = try #require(Hex.decode(testCase.key)), nonce = try #require(Hex.decode(testCase.nonce))
        let data = try #require(Hex.decode(testCase.data))
        let box = AES256GCM.Box(
            ciphertext: try #require(Hex.decode(testCase.ciphertext)), tag: try #require(Hex.decode(testCase.tag)))
        func flipped(_ bytes: [UInt8], at index: Int) -> [UInt8] {
            var bytes = bytes
            bytes[index] ^= 0x01
            return bytes
        }
        #expect(AES256GCM.open(box, key: flipped(key, at: 31), nonce: nonce, authenticating: data) == nil)
        #expect(AES256GCM.open(box, key: key, nonce: flipped(nonce, at: 0), authenticating: data) == nil)
        #expect(AES256GCM.open(box, key: key, nonce: nonce, authenticating: flipped(data, at: 5)) == nil)
        #expect(AES256GCM.open(box, key: key, nonce: nonce, authenticating: []) == nil)
        for index in [0, 30, box.ciphertext.count - 1] {
            let changed = AES256GCM.Box(ciphertext: flipped(box.ciphertext, at: index), tag: box.tag)
            #expect(AES256GCM.open(changed, key: key, nonce: nonce, authenticating: data) == nil)
        }
        for index in [0, AES256GCM.tagSize - 1] {
            let changed = AES256GCM.Box(ciphertext: box.ciphertext, tag: flipped(box.tag, at: index))
            #expect(AES256GCM.open(changed, key: key, nonce: nonce, authenticating: data) == nil)
        }
        let shortTag = AES256GCM.Box(ciphertext: box.ciphertext, tag: Array(box.tag.prefix(12)))
        #expect(AES256GCM.open(shortTag, key: key, nonce: nonce, authenticating: data) == nil)
        #expect(AES256GCM.open(box, key: key, nonce: nonce, authenticating: data) != nil)
        #expect(throws: StoreError.self) { try AES256GCM.seal([1], key: [1, 2], nonce: nonce, authenticating: []) }
        #expect(throws: StoreError.self) { try AES256GCM.seal([1], key: key, nonce: [1, 2, 3], authenticating: []) }
    }
}

@Suite struct SealingTests {
    @Test func sealedValuesOpenOnlyWithTheSameKeyAndContext() throws {
        let hasher = try SecretHasher.ephemeral()
        let text = #""result":{"secureToken":"4d3045f8e4111e63ec5e515afdf42e803f3ba60f"}"#
        let sealed = try hasher.seal(text, context: "a")
        #expect(sealed.hasPrefix(SecretHasher.sealPrefix))
        #expect(SecretHasher.isSealedInCurrentFormat(sealed))
        // Prefix, then hex of a 12-byte nonce, the ciphertext and a 16-byte tag.
        #expect(sealed.count == SecretHasher.sealPrefix.count + 2 * (12 + text.utf8.count + 16))
        #expect(!sealed.contains("4d3045f8"))
        #expect(hasher.unseal(sealed, context: "a") == text)
        #expect(hasher.unseal(sealed, context: "b") == nil)
        #expect(try SecretHasher.ephemeral().unseal(sealed, context: "a") == nil)
        #expect(try hasher.seal(text, context: "a") != sealed)  // a fresh nonce every time
        #expect(hasher.unseal("not hex", context: "a") == nil)
        #expect(hasher.unseal(String(sealed.dropFirst(SecretHasher.sealPrefix.count)), context: "a") == nil)
        #expect(hasher.unseal(String(sealed.prefix(SecretHasher.sealPrefix.count + 2 * 27)), context: "a") == nil)
        #expect(hasher.unseal(try hasher.seal("", context: "a"), context: "a") == "")
    }

    @Test("a changed character anywhere in nonce, ciphertext or tag opens nothing")
    func tampering() throws {
        let hasher = try SecretHasher.ephemeral()
        let sealed = Array(try hasher.seal("secret answer", context: "a").utf8)
        let prefix = SecretHasher.sealPrefix.utf8.count
        for index in prefix..<sealed.count {
            var tampered = sealed
            tampered[index] = tampered[index] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            #expect(hasher.unseal(String(decoding: tampered, as: UTF8.self), context: "a") == nil, "changed at \(index)")
        }
    }
}
