/// A failure of the bench itself (cannot connect, cannot spawn, bad `/proc` data), with a message
/// for the operator. Errors of the server under test are counted, not thrown.
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong, in one line.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
