/// Finds `$ref` loops that never move into the value (`{"$ref": "#"}`, or `allOf: [{"$ref": "#"}]`),
/// which would make validation recurse forever, and reports them as compile errors.
///
/// A loop that passes through `items`, `properties` and the like is fine: each turn moves one
/// level into the value, and parsed values have bounded depth.
struct SchemaCycleCheck {
    let nodes: [SchemaNode]
    let pointers: [String]

    /// The nodes validated against the same value as `node`.
    private func sameValueChildren(_ node: SchemaNode) -> [NodeID] {
        switch node {
        case .always: return []
        case .reference(let target): return [target]
        case .checks(let checks):
            var children: [NodeID] = []
            for check in checks {
                switch check {
                case .allOf(let ids), .anyOf(let ids), .oneOf(let ids): children += ids
                case .not(let id): children.append(id)
                case .conditional(let condition, let then, let otherwise):
                    children.append(condition)
                    if let then { children.append(then) }
                    if let otherwise { children.append(otherwise) }
                case .dependencies(let entries):
                    for entry in entries { if case .schema(let id) = entry.dependency { children.append(id) } }
                default: break
                }
            }
            return children
        }
    }

    /// Throws for the first loop found.
    func run() throws(SchemaCompileError) {
        // 0 unvisited, 1 on the current path, 2 done. Iterative, so deep schemas cannot overflow the stack.
        var state = [UInt8](repeating: 0, count: nodes.count)
        for start in nodes.indices where state[start] == 0 {
            var stack: [(node: NodeID, children: [NodeID], next: Int)] = [(start, sameValueChildren(nodes[start]), 0)]
            state[start] = 1
            while !stack.isEmpty {
                let top = stack.count - 1
                if stack[top].next < stack[top].children.count {
                    let child = stack[top].children[stack[top].next]
                    stack[top].next += 1
                    switch state[child] {
                    case 0:
                        state[child] = 1
                        stack.append((child, sameValueChildren(nodes[child]), 0))
                    case 1:
                        throw SchemaCompileError(
                            pointer: pointers[child],
                            message: "$ref loop: this schema refers back to itself without descending into the value")
                    default:
                        break
                    }
                } else {
                    state[stack[top].node] = 2
                    stack.removeLast()
                }
            }
        }
    }
}
