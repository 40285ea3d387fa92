/// What a built-in action needs from the definition that names it (`rewrite: { action: NAME }`):
/// the captures it reads from each query match and the parameters it reads from the codemod's
/// values.
///
/// `DefinitionLoader` checks a definition against the contracts of the actions it names, so a
/// capture spelled wrong (`@nam` for `@name`) or a parameter left undeclared is an error when the
/// definition is loaded, naming the field, rather than a codemod that silently matches nothing.
public struct ActionContract: Sendable, Equatable {
    /// A parameter the action reads.
    public struct Parameter: Sendable, Equatable {
        /// The name definitions declare under `params:` (`from`).
        public var name: String
        /// What the value means, for errors and documentation.
        public var summary: String
        /// The value the action assumes when the definition does not declare the parameter; nil
        /// when the definition must declare it (with or without a default of its own).
        public var defaultValue: String?

        public init(_ name: String, summary: String, default defaultValue: String? = nil) {
            self.name = name
            self.summary = summary
            self.defaultValue = defaultValue
        }

        /// Whether a definition naming the action must declare this parameter.
        public var isRequired: Bool { defaultValue == nil }
    }

    /// Captures every match of the definition's query must be able to hold (`@name`): the query
    /// must define each of them.
    public var requiredCaptures: [String]
    /// Captures the action reads when the query defines them, and does without otherwise.
    public var optionalCaptures: [String]
    /// The parameters the action reads, required or with the value it assumes.
    public var parameters: [Parameter]

    public init(requiredCaptures: [String] = [], optionalCaptures: [String] = [], parameters: [Parameter] = []) {
        self.requiredCaptures = requiredCaptures
        self.optionalCaptures = optionalCaptures
        self.parameters = parameters
    }

    /// A way a definition breaks a contract.
    public enum Violation: Equatable, Sendable {
        /// The query defines no capture of this name.
        case missingCapture(String)
        /// The definition declares no parameter of this name, and the action has no default.
        case missingParameter(String)
    }

    /// How a definition whose query defines `captures` and which declares `parameters` breaks the
    /// contract, in the contract's order (captures first); empty when it keeps it.
    public func violations(captures: Set<String>, parameters declared: Set<String>) -> [Violation] {
        requiredCaptures.filter { !captures.contains($0) }.map(Violation.missingCapture)
            + parameters.filter { $0.isRequired && !declared.contains($0.name) }.map { .missingParameter($0.name) }
    }
}
