import PayRPCCore
import PayRPCJSON

/// What `sandbox.calls.verify` (or a wait) expects of a journal: how many entries match, or a
/// sequence of matches in the order the entries arrived; checked against a snapshot, a failure
/// says how many matched and which entries came nearest.
struct CallExpectation {
    /// How many entries must match.
    enum Bound {
        case exactly(Int)
        case range(atLeast: Int?, atMost: Int?)

        static func atLeast(_ count: Int) -> Bound { .range(atLeast: count, atMost: nil) }

        func holds(_ count: Int) -> Bool {
            switch self {
            case .exactly(let times): count == times
            case .range(let least, let most): count >= (least ?? 0) && count <= (most ?? .max)
            }
        }

        var text: String {
            switch self {
            case .exactly(let times): "exactly \(times)"
            case .range(let least?, let most?): "between \(least) and \(most)"
            case .range(let least?, nil): "at least \(least)"
            case .range(nil, let most?): "at most \(most)"
            case .range(nil, nil): "any number of"
            }
        }
    }

    /// The outcome of a check.
    enum Outcome {
        /// It held: the ids of the matching entries (of each step, for a sequence).
        case held([String])
        case failed(CallVerificationFailure)
    }

    let matcher: CallMatcher?
    let bound: Bound
    let sequence: [CallMatcher]?
    /// What the message names (the method matched), if anything.
    let subject: String?

    /// A count expectation.
    init(matcher: CallMatcher, bound: Bound, subject: String?) {
        self.matcher = matcher
        self.bound = bound
        self.sequence = nil
        self.subject = subject
    }

    /// The expectation `params` state.
    /// - Throws: invalid params (-32602) naming the pointer of what does not go together.
    init(_ params: CallVerifyParams, router: Router?) throws(RPCError) {
        if let sequence = params.sequence {
            guard params.match == nil else {
                throw CallMatcher.invalid("/sequence", "give match or sequence, not both", keyword: "oneOf")
            }
            for (name, value) in [("times", params.times), ("atLeast", params.atLeast), ("atMost", params.atMost)]
            where value != nil {
                throw CallMatcher.invalid("/\(name)", "\(name) counts a match; a sequence takes none", keyword: "dependencies")
            }
            var steps: [CallMatcher] = []
            for (index, step) in sequence.enumerated() {
                steps.append(try CallMatcher(step, at: "/sequence/\(index)", router: router))
            }
            self.matcher = nil
            self.sequence = steps
            self.bound = .exactly(steps.count)
            self.subject = nil
            return
        }
        guard let match = params.match else {
            throw CallMatcher.invalid("", "give match (with times, atLeast or atMost) or sequence", keyword: "required")
        }
        self.matcher = try CallMatcher(match, at: "/match", router: router)
        self.sequence = nil
        self.subject = match.method
        if let times = params.times {
            guard params.atLeast == nil, params.atMost == nil else {
                throw CallMatcher.invalid("/times", "times is exact: give it alone, or atLeast and atMost", keyword: "oneOf")
            }
            self.bound = .exactly(times)
        } else if params.atLeast != nil || params.atMost != nil {
            if let least = params.atLeast, let most = params.atMost, least > most {
                throw CallMatcher.invalid("/atLeast", "atLeast (\(least)) is more than atMost (\(most))", keyword: "maximum")
            }
            self.bound = .range(atLeast: params.atLeast, atMost: params.atMost)
        } else {
            self.bound = .exactly(1)
        }
    }

    /// Checks the journal's entries (oldest first).
    func check(_ entries: [CallEntry]) -> Outcome {
        if let sequence { return checkSequence(sequence, entries) }
        guard let matcher else { return .held([]) }
        var matched: [String] = []
        var misses: [(distance: Int, index: Int, miss: CallMiss)] = []
        for (index, entry) in entries.enumerated() {
            let differences = matcher.differences(entry)
            if differences.isEmpty {
                matched.append(entry.id)
            } else {
                misses.append(
                    (
                        CallMatcher.distance(differences), index,
                        CallMiss(entry: entry.id, method: entry.method, differences: differences)
                    ))
            }
        }
        if bound.holds(matched.count) { return .held(matched) }
        return .failed(
            CallVerificationFailure(
                expected: bound.text, matched: matched.count, entries: matched.isEmpty ? nil : Array(matched.prefix(20)),
                nearestMisses: Self.nearest(misses)))
    }

    /// A sequence: an entry for each step, each arriving after the previous step's (by sandbox time
    /// of arrival, then journal order).
    private func checkSequence(_ steps: [CallMatcher], _ entries: [CallEntry]) -> Outcome {
        let ordered = entries.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        var found: [String] = []
        var from = 0
        for (step, matcher) in steps.enumerated() {
            var misses: [(distance: Int, index: Int, miss: CallMiss)] = []
            var hit: Int?
            for index in from..<ordered.count {
                let entry = ordered[index]
                let differences = matcher.differences(entry)
                if differences.isEmpty {
                    hit = index
                    break
                }
                misses.append(
                    (
                        CallMatcher.distance(differences), index,
                        CallMiss(entry: entry.id, method: entry.method, differences: differences)
                    ))
            }
            guard let hit else {
                return .failed(
                    CallVerificationFailure(
                        expected: "step \(step + 1) of \(steps.count) of the sequence\(matcher.method.map { " (\($0))" } ?? "")",
                        matched: step, step: step, entries: found.isEmpty ? nil : found, nearestMisses: Self.nearest(misses)))
            }
            found.append(ordered[hit].id)
            from = hit + 1
        }
        return .held(found)
    }

    /// The three nearest misses, nearest first (among equals, the latest).
    private static func nearest(_ misses: [(distance: Int, index: Int, miss: CallMiss)]) -> [CallMiss] {
        misses.sorted { ($0.distance, -$0.index) < ($1.distance, -$1.index) }.prefix(3).map(\.miss)
    }
}

extension CallVerificationFailure {
    /// The failure in one sentence, naming where the nearest miss differed.
    func summary(_ subject: String?) -> String {
        var text: String
        if let step {
            text = "no entry matched \(expected) after the \(step) step(s) before it"
        } else {
            text = "expected \(expected) \(subject.map { "\($0) entries" } ?? "entries") matching, found \(matched)"
        }
        if let miss = nearestMisses.first {
            let places = miss.differences.prefix(3).map { difference in
                "\(difference.pointer) (expected \(difference.expected), found \(difference.actual?.jsonText ?? "nothing"))"
            }
            text +=
                "; the nearest miss, \(miss.entry)\(miss.method.map { " (\($0))" } ?? ""), differs at "
                + places.joined(separator: ", ")
        }
        return text
    }
}
