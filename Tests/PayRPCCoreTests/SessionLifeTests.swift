import Testing

@testable import PayRPCCore

/// The life both faces of a connection share: when it finishes, when reading pauses and resumes.
@Suite struct SessionLifeTests {
    @Test("it never finishes before its input ended, nor while calls are pending, nor twice")
    func finishing() {
        var life = SessionLife()
        let beforeEOF = life.finishes(idle: true)
        life.endInput()
        #expect(!beforeEOF && life.inputHasEnded && !life.finished)
        let busy = life.finishes(idle: false)
        let idle = life.finishes(idle: true)
        let again = life.finishes(idle: true)
        #expect(!busy && idle && !again && life.finished)
    }

    @Test("a closed connection is finished and does not finish again")
    func closing() {
        var life = SessionLife()
        life.close()
        life.endInput()
        let finishes = life.finishes(idle: true)
        #expect(life.finished && !finishes)
    }

    @Test("reading pauses at the limit, once, and resumes below it, once")
    func reading() {
        var life = SessionLife()
        let changes = [(3, 4), (4, 4), (5, 4), (3, 4), (0, 4)].map { life.reading(pending: $0.0, limit: $0.1) }
        #expect(changes == [nil, true, nil, false, nil])
    }
}
