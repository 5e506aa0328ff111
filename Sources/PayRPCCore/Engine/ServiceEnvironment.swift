/// What the engine shares with the services it serves, made before either: the tester's controls
/// (clocks, seeds, armed failures) and the directory of connections services notify a profile
/// through.
public struct ServiceEnvironment: Sendable {
    /// The tester's controls.
    public var sandbox: any SandboxAccess
    /// Every connection that may be served, by profile.
    public var connections: ConnectionDirectory

    /// - Parameters:
    ///   - sandbox: the tester's controls (`PayRPCSandbox`'s `SandboxControls`).
    ///   - connections: the directory of connections (an empty one when not given).
    public init(sandbox: any SandboxAccess, connections: ConnectionDirectory = ConnectionDirectory()) {
        self.sandbox = sandbox
        self.connections = connections
    }
}
