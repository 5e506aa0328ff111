import PayRPCStore
import Testing

@Suite("SHA-256, HMAC-SHA256 and PBKDF2 against the official vectors")
struct SecretsVectorTests {
    @Test("SHA-256: FIPS 180-2 \"abc\"")
    func sha256ABC() {
        #expect(Hex.encode(SHA256.hash("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("SHA-256: FIPS 180-2 448-bit message")
    func sha256TwoBlocks() {
        #expect(Hex.encode(SHA256.hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("SHA-256: FIPS 180-2 one million 'a', fed in uneven pieces")
    func sha256MillionA() {
        var hasher = SHA256()
        var fed = 0
        var piece = 1
        while fed < 1_000_000 {
            let count = min(piece, 1_000_000 - fed)
            hasher.update(repeatElement(UInt8(ascii: "a"), count: count))
            fed += count
            piece = piece * 7 % 1_013 + 1
        }
        #expect(Hex.encode(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("SHA-256: empty message and the 55/56/64-byte padding edges")
    func sha256Padding() {
        #expect(Hex.encode(SHA256.hash("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // Values from an independent implementation (Python's hashlib).
        #expect(Hex.encode(SHA256.hash(String(repeating: "a", count: 55)))
            == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(Hex.encode(SHA256.hash(String(repeating: "a", count: 56)))
            == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(Hex.encode(SHA256.hash(String(repeating: "a", count: 64)))
            == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    /// RFC 4231 §4: key, data, HMAC-SHA256 (case 5 is truncated to 128 bits).
    static let hmacCases: [(key: [UInt8], data: [UInt8], mac: String)] = [
        ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (Array(1...25), [UInt8](repeating: 0xcd, count: 50),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        ([UInt8](repeating: 0x0c, count: 20), Array("Test With Truncation".utf8),
         "a3b6167473100ee06e0c796c2955552b"),
        ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        ([UInt8](repeating: 0xaa, count: 131),
         Array(("This is a test using a larger than block-size key and a larger than block-size data. "
             + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test("HMAC-SHA256: RFC 4231 test cases 1-7", arguments: 0..<7)
    func hmac(index: Int) {
        let testCase = Self.hmacCases[index]
        let mac = Hex.encode(HMACSHA256.authenticate(testCase.data, key: testCase.key))
        #expect(mac.hasPrefix(testCase.mac))
        #expect(mac.count == 64)
    }

    @Test("PBKDF2-HMAC-SHA256: RFC 7914 §11, c = 1")
    func pbkdf2One() throws {
        let key = try PBKDF2.deriveKey(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, keyLength: 64)
        #expect(Hex.encode(key) == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
            + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
    }

    @Test("PBKDF2-HMAC-SHA256: RFC 7914 §11, c = 80000")
    func pbkdf2Many() throws {
        let key = try PBKDF2.deriveKey(
            password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80_000, keyLength: 64)
        #expect(Hex.encode(key) == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
            + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")
    }

    @Test("PBKDF2 refuses zero iterations or length")
    func pbkdf2Parameters() {
        #expect(throws: PBKDF2.ParameterError.self) {
            try PBKDF2.deriveKey(password: [1], salt: [2], iterations: 0, keyLength: 32)
        }
        #expect(throws: PBKDF2.ParameterError.self) {
            try PBKDF2.deriveKey(password: [1], salt: [2], iterations: 1, keyLength: 0)
        }
    }
}

@Suite struct SealingTests {
    @Test func sealedValuesOpenOnlyWithTheSameKeyAndContext() {
        let hasher = SecretHasher.ephemeral()
        let text = #""result":{"secureToken":"4d3045f8e4111e63ec5e515afdf42e803f3ba60f"}"#
        let sealed = hasher.seal(text, context: "a")
        #expect(!sealed.contains("4d3045f8"))
        #expect(hasher.unseal(sealed, context: "a") == text)
        #expect(hasher.unseal(sealed, context: "b") == nil)
        #expect(SecretHasher.ephemeral().unseal(sealed, context: "a") == nil)
        #expect(hasher.seal(text, context: "a") != sealed)  // a fresh nonce every time
        var tampered = Array(sealed.utf8)
        tampered[tampered.count - 1] = tampered[tampered.count - 1] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        #expect(hasher.unseal(String(decoding: tampered, as: UTF8.self), context: "a") == nil)
        #expect(hasher.unseal("not hex", context: "a") == nil)
        #expect(hasher.unseal(hasher.seal("", context: "a"), context: "a") == "")
    }
}
