import CodemodKit
import Foundation
import Workspace

/// The `.swiftmod.yml` that `swiftmod init` writes: every bundled codemod that needs no parameter
/// as a migration, one that needs some as a commented example, and what was found in the
/// repository (modules, CODEOWNERS) in comments, with a commented module-types example.
public enum StarterConfiguration {
    public static func text(root: String, definitions: [CodemodDefinition]) -> String {
        var lines = [
            "# swiftmod: the migrations of this repository, locked down in CI and tracked (see docs/configuration.md).",
            "# Each migration locks down the uses of a codemod's pattern: `swiftmod baseline` records today's,",
            "# `swiftmod check` fails on new ones, `swiftmod report` counts what is left per module and team.",
            "migrations:",
        ]
        let ready = definitions.filter { $0.params.allSatisfy { $0.defaultValue != nil } }.sorted { $0.id < $1.id }
        let needingParameters = definitions.filter { !$0.params.allSatisfy { $0.defaultValue != nil } }.sorted { $0.id < $1.id }
        for definition in ready {
            lines.append("  - codemod: \(definition.id)")
            lines.append("    # \(SafeText.oneLine(definition.filled(definition.summary)))")
            lines.append("    priority: P2            # P0 (must, external deadline) … P3 (for your information)")
            lines.append("    # deadline: 2027-03-31")
            lines.append("    # contact: \"#ios-platform\"")
        }
        for definition in needingParameters {
            let required = definition.params.filter { $0.defaultValue == nil }
            lines.append("  # - id: \(definition.id)-example   # \(SafeText.oneLine(definition.filled(definition.summary)))")
            lines.append("  #   codemod: \(definition.id)")
            lines.append("  #   params: { \(required.map { "\($0.name): …" }.joined(separator: ", ")) }")
        }
        if ready.isEmpty { lines.append("  []") }

        let map = ModuleMap.discover(root: root, configuration: nil)
        // Names and folders from the disk stay inside their comment line (a folder name may hold
        // a line break, which would otherwise write YAML of its own).
        let names = map.folders.map { "\(SafeText.oneLine($0.name)) (\($0.path.isEmpty ? "." : SafeText.oneLine($0.path)))" }.sorted()
        lines.append("")
        if names.isEmpty {
            lines.append("# No modules found (SwiftPM targets, folders holding an .xcodeproj): name some to count")
            lines.append("# uses per module, e.g.:")
            lines.append("# modules:")
            lines.append("#   App: [\"App/**\"]")
        } else {
            lines.append("# Modules found (\(names.count)): \(names.prefix(12).joined(separator: ", "))\(names.count > 12 ? ", …" : "").")
            lines.append("# `swiftmod modules` lists them with their dependencies. Module rules, if you want them:")
        }
        lines += [
            "# module-types:                 # a module's type: the first whose patterns match its name or folder",
            "#   Tests:   { modules: [\"*Tests\"] }",
            "#   UI:      { modules: [\"*UI\"] }",
            "#   Service: { modules: [\"*Service\"], may-not-import: [UIKit, SwiftUI] }",
            "#   Logic:   { modules: [\"*Core\"], may-not-depend-on: [UI] }",
            "# rules:",
            "#   - { id: no-cycles, kind: cycles, priority: P1 }",
            "",
        ]
        let owners = CodeOwners.load(root: root)
        if let path = owners.path {
            lines.append("# CODEOWNERS: \(SafeText.oneLine(path)) (\(owners.rules.count) rule\(owners.rules.count == 1 ? "" : "s")): reports count uses per team.")
        } else {
            lines.append("# No CODEOWNERS file (.github/, the root or docs/): reports would count uses per team with one.")
        }
        lines += [
            "",
            "# include: [\"**/*.swift\"]        # the default",
            "# Files excluded here are never judged by `check` (each run names them). Dependency",
            "# checkouts (Pods/ beside a Podfile, Carthage/ beside a Cartfile, .build/) are skipped",
            "# already; exclude only code no team writes, by its own folder, for example:",
            "# exclude: [\"Sources/API/Generated/**\"]",
            "",
        ]
        return lines.joined(separator: "\n")
    }
}
