import PayRPCCore
import Testing
import PayRPCSecrets

/// The comparison the auth token and the store's hashes go through.
struct ConstantTimeTests {
    @Test func equalOnlyWhenEveryByteAndTheLengthMatch() {
        let token = Array("s3cret-token".utf8)
        #expect(ConstantTime.equals(token, token))
        #expect(ConstantTime.equals([], []))
        #expect(!ConstantTime.equals(token, Array("s3cret-tokem".utf8)))
        #expect(!ConstantTime.equals(token, Array("t3cret-token".utf8)))
        #expect(!ConstantTime.equals(token, Array("s3cret-token ".utf8)))
        #expect(!ConstantTime.equals(token, []))
        #expect(!ConstantTime.equals([0], []))
    }
}
