@testable import CodemodKit
import SwiftTree

/// One file through the XCTest conversion, for the suites that check its output and reasons.
enum XCTestFile {
    /// The file's text after the conversion.
    static func converted(_ code: String) throws -> String {
        let tree = Parser().parse(code)
        let conversion = XCTestFileConversion(tree)
        return String(decoding: try EditSet(conversion.edits, in: tree.source).apply(to: tree.source), as: UTF8.self)
    }

    /// Why each class the conversion leaves as XCTest is left.
    static func reasons(_ code: String) -> [String] {
        XCTestFileConversion(Parser().parse(code)).left.map(\.reason)
    }
}
