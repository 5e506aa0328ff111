/// What one load run sends and what it takes as an answer: the request repeated under load, the lines
/// each connection sends (and sees answered) before the load starts, and an error code that is the
/// expected answer rather than an error. A built-in scenario declares all of it in one place
/// (``BuiltInScenario/scenario``); `run --request/--method` with `--setup`/`--expect-error` builds one.
struct LoadScenario {
    /// The request line repeated under load; its `"id"` is rewritten per request.
    var requestLine: String
    /// Request lines each connection sends first, one at a time, each answered with a `result` before
    /// the next is sent (and before any measured traffic). Each needs a top-level `"id"`.
    var setupLines: [String] = []
    /// The JSON-RPC error code that answers the request when all goes as intended (a wrong PIN's
    /// -33007): such an answer counts as answered, any other error still counts as an error, and so
    /// does a `result`. Nil: only a `result` is an answer.
    var expectedErrorCode: Int64?
    /// The most lines the server lets one connection have in flight for this request, with the reason
    /// shown when `--depth` asks for more; nil when there is no such limit.
    var depthLimit: (depth: Int, reason: String)?
}
