import Foundation

/// JSON as swiftmod writes it everywhere (reports, run output, baseline lines): keys sorted, `/`
/// unescaped, so output is stable and diffs well.
public enum JSONText {
    /// Indented, for people and tools (`--format json`); ends without a newline.
    public static func pretty<Value: Encodable>(_ value: Value) throws -> String {
        try encode(value, [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    /// On one line (a line of JSON Lines).
    public static func line<Value: Encodable>(_ value: Value) throws -> String {
        try encode(value, [.sortedKeys, .withoutEscapingSlashes])
    }

    private static func encode<Value: Encodable>(_ value: Value, _ formatting: JSONEncoder.OutputFormatting) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
