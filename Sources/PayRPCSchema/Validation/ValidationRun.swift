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
