import PayRPCFuzzSupport
import PayRPCJSON
@testable import PayRPCSchema

/// The schema validator over generated schemas and instances. The input is the JSON text
/// `[schema, instance]`; a schema that compiles validates the instance with no crash or hang,
/// the same way twice, and the fast ``CompiledSchema/isValid(_:)`` walk agrees with the
/// collecting walker that reports violations.
@main
enum ValidatorFuzz: FuzzTarget {
    static func fuzz(_ input: UnsafeRawBufferPointer) {
        guard let tape = try? JSONTape(copying: input) else { return }
        tape.withRoot { root in
            guard root.kind == .array, root.count == 2 else { return }
            var pair = root.arrayElements.makeIterator()
            let schemaElement = pair.next()!, instance = pair.next()!
            guard let schema = try? CompiledSchema(JSONValue(schemaElement)) else { return }
            let quick = schema.isValid(instance)
            let violations = schema.validateCollectingOnly(instance)
            fuzzCheck(
                quick == violations.isEmpty,
                "isValid \(quick), collecting walker \(violations) for \(String(decoding: input, as: UTF8.self))")
            fuzzCheck(schema.validate(instance) == violations, "validate differs from the collecting walker")
            fuzzCheck(schema.validate(JSONValue(instance)) == violations, "an owned value validated differently")
            fuzzCheck(schema.isValid(instance) == quick, "isValid changed its answer")
        }
    }
}
