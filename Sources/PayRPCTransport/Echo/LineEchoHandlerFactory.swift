import PayRPCCore

/// Makes handlers that write every line back followed by `\n`, without parsing it: the ceiling
/// the benchmark compares the JSON-RPC engine against (transport cost only).
public final class LineEchoHandlerFactory: RPCConnectionHandlerFactory {
    /// Creates the factory.
    public init() {}

    /// A new echo handler for `connection`.
    public func makeHandler(for connection: any RPCConnection) -> any RPCConnectionHandler {
        LineEchoHandler(connection: connection)
    }
}

/// Writes each line back; finishes when the input ends.
final class LineEchoHandler: RPCConnectionHandler {
    private unowned let connection: any RPCConnection

    init(connection: any RPCConnection) {
        self.connection = connection
    }

    /// Writes the line back at once: nothing is held.
    func received(line: UnsafeRawBufferPointer) -> Int {
        connection.write(line)
        withUnsafeBytes(of: UInt8(ascii: "\n")) { connection.write($0) }
        return 0
    }

    /// Each line was written back as it came: nothing is gathered.
    func receivedAvailableLines() {}

    func receivedOversizedLine(limit: Int) {}

    func inputEnded() {
        connection.finish()
    }

    func connectionClosed() {}

    var hasWorkInFlight: Bool { false }
}
