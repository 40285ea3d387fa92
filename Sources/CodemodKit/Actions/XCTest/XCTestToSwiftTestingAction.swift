import SwiftTree
import Workspace

/// `xctest-to-swift-testing`: XCTest test classes and their helpers in Swift Testing, as the
/// run's files decide together (`XCTestPlan`). Its uses are the test classes and the XCTest
/// assertion calls (the query's `@use`); the first use converted in a file carries the file's
/// edits, and a use left as XCTest is refused with the reason of the class or helper it is in.
public struct XCTestToSwiftTestingAction: RunWideAction {
    public let name = "xctest-to-swift-testing"
    public let summary = "Converts XCTest test classes, their assertions and the helpers they call to Swift Testing"
    public let contract = ActionContract(requiredCaptures: ["use"])

    public init() {}

    public func classify(_ context: ActionContext) -> MatchVerdict {
        guard let node = context.match["use"] else { return .ignore }
        if node.kind == "class_declaration" {
            // Once per class: at its first inherited type, a test case.
            guard let base = context.match["base"], node.children.first(where: { $0.kind == "inheritance_specifier" }) == base,
                  node.children.contains(where: { $0.kind == "class" }) else { return .ignore }
            return .use
        }
        return .use
    }

    /// The file's conversion, made once per tree.
    func conversion(_ context: ActionContext) -> XCTestFileConversion {
        let plan = context.run as? XCTestPlan ?? context.memo.value("xctest.plan") { XCTestPlan([XCTestSurvey(context.tree)]) }
        return context.memo.value("xctest.file") { XCTestFileConversion(context.tree, plan: plan) }
    }

    /// A file none of whose uses carried its edits (a Linux manifest, an extension of a suite
    /// another file declares): they go now.
    public func remainingEdits(in context: ActionContext) -> [Edit] {
        let carried = context.memo.value("xctest.carried") { Flag() }
        guard !carried.isSet else { return [] }
        carried.isSet = true
        let conversion = conversion(context)
        return conversion.converted.isEmpty ? [] : conversion.edits
    }

    public func edits(in context: ActionContext) throws -> [Edit] {
        guard let node = context.match["use"] else { return [] }
        let conversion = conversion(context)
        func holds(_ range: Range<Int>) -> Bool { range.lowerBound <= node.byteRange.lowerBound && node.byteRange.upperBound <= range.upperBound }
        if let left = conversion.left.last(where: { holds($0.range) }) {
            throw SiteRefusal(location: node.start, message: "in `\(left.name)`: " + left.reason)
        }
        guard conversion.converted.contains(where: holds) else {
            throw SiteRefusal(location: node.start, message: "not in a test class, nor in a helper that a converted test calls")
        }
        let carried = context.memo.value("xctest.carried") { Flag() }
        guard !carried.isSet else { return [] }
        carried.isSet = true
        return conversion.edits
    }

    /// Every file: one without XCTest code may still declare a type whose name Swift Testing
    /// takes, or a helper that hands a location on.
    public func mightSurvey(_ bytes: [UInt8]) -> Bool { true }

    public func unsurveyed(_ path: String, reason: String) -> (any Sendable)? { XCTestSurvey(unreadable: "\(path) (\(reason))") }

    public func survey(_ tree: SyntaxTree) -> any Sendable { XCTestSurvey(tree) }

    public func conclude(_ surveys: [any Sendable]) -> any Sendable { XCTestPlan(surveys.compactMap { $0 as? XCTestSurvey }) }
}

/// A flag a tree's matches share (through `TreeMemo`, on one thread).
final class Flag {
    var isSet = false
}
