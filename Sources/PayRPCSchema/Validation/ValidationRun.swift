import PayRPCJSON

/// The state of one validation: where in the value it is, and what it found.
///
/// The path is a stack of steps into the value, turned into a JSON Pointer only when a
/// violation is reported, so a valid value costs no string building.
struct ValidationRun {
    /// One step into the value.
    enum Step {
        case index(Int)
        case key(JSONElement)
    }

    /// Whether violations are recorded; false for `isValid` and inside `anyOf`/`oneOf`/`not`/
    /// `if`/`contains` probes, where the first failure decides.
    var collect: Bool
    var path: [Step] = []
    var violations: [SchemaViolation] = []

    init(collect: Bool) {
        self.collect = collect
    }

    /// Steps into a member or item. The path is only kept while collecting (nothing reads it
    /// otherwise), so `isValid` never grows it; pass the result to ``leave(_:)``.
    mutating func enter(_ step: Step) -> Bool {
        guard collect else { return false }
        path.append(step)
        return true
    }

    /// Steps back out of what ``enter(_:)`` stepped into.
    mutating func leave(_ entered: Bool) {
        if entered { path.removeLast() }
    }

    /// Records a violation at the current path (when collecting) and returns false.
    mutating func fail(_ keyword: String, _ message: @autoclosure () -> String) -> Bool {
        if collect { violations.append(SchemaViolation(pointer: pointer, keyword: keyword, message: message())) }
        return false
    }

    /// The current path as a JSON Pointer.
    var pointer: String {
        var text = ""
        for step in path {
            switch step {
            case .index(let position): text += "/" + String(position)
            case .key(let name): text += "/" + JSONPointer.escape(name.string ?? "")
            }
        }
        return text
    }
}
