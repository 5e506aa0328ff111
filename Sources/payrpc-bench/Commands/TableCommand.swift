import ArgumentParser
import Foundation

/// `payrpc-bench table`: turns the `--json` reports of a benchmark run into Markdown tables, each
/// payrpc figure next to the ceiling's from the same run.
struct TableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "table",
        abstract: "Print Markdown tables from --json reports (payrpc vs ceiling, paired by --label).")

    @Argument(help: ArgumentHelp("Report files, one JSON report each.", valueName: "file"))
    var files: [String]

    private struct Kind: Decodable {
        var kind: String
        var target: String
    }

    func run() throws {
        var loads: [LoadReport] = []
        var idles: [IdleReport] = []
        var floods: [FloodReport] = []
        var startups: [StartupReport] = []
        let decoder = JSONDecoder()
        for file in files {
            guard let data = FileManager.default.contents(atPath: file), !data.isEmpty else {
                FileHandle.standardError.write(Data("skipping \(file): empty or unreadable\n".utf8))
                continue
            }
            do {
                switch try decoder.decode(Kind.self, from: data).kind {
                case "load": loads.append(try decoder.decode(LoadReport.self, from: data))
                case "idle": idles.append(try decoder.decode(IdleReport.self, from: data))
                case "flood": floods.append(try decoder.decode(FloodReport.self, from: data))
                case "startup": startups.append(try decoder.decode(StartupReport.self, from: data))
                case let other: throw BenchError("unknown report kind \(other)")
                }
            } catch {
                FileHandle.standardError.write(Data("skipping \(file): \(error)\n".utf8))
            }
        }
        print(MarkdownTables.load(loads))
        if !idles.isEmpty || !floods.isEmpty || !startups.isEmpty {
            print("")
            print(MarkdownTables.resources(idles: idles, floods: floods, startups: startups))
        }
    }
}
