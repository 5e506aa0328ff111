/// What the engine shares with the services it serves, made before either: the tester's controls
/// (clocks, seeds, armed failures) and the directory of connections services notify a profile
/// through.
public struct ServiceEnvironment: Sendable {
    /// The tester's controls.
    public var sandbox: SandboxControls
    /// Every connection that may be served, by profile.
    public var connections: ConnectionDirectory

    /// - Parameters:
    ///   - sandbox: the tester's controls (in memory, unseeded, when not given).
    ///   - connections: the directory of connections (an empty one when not given).
    public init(sandbox: SandboxControls = SandboxControls(), connections: ConnectionDirectory = ConnectionDirectory()) {
        self.sandbox = sandbox
        self.connections = connections
    }
}
