import Foundation

/// The Markdown tables of `payrpc-bench table`.
enum MarkdownTables {
    /// One row per scenario label, in first-seen order: payrpc's figures, its fraction of the ceiling's
    /// requests/s, its CPU per request as a multiple of the ceiling's; then the ceiling's own rows.
    static func load(_ reports: [LoadReport]) -> String {
        var labels: [String] = []
        for report in reports where !labels.contains(report.label) { labels.append(report.label) }
        let payrpc = Dictionary(reports.filter { $0.target == "payrpc" }.map { ($0.label, $0) }, uniquingKeysWith: { $1 })
        let ceiling = Dictionary(reports.filter { $0.target == "ceiling" }.map { ($0.label, $0) }, uniquingKeysWith: { $1 })
        var lines = [
            "| scenario | req/s | p50 µs | p99 µs | p99.9 µs | server µs CPU/req | req/s ÷ ceiling | CPU/req ÷ ceiling | peak RSS | errors |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for label in labels {
            guard let r = payrpc[label] else {
                lines.append("| \(label) | no report (payrpc failed to start or crashed) | | | | | | | | |")
                continue
            }
            let c = ceiling[label]
            let share =
                c.flatMap { c in
                    c.requestsPerSecond > 0
                        ? "\(Format.number(100 * r.requestsPerSecond / c.requestsPerSecond, digits: 0)) %" : nil
                } ?? "–"
            let cpuRatio: String
            if let mine = r.serverCPUMicrosecondsPerRequest, let theirs = c?.serverCPUMicrosecondsPerRequest, theirs > 0 {
                cpuRatio = "\(Format.number(mine / theirs, digits: 1))×"
            } else {
                cpuRatio = "–"
            }
            lines.append(row(r, extra: [share, cpuRatio]))
        }
        let ceilingRows = labels.compactMap { ceiling[$0] }
        if !ceilingRows.isEmpty {
            lines.append("")
            lines.append("Ceiling (the same libuv transport echoing each line), same run:")
            lines.append("")
            lines.append("| scenario | req/s | p50 µs | p99 µs | p99.9 µs | server µs CPU/req | peak RSS | errors |")
            lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
            for c in ceilingRows { lines.append(row(c, extra: [])) }
        }
        let failing = reports.filter { $0.errorCount > 0 }
        if !failing.isEmpty {
            lines.append("")
            lines.append("Errors:")
            lines.append("")
            for r in failing {
                var text = "- \(r.label) (\(r.target)): \(r.errorCount)"
                if let line = r.firstErrorLine { text += "; first: `\(line.replacingOccurrences(of: "`", with: "'"))`" }
                lines.append(text)
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func row(_ r: LoadReport, extra: [String]) -> String {
        let l = r.latencyMicroseconds
        var cells = [
            r.label, Format.number(r.requestsPerSecond, digits: 0), Format.number(l.p50), Format.number(l.p99),
            Format.number(l.p999), r.serverCPUMicrosecondsPerRequest.map { Format.number($0, digits: 2) } ?? "–",
        ]
        cells += extra
        cells.append(r.serverPeakRSSBytes.map(Format.mebibytes) ?? "–")
        cells.append(String(r.errorCount))
        return "| " + cells.joined(separator: " | ") + " |"
    }

    /// Idle connections, flood and start-up, payrpc next to the ceiling.
    static func resources(idles: [IdleReport], floods: [FloodReport], startups: [StartupReport]) -> String {
        var lines = ["| scenario | payrpc | ceiling |", "|---|---|---|"]
        func pair<T>(_ items: [T], label: (T) -> String, target: (T) -> String, cell: (T) -> String) {
            var labels: [String] = []
            for item in items where !labels.contains(label(item)) { labels.append(label(item)) }
            for name in labels {
                let mine = items.first { label($0) == name && target($0) == "payrpc" }.map(cell) ?? "–"
                let theirs = items.first { label($0) == name && target($0) == "ceiling" }.map(cell) ?? "–"
                lines.append("| \(name) | \(mine) | \(theirs) |")
            }
        }
        pair(idles, label: { $0.label }, target: { $0.target }) { r in
            var text = "\(Format.number(r.bytesPerConnection / 1024, digits: 1)) KiB/conn idle"
            if let after = r.bytesPerConnectionAfterRequest {
                text += ", \(Format.number(after / 1024, digits: 1)) KiB after a request"
            }
            text += " (\(r.opened) open, \(r.errorCount) errors)"
            return text
        }
        pair(floods, label: { $0.label }, target: { $0.target }) { r in
            "peak RSS +\(Format.number(Double(r.peakRSSGrowthBytes) / 1_048_576)) MiB; \(r.requestsWritten) written"
                + (r.stalled ? ", then backpressure" : "")
                + (r.otherConnectionServed == false ? ", OTHER CLIENT NOT SERVED" : "")
        }
        pair(startups, label: { $0.label }, target: { $0.target }) { r in
            "median \(Format.number(r.medianMilliseconds)) ms, p90 \(Format.number(r.p90Milliseconds)) ms"
                + (r.failures > 0 ? " (\(r.failures) failed)" : "")
        }
        return lines.joined(separator: "\n")
    }
}
