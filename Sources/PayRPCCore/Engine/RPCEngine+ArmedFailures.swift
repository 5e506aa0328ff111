/// `sandbox.failNext` as both faces and every call's task meet it: the one place that reads the
/// failures a tester armed (`sandbox.failNext`, `PayRPCSandbox`) for a call.
///
/// A failure armed for a method answers the profile's next call of it in place of the handler,
/// once. Where it is taken: on an embedded store, on the loop thread before the call runs (the
/// face answers it, after saving when taking it changed what the store keeps); on a store other
/// gateways share, in the call's task under the profile's sandbox lock (``Call/answer()``), so
/// exactly one gateway takes it.
extension RPCEngine {
    /// A failure taken for one call.
    package struct TakenFailure {
        /// What the call answers.
        package let error: RPCError
        /// Whether taking it changed the sandbox state the store keeps: the face answers once that
        /// is saved, so a restart cannot fire it again.
        package let mustBeSaved: Bool
    }

    /// Whether any profile has a failure armed (one atomic read): when none has, a call skips
    /// ``takeArmedFailure(for:profile:)``, and the usual call is answered in one go.
    @inline(__always)
    package var anyFailureArmed: Bool { sandboxActivity.hasArmedFailures }

    /// The failure armed for `profile`'s next call of `method`, taken, when the face answers it
    /// (the method answers inline here, ``answersInline(_:)``); nil when none is armed, or when
    /// the call's task takes it (a shared store: ``takeArmedFailureUnderLock(for:profile:)``).
    package func takeArmedFailure(for method: MethodDescriptor, profile: String) -> TakenFailure? {
        guard anyFailureArmed, answersInline(method) else { return nil }
        return take(method.name, profile: profile)
    }

    /// The failure armed for `profile`'s next call of `method`, taken by the call's task while it
    /// holds the profile's sandbox lock on a shared store (the state just read from the store:
    /// this gateway's count of armed failures may not know of it yet).
    package func takeArmedFailureUnderLock(for method: String, profile: String) -> TakenFailure? {
        take(method, profile: profile)
    }

    private func take(_ method: String, profile: String) -> TakenFailure? {
        let changesBefore = sandboxActivity.changes
        guard let error = sandbox.takeFailure(profile: profile, method: method) else { return nil }
        return TakenFailure(error: error, mustBeSaved: sandboxActivity.changes != changesBefore)
    }
}
