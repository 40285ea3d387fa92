import Workspace

/// A codemod as written in a definition file (`Codemods/*.yml`): what it matches, how it
/// rewrites, why, and the examples that prove it.
public struct CodemodDefinition: Sendable {
    /// A declared parameter, such as `from` and `to` of `swap-type`.
    public struct Parameter: Sendable, Equatable {
        public var name: String
        public var summary: String
        /// The value when none is given; nil makes the parameter required.
        public var defaultValue: String?
        /// The values allowed, if the definition lists them.
        public var choices: [String]?
        /// A regular expression every value must match in full, if given.
        public var pattern: String?
        /// What the value names in Swift, if the definition says (`kind: identifier`).
        public var kind: ValueKind? = nil
    }

    /// What a parameter's value must be in Swift code, beyond its pattern. The default value is
    /// always accepted (`backtick-self`'s `binding` defaults to `self`).
    public enum ValueKind: String, Sendable, Equatable, CaseIterable {
        /// One identifier that is not a keyword (`WKWebView`, not `class`, `in`, `self` or `_`).
        case identifier
        /// Identifiers joined by dots (`NetKit.Client`), none a keyword.
        case qualifiedIdentifier = "qualified-identifier"

        /// Why a value is not of this kind, or nil when it is.
        public func problem(with value: String) -> String? {
            let parts = self == .identifier ? [Substring(value)] : value.split(separator: ".", omittingEmptySubsequences: false)
            for part in parts {
                guard let first = part.unicodeScalars.first,
                      first == "_" || first.properties.isXIDStart,
                      part.unicodeScalars.allSatisfy({ $0 == "_" || $0.properties.isXIDContinue }) else {
                    return self == .identifier ? "must be a Swift identifier" : "must be Swift identifiers joined by dots"
                }
                if SwiftKeywords.reserved.contains(String(part)) {
                    return "must not be the Swift keyword '\(part)'"
                }
            }
            return nil
        }
    }

    /// A condition on a capture beyond what query predicates say.
    public struct Constraint: Sendable, Equatable {
        public var capture: String
        /// Node kinds one of which must enclose the capture.
        public var inside: [String] = []
        /// Node kinds none of which may enclose the capture.
        public var notInside: [String] = []
        /// A regular expression the capture's text must match (in part).
        public var matches: String?
        /// A regular expression the capture's text must not match.
        public var notMatches: String?
        /// The most direct children of a kind the captured node may have (`pattern: 1` keeps
        /// `var a: A, b: B` out).
        public var atMost: [String: Int] = [:]
        /// When set, a match that fails this constraint (but passes those without a note) is not a
        /// use, and this note says why it was left alone. `{{capture}}` and `{{param}}` holes.
        public var note: Template?
    }

    /// One rewrite step.
    public enum RewriteStep: Sendable, Equatable {
        /// Replace a capture's text with a template (empty removes it tidily).
        case replace(capture: String, with: Template)
        /// Run a built-in action for what a template cannot express.
        case action(name: String)
    }

    /// An example that must (or must not) match.
    public struct Example: Sendable, Equatable {
        public var code: String
        public var params: [String: String]
        /// 1-based line of the example in the definition file.
        public var line: Int
        /// For a `no-match` example: text that a note about the code must contain (the reason it
        /// is left alone).
        public var note: String? = nil
    }

    /// A before/after pair.
    public struct FixExample: Sendable, Equatable {
        public var before: String
        public var after: String
        public var params: [String: String]
        public var line: Int
    }

    public var id: String
    public var summary: String
    /// Why the pattern is deprecated.
    public var why: String
    /// What replaces it, in a sentence or a snippet.
    public var replacement: String?
    /// Where to read more.
    public var docs: String?
    public var params: [Parameter]
    /// The tree-sitter query; `{{param}}` holes are filled before it is compiled.
    public var query: String
    /// The capture that locates each use (its position is what `scan` reports).
    public var useCapture: String?
    public var constraints: [Constraint]
    /// The rewrite; empty for a codemod that only finds (tracks and locks down).
    public var rewrite: [RewriteStep]
    /// Literal text every match must contain (with `{{param}}` holes): files without it are
    /// skipped without parsing. Nil means no prefilter.
    public var requires: String?
    public var matchExamples: [Example]
    public var noMatchExamples: [Example]
    public var fixExamples: [FixExample]
    /// Where the definition was read from (a path, or `<bundled>/id.yml`).
    public var origin: String
    /// For a params-only definition: the codemod it applies (`extends: swap-type`), whose match and
    /// rewrite it takes; `fixedParams` (its `with:`) become that codemod's parameter defaults.
    public var extends: String?
    public var fixedParams: [String: String] = [:]
    /// For an ast-grep rule file: the rule, in place of `query`, `constraints` and `rewrite`.
    public var patternRule: PatternRule? = nil
    /// For an ast-grep rule file: the files it applies to (`files:`) and those it skips
    /// (`ignores:`), as repository-relative globs; empty means no limit.
    /// Why a rule of a folder is loaded but not run (`severity: off`, or a rule for another
    /// language in a project of several), as "has severity: off"; nil for a rule that runs.
    public var leftOut: String? = nil
    public var files: [Glob] = []
    public var ignores: [Glob] = []
    /// The text the definition was read from (with the utility rules it may use), for cache keys
    /// of definitions that have no query.
    public var ruleText: String = ""

    /// Whether the codemod can rewrite what it finds.
    public var rewrites: Bool { patternRule.map { $0.fix != nil } ?? !rewrite.isEmpty }

    /// Whether the definition's `files:`/`ignores:` let it look at a repository-relative path.
    public func applies(to relativePath: String) -> Bool {
        if !files.isEmpty, !files.contains(where: { $0.matches(relativePath) }) { return false }
        return !ignores.contains { $0.matches(relativePath) }
    }

    /// A text of the definition (summary, why, replacement) with its `{{param}}` holes filled:
    /// from `params`, else from the defaults, else with the parameter's name in capitals.
    public func filled(_ text: String, params: [String: String] = [:]) -> String {
        Template(text).render { name in
            if let value = params[name], !value.isEmpty { return value }
            if let value = self.params.first(where: { $0.name == name })?.defaultValue, !value.isEmpty { return value }
            return name.uppercased()
        }
    }
}

/// Swift's keywords that cannot name a type or a variable without backticks (contextual ones
/// such as `open`, `async` or `get` can).
public enum SwiftKeywords {
    public static let reserved: Set<String> = [
        "_", "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as",
        "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        // Contextual, but as a type they break the code: `var web: some?`, `-> any`.
        "some", "any",
    ]
}
