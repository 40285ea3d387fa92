import CodemodKit

/// A catalog of codemods as a Markdown page (`swiftmod list --format markdown`), like SwiftLint's
/// rule directory: each codemod's summary, why, what replaces it, its parameters, and its own
/// examples (where a use is reported marked `↓`, the code left alone, and before and after a fix).
/// `docs/codemods.md` is the bundled codemods' page; a test fails when it is stale.
struct CatalogPage {
    let definitions: [CodemodDefinition]

    /// The command that writes the bundled codemods' page.
    static let command = "swiftmod list --format markdown > docs/codemods.md"

    var text: String {
        var lines = [
            "# Bundled codemods",
            "",
            "<!-- Generated from Codemods/*.yml by `\(Self.command)`; a test fails when it is stale. -->",
            "",
            "Every codemod compiled into `swiftmod`, from its definition in `Codemods/` (each is also a",
            "worked example for [writing your own](writing-codemods.md)). `swiftmod list` shows the same,",
            "`swiftmod test` runs every example below. Run one with `swiftmod run ID PATH` (a dry run; see",
            "[running a migration](running-migrations.md)), or lock it down with a `migrations:` entry of",
            "`.swiftmod.yml` ([the lock-down](lockdown.md)).",
            "",
            "| id | rewrites | summary |",
            "| --- | --- | --- |",
        ]
        for definition in definitions {
            lines.append("| [`\(definition.id)`](#\(definition.id)) | \(definition.rewrites ? "yes" : "no") | \(Self.cell(definition.filled(definition.summary))) |")
        }
        for definition in definitions { lines += section(definition) }
        return lines.joined(separator: "\n") + "\n"
    }

    private func section(_ definition: CodemodDefinition) -> [String] {
        var lines = ["", "## \(definition.id)", "", definition.filled(definition.summary), ""]
        if !definition.why.isEmpty { lines += ["**Why.** " + definition.filled(definition.why), ""] }
        if let replacement = definition.replacement { lines += ["**Instead.** " + definition.filled(replacement), ""] }
        lines += ["**Rewrites:** " + (definition.rewrites ? "yes." : "no: it finds uses, for the lock-down and the tracker."), ""]
        if let docs = definition.docs { lines += ["**Read more:** <\(docs)>", ""] }
        if let base = definition.extends { lines += ["**Applies** [`\(base)`](#\(base)) with its parameters set.", ""] }
        if !definition.params.isEmpty {
            lines += ["| parameter | default | meaning |", "| --- | --- | --- |"]
            for parameter in definition.params {
                let value = parameter.defaultValue.map { $0.isEmpty ? "optional" : "`\($0)`" } ?? "required"
                lines.append("| `\(parameter.name)` | \(value) | \(Self.cell(parameter.summary)) |")
            }
            lines.append("")
        }
        if !definition.matchExamples.isEmpty {
            lines += ["**Triggers** (`↓` marks where a use is reported):", ""]
            for example in definition.matchExamples { lines += Self.code(example.code, params: example.params) }
        }
        if !definition.noMatchExamples.isEmpty {
            lines += ["**Does not trigger:**", ""]
            for example in definition.noMatchExamples { lines += Self.code(example.code, params: example.params) }
        }
        if !definition.fixExamples.isEmpty {
            lines += ["**Corrected:**", ""]
            for example in definition.fixExamples {
                lines += Self.code(example.before, params: example.params, label: "Before")
                lines += Self.code(example.after, params: [:], label: "After")
            }
        }
        return lines
    }

    /// A fenced Swift block, with the example's parameters and an optional label above it.
    private static func code(_ code: String, params: [String: String], label: String? = nil) -> [String] {
        var lines: [String] = []
        let given = params.sorted { $0.key < $1.key }.map { "`--param \($0.key)=\($0.value)`" }
        if let label { lines.append(given.isEmpty ? "\(label):" : "\(label) (with \(given.joined(separator: " ")))") }
        else if !given.isEmpty { lines.append("With \(given.joined(separator: " ")):") }
        if !lines.isEmpty { lines.append("") }
        // A fence longer than any run of backticks in the code.
        var fence = "```"
        while code.contains(fence) { fence += "`" }
        let body = code.hasSuffix("\n") ? String(code.dropLast()) : code
        return lines + [fence + "swift", body, fence, ""]
    }

    /// Text for a table cell: one line, pipes escaped.
    private static func cell(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ").replacingOccurrences(of: "|", with: "\\|")
    }
}
