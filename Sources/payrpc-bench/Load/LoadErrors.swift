/// Everything that went wrong during one load run; any non-zero count makes the exit code 1.
struct LoadErrors: Codable, Equatable {
    /// Responses with an `error` member (other than the scenario's expected error code).
    var errorResponses = 0
    /// Responses with a `result` where the scenario expects an error (a wrong PIN that was accepted).
    var unexpectedResults = 0
    /// Responses whose id matches no request in flight (or is not one of ours).
    var unmatchedIDs = 0
    /// Responses with neither `result` nor `error` (when not measuring the echoing ceiling).
    var missingResults = 0
    /// Lines that are not a JSON object or an array of objects.
    var malformedLines = 0
    /// Requests still unanswered when the run ended (after the drain timeout).
    var unanswered = 0
    /// Connections the server closed (or that broke) before the end of the run.
    var closedConnections = 0

    /// The sum of all counts.
    var total: Int {
        errorResponses + unexpectedResults + unmatchedIDs + missingResults + malformedLines + unanswered + closedConnections
    }
}
