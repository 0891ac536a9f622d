import Foundation
import Testing

/// The README's command-line examples work for a newcomer and print what the README says.
///
/// The rule (written in README.md under "Command line"): every ```` ```sh ```` block of README.md that calls `stockroom`
/// is run, line by line from the top, in a fresh folder (`STOCKROOM_DATA` in it, `stockroom` on the `PATH` being the
/// built executable; `swift run [-c release] stockroom` is read as `stockroom`). Lines that start a server
/// (`stockroom serve`), the benchmark (`stockroom bench`) or a script (`./scripts/…`) are skipped. Every other line
/// must succeed, and a comment ending `→ TEXT` (`# COGS 5 × 2.75 → cost of goods 13.75`) must find TEXT in what that
/// line prints, runs of spaces counting as one.
@Suite struct ReadmeExampleTests {
    struct Line {
        var number: Int
        var command: String
        var expected: String?
    }

    static var root: URL {
        var folder = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { folder.deleteLastPathComponent() }
        return folder
    }

    /// The `sh` blocks that call `stockroom`, as lines to run (skipped lines left out).
    static func blocks(_ markdown: String) -> [[Line]] {
        var blocks: [[Line]] = []
        var current: [Line]?
        var pending = ""
        for (index, raw) in markdown.components(separatedBy: "\n").enumerated() {
            let text = raw.trimmingCharacters(in: .whitespaces)
            if current == nil {
                if text == "```sh" || text == "```bash" || text == "```shell" { current = [] }
                continue
            }
            if text.hasPrefix("```") {
                if let lines = current, lines.contains(where: { $0.command.range(of: #"(^|\s)stockroom\s"#, options: .regularExpression) != nil }) {
                    blocks.append(lines.filter { !Self.skipped($0.command) })
                }
                current = nil
                continue
            }
            if text.hasSuffix("\\") {
                pending += text.dropLast().trimmingCharacters(in: .whitespaces) + " "
                continue
            }
            let whole = pending + text
            pending = ""
            guard !whole.isEmpty, !whole.hasPrefix("#") else { continue }
            let command = whole.replacingOccurrences(of: #"swift run (-c release )?stockroom"#, with: "stockroom", options: .regularExpression)
            var expected: String?
            if let hash = command.range(of: " #"), let arrow = command.range(of: "→", options: .backwards), arrow.lowerBound > hash.lowerBound {
                expected = String(command[arrow.upperBound...]).trimmingCharacters(in: .whitespaces)
            }
            current?.append(Line(number: index + 1, command: command, expected: expected))
        }
        return blocks
    }

    static func skipped(_ command: String) -> Bool {
        command.hasPrefix("./scripts/") || command.range(of: #"^stockroom\s+(serve|bench)\b"#, options: .regularExpression) != nil
    }

    static func collapsed(_ text: String) -> String {
        text.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
    }

    @Test func everyCommandLineExampleRunsAndPrintsWhatTheReadmeSays() throws {
        let binary = try #require(ServeProcessTests.executable, "build the stockroom executable first (swift build --build-tests)")
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = Self.blocks(readme)
        #expect(blocks.contains { $0.count >= 10 }, "the README's command-line walkthrough is missing")
        var checked = 0
        for lines in blocks where !lines.isEmpty {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-readme-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let bin = folder.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("stockroom"), withDestinationURL: binary)
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["STOCKROOM_DATA"] = folder.appendingPathComponent("data").path
            for line in lines {
                let (status, printed) = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", line.command], in: folder, environment: environment)
                #expect(status == 0, "README.md:\(line.number): `\(line.command)` failed (\(status)):\n\(printed)")
                guard status == 0 else { return }  // later lines build on this one
                if let expected = line.expected {
                    #expect(Self.collapsed(printed).contains(Self.collapsed(expected)),
                            "README.md:\(line.number): `\(line.command)` should print '\(expected)'; it printed:\n\(printed)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 5, "the README promises too few outputs to check (\(checked))")
    }

    @Test func theRuleReadsBlocksCommentsAndSkips() {
        let markdown = """
            ```sh
            swift run -c release stockroom serve --demo       # serves
            ./scripts/test.sh
            ```
            ```sh
            stockroom init --shop-name "A #1"   # a shop → ready
            stockroom bench
            # a comment line
            stockroom purchase add \\
              --line "X:1@2.00"                 # 1 × 2.00 → average cost 2.00
            ```
            ```json
            {"stockroom": 1}
            ```
            """
        let blocks = Self.blocks(markdown)
        #expect(blocks.count == 2)
        #expect(blocks.first?.isEmpty == true)
        #expect(blocks.last?.map(\.command.description).count == 2)
        #expect(blocks.last?.first?.expected == "ready")
        #expect(blocks.last?.last?.expected == "average cost 2.00")
        #expect(blocks.last?.last?.command.hasPrefix(#"stockroom purchase add --line "X:1@2.00""#) == true)
    }
}
