import ArgumentParser
import Foundation
import Logging
import PayRPCCore
import PayRPCGateway
import PayRPCJSON
import PayRPCSchema
import PayRPCSQLite

/// `payrpc validate`: checks JSON-RPC traffic against the methods' schemas, or any JSON against
/// one schema.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate NDJSON JSON-RPC traffic (or any JSON lines) against the schemas.",
        discussion: """
            Reads lines from the files given, or stdin. Without --schema, each line is a JSON-RPC \
            message: a request's or notification's params are checked against its method, a \
            response's result against the method of the request with the same id seen before it, \
            and a server notification against its payload schema. With --schema FILE, each line \
            is checked against that schema. Exit status: 0 all valid, 1 some invalid, 2 usage \
            error, unreadable schema, or input that is not JSON.
            """
    )

    @Argument(help: "NDJSON files to read (default: stdin).")
    var files: [String] = []

    @Option(help: "Validate each line against this JSON Schema (draft-07) instead.")
    var schema: String?

    @Flag(help: "One JSON object per input line on stdout instead of text.")
    var json = false

    @OptionGroup var logging: LoggingOptions

    /// The verdict on one line.
    struct Verdict {
        var line: Int
        var what: String
        var violations: [SchemaViolation]
    }

    func run() throws {
        let logger = logging.makeLogger()
        var lines: [(Int, String)] = []
        do {
            lines = try readInput()
        } catch {
            FileHandle.standardError.write(Data("payrpc validate: \(error)\n".utf8))
            throw ExitCode(2)
        }
        var verdicts: [Verdict] = []
        if let schema {
            let compiled: CompiledSchema
            do {
                let text = try String(contentsOfFile: schema, encoding: .utf8)
                compiled = try CompiledSchema(try JSONValue(parsing: text))
            } catch {
                FileHandle.standardError.write(Data("payrpc validate: cannot use the schema \(schema): \(error)\n".utf8))
                throw ExitCode(2)
            }
            for (number, line) in lines {
                let tape = try parse(line, number: number)
                verdicts.append(Verdict(line: number, what: "value", violations: tape.withRoot { compiled.validate($0) }))
            }
        } else {
            var configuration = GatewayConfiguration(dataDirectory: FileManager.default.temporaryDirectory)
            configuration.engine.validateResults = true
            var quiet = logger
            quiet.logLevel = .error
            let router = try SchemaExport.describingRouter(configuration: configuration, logger: quiet)
            var pending: [String: String] = [:]
            for (number, line) in lines {
                let tape = try parse(line, number: number)
                verdicts.append(tape.withRoot { check($0, line: number, router: router, pending: &pending) })
            }
        }
        report(verdicts)
        if verdicts.contains(where: { !$0.violations.isEmpty }) { throw ExitCode(1) }
    }

    private func readInput() throws -> [(Int, String)] {
        var texts: [String] = []
        if files.isEmpty {
            texts.append(String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self))
        } else {
            for file in files { texts.append(try String(contentsOfFile: file, encoding: .utf8)) }
        }
        var numbered: [(Int, String)] = []
        var number = 0
        for text in texts {
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                number += 1
                let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty { numbered.append((number, trimmed)) }
            }
        }
        return numbered
    }

    private func parse(_ line: String, number: Int) throws -> JSONTape {
        do {
            return try JSONTape(string: line)
        } catch {
            FileHandle.standardError.write(Data("payrpc validate: line \(number) is not JSON: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    private func check(_ message: JSONElement, line: Int, router: Router, pending: inout [String: String]) -> Verdict {
        func invalid(_ what: String, _ text: String) -> Verdict {
            Verdict(line: line, what: what, violations: [SchemaViolation(pointer: "", keyword: "jsonrpc", message: text)])
        }
        guard message.kind == .object else { return invalid("message", "a JSON-RPC message is an object") }
        guard message.member("jsonrpc")?.stringEquals("2.0") == true else { return invalid("message", "jsonrpc must be \"2.0\"") }
        let id = message.member("id").map { JSONValue($0).jsonText }
        if let method = message.member("method")?.string {
            let params = message.member("params")
            if let id {
                pending[id] = method
                guard let violations = router.paramsViolations(method: method, params: params) else {
                    return invalid("request \(method)", "unknown method \(method)")
                }
                return Verdict(line: line, what: "request \(method)", violations: violations)
            }
            if let params, let violations = router.notificationViolations(name: method, params: params) {
                return Verdict(line: line, what: "notification \(method)", violations: violations)
            }
            guard let violations = router.paramsViolations(method: method, params: params) else {
                return invalid("notification \(method)", "unknown method or notification \(method)")
            }
            return Verdict(line: line, what: "notification \(method)", violations: violations)
        }
        guard let id else { return invalid("message", "neither a request, a notification nor a response") }
        if let error = message.member("error") {
            guard error.kind == .object, error.member("code")?.int64 != nil, error.member("message")?.string != nil else {
                return invalid("error response", "error must be an object with an integer code and a string message")
            }
            pending.removeValue(forKey: id)
            return Verdict(line: line, what: "error response", violations: [])
        }
        guard let result = message.member("result") else { return invalid("response", "a response has result or error") }
        guard let method = pending.removeValue(forKey: id) else {
            return invalid("response", "no request with id \(id) came before this response")
        }
        let violations = router.resultViolations(method: method, result: result) ?? []
        return Verdict(line: line, what: "response \(method)", violations: violations)
    }

    private func report(_ verdicts: [Verdict]) {
        for verdict in verdicts {
            if json {
                let value: JSONValue = .object([
                    .init("line", .int(verdict.line)), .init("message", .string(verdict.what)),
                    .init("valid", .bool(verdict.violations.isEmpty)),
                    .init(
                        "violations",
                        .array(
                            verdict.violations.map {
                                ["pointer": .string($0.pointer), "keyword": .string($0.keyword), "message": .string($0.message)]
                            })),
                ])
                print(value.jsonText)
            } else if verdict.violations.isEmpty {
                print("line \(verdict.line): valid \(verdict.what)")
            } else {
                print("line \(verdict.line): INVALID \(verdict.what)")
                for violation in verdict.violations { print("  \(violation)") }
            }
        }
        if !json {
            let bad = verdicts.filter { !$0.violations.isEmpty }.count
            print("\(verdicts.count) messages, \(bad) invalid")
        }
    }
}
