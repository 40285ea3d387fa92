/// A problem in a YAML file (a codemod definition or the configuration), located at its file,
/// line and field.
public struct LocatedError: Error, CustomStringConvertible, Equatable, Sendable {
    public var file: String
    /// 1-based line, or nil when the whole file is at fault.
    public var line: Int?
    /// The field at fault, as a path such as `examples.fix[2].after`.
    public var field: String?
    public var message: String

    public init(file: String, line: Int?, field: String?, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let field { text += "field '\(field)': " }
        return text + message
    }
}
