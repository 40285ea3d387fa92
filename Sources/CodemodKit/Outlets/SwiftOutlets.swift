import Foundation
import InterfaceBuilder
import SwiftTree

/// What one Swift file says about outlets: its classes with their superclass, their `@IBOutlet`
/// and `@IBAction` declarations, and which outlets their code removes from the view hierarchy
/// (`label.removeFromSuperview()`) or adds back (`addSubview(label)`).
public struct SwiftOutlets: Sendable, Codable {
    /// An `@IBOutlet` declaration.
    public struct Outlet: Sendable, Equatable, Codable {
        public var className: String
        public var name: String
        /// The declared type as written (`UILabel!`, `UIView?`, `[UIView]!`).
        public var type: String
        public var ownership: String?
        public var isImplicitlyUnwrapped: Bool
        public var isCollection: Bool
        public var line: Int
        /// The byte column (1-based) where its name starts.
        public var nameColumn: Int
        public var byteRange: Range<Int>
        /// Where its declaration starts and ends: a codemod's use between them is this outlet's.
        public var start: Position
        public var end: Position

        /// The name of its view's type, without `!`, `?`, brackets or module (`UIKit.UILabel!` →
        /// `UILabel`): whose helpers and superclasses apply to it.
        public var typeName: String {
            // (By bytes: thousands of outlets ask, and the marks are ASCII.)
            let kept = type.utf8.filter { $0 != UInt8(ascii: "!") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "]") }
            return String(decoding: kept.split(separator: UInt8(ascii: ".")).last ?? kept[...], as: UTF8.self)
        }

        /// Whether a place (a line, and a byte column from 1) lies in the declaration.
        public func declares(line: Int, column: Int) -> Bool {
            (start.line, start.column) <= (line, column) && (line, column) < (end.line, end.column)
        }
    }

    /// A place in a file: a line, and a byte column, both from 1.
    public struct Position: Sendable, Equatable, Codable {
        public var line: Int
        public var column: Int
    }

    /// A class: its name and the first type it inherits from (its superclass when that is a class).
    public struct Class: Sendable, Equatable, Codable {
        public var name: String
        /// Its first inherited type, without a module (`App.Base` → `Base`) or generic arguments.
        public var superclass: String?
        /// The name Objective-C (and Interface Builder's `customClass`) knows it by: `@objc(Name)`.
        public var objcName: String?
        public var line: Int
    }

    /// A view a class's code takes out of the hierarchy, or puts in.
    public struct ViewUse: Sendable, Equatable, Codable {
        public var className: String
        public var outlet: String
        public var line: Int
    }

    public var classes: [Class] = []
    /// The framework the file imports (`UIKit`, or `AppKit`/`Cocoa`): of two classes of one name,
    /// an iOS storyboard's is the UIKit one.
    public var platform: IBDocument.Platform = .unknown
    public var outlets: [Outlet] = []
    /// `@IBAction` and `@objc` methods by class, by their Objective-C selectors (`tap:` for
    /// `tap(_:)`, `closeWithSender:forEvent:` for `close(sender:forEvent:)`).
    public var actions: [String: Set<String>] = [:]
    /// Every property and method name a class declares (an outlet connection may name a
    /// property without `@IBOutlet` in code that predates it, which still loads).
    public var members: [String: Set<String>] = [:]
    /// The types a file read whole extends (`extension A.B` → `B`), each once, with those its
    /// text reading names (an `extension Foo` in a comment too): with its classes, the types it
    /// says something of (`SameNamedClasses`), whatever its extensions hold. A file read by its
    /// text has them in `deferredExtensions`.
    public var extendedTypes: [String] = []
    /// The ids that `swiftmod:allow ID` comments of the file name (for the outlet rules).
    public var allowedIDs: Set<String> = []
    /// Member names read after a dot on something other than `self` (`cell.titleLabel`), with
    /// the first line of each.
    public var foreignReferences: [String: Int] = [:]
    public var removals: [ViewUse] = []
    /// Names a class's code (or an extension's) reads bare or through `self`, with a line: the
    /// uses an outlet's rewrite must reach.
    public var memberUses: [String: [String: Int]] = [:]
    /// Containers whose subviews a class's code removes all at once
    /// (`stack.arrangedSubviews.forEach { $0.removeFromSuperview() }`): the outlet is the container.
    public var containerRemovals: [ViewUse] = []
    public var additions: [ViewUse] = []

    /// A call in a class's code that may go through a helper: `hide(label)` (the view as the
    /// argument at `argument`, from 0), or `stack.clear()` (the view as the receiver: nil).
    public struct HelperCall: Sendable, Equatable, Codable {
        public var className: String
        public var method: String
        public var outlet: String
        public var argument: Int?
        public var line: Int
        /// The call's argument labels (`_` for none): which overload it calls.
        public var labels: [String] = []
    }

    /// A method that takes a view out of the hierarchy or puts one in: one it is given
    /// (`func hide(_ view: UIView) { view.removeFromSuperview() }`: `removes`, parameter 0), or
    /// the view it is called on, emptied (`func clear() { arrangedSubviews.forEach { $0.removeFromSuperview() } }`).
    public struct Helper: Sendable, Hashable, Codable {
        public enum Effect: String, Sendable, Codable { case removes, adds, empties }
        /// The type whose body or extension declares it (`UIStackView` for `extension UIStackView`).
        public var owner: String
        public var method: String
        public var effect: Effect
        /// Which parameter (from 0) it removes or adds; nil for `empties`.
        public var parameter: Int?
        /// Its parameters' argument labels (`_` for none): which calls are of this overload.
        public var labels: [String] = []
    }

    /// The helpers the file's types (and extensions) declare.
    public var helpers: Set<Helper> = []
    /// Calls of a class's code with a member as an argument, or on a member without arguments:
    /// the ones whose method is a helper above (in any file) take a view out or put it in.
    public var helperCalls: [HelperCall] = []

    /// Methods that put a view into the hierarchy: `addSubview(x)`, `insertSubview(x, …)`,
    /// `addArrangedSubview(x)`, `insertArrangedSubview(x, at:)`.
    static let adders: Set<String> = ["addSubview", "insertSubview", "addArrangedSubview", "insertArrangedSubview"]
    static let adderNames = adders.map { Array($0.utf8) }

    /// Reads a file's tree.
    /// - Parameter readingUses: also read `memberUses` and `foreignReferences`, which a rewrite
    ///   needs (`iboutlet-optional` reaching every use of an outlet) and the verdicts do not.
    /// - Parameter deferringCalls: for the verdicts alone, leave the code of a file whose text
    ///   holds no view code unread (`helperCallsUnread`): then all it could say is which helpers
    ///   it calls, and only a file that names one needs reading again.
    public init(_ tree: SyntaxTree, readingUses: Bool = true, deferringCalls: Bool = false) {
        var bodies: [Int: String] = [:]
        for declaration in tree.root.children {
            read(declaration, bodies: &bodies)
        }
        // With what its text reading names (`extension` in a comment too): a file says it extends
        // the same types however it was read (see `SameNamedClasses`).
        for name in Self.extendedTypes(in: tree.source.bytes).names where !extendedTypes.contains(name) { extendedTypes.append(name) }
        if !readingUses, deferringCalls, !Self.mayHoldViewCode(tree.source.bytes) {
            helperCallsUnread = true
        } else {
            readCode(of: tree, bodies: bodies, readingUses: readingUses)
        }
        allowedIDs = Self.allowedIDs(in: tree.source.bytes)
        platform = Self.platform(of: tree.source.bytes)
    }

    /// Texts without which a file says nothing about outlets but its classes: no outlet, action,
    /// `@objc` member, removal or re-adding.
    static let markers = ["IBOutlet", "IBAction", "@objc"].map { Array($0.utf8) } + viewCodeMarkers
    /// Of those, the texts of a file that declares outlets or actions: read whole wherever it is.
    static let ownMarkers = ["IBOutlet", "IBAction"].map { Array($0.utf8) }

    /// Whether a file's bytes may say more about outlets than which classes it declares.
    public static func mayHoldOutlets(_ bytes: [UInt8]) -> Bool {
        markers.contains { ByteSearch.contains(bytes, $0) }
    }

    /// Whether a file's bytes may remove a view from its superview, put one back, or declare a
    /// helper that does (`removeFromSuperview`, `addSubview`, `UIStackView(arrangedSubviews:)`):
    /// a file whose bytes do not can say no more to the verdicts than its declarations, its
    /// members and actions, and its calls of helpers other files declare.
    public static func mayHoldViewCode(_ bytes: [UInt8]) -> Bool {
        viewCodeMarkers.contains { ByteSearch.contains(bytes, $0) }
    }

    /// The texts of view code as the tree reading finds it: a removal (and a container emptied)
    /// is a call of `removeFromSuperview`; a re-adding, a call of an adder (`addSubview`,
    /// `insertSubview`, `addArrangedSubview`, `insertArrangedSubview`) or a stack view made with
    /// `arrangedSubviews:`; a helper, a method that does one of those. Narrower than `Subview`
    /// and `StackView`, which every view's `layoutSubviews` and every stack view's type hold.
    static let viewCodeMarkers = ["removeFromSuperview", "addSubview", "insertSubview", "rrangedSubview"].map { Array($0.utf8) }

    /// Whether a file's bytes may declare an outlet or an action (`@IBOutlet`, `@IBAction`). A
    /// file that does not is of use to the verdicts only where one of its types is (see
    /// `RelevantTypes`): it may be read by its text first (`init(classesOf:)`), and whole later,
    /// when it matters.
    public static func mayDeclareOutlets(_ bytes: [UInt8]) -> Bool {
        ownMarkers.contains { ByteSearch.contains(bytes, $0) }
    }

    /// For a file read by its text alone (`init(classesOf:)`): the types it extends
    /// (`extension UIStackView` → `UIStackView`; its classes are in `classes`), which decide
    /// whether it must be read whole (its code may call a helper: `hide(label)`). Nil when the
    /// file was read whole.
    public var deferredExtensions: [String]?

    /// A file read without parsing: its classes, their superclasses and `@objc(Name)`s (for the
    /// hierarchy), and the types it extends (`deferredExtensions`), found by their declarations'
    /// text. That is all the verdicts need of a file none of whose types matters to them; one
    /// whose types do is read whole later (`RelevantTypes`).
    public init(classesOf bytes: [UInt8]) {
        textHoldsViewCode = Self.mayHoldViewCode(bytes)
        allowedIDs = Self.allowedIDs(in: bytes)
        // A class declared inside a block comment (as the text finds them: a `/*` in a string
        // opens one too) is none, or one the text cannot tell: such a file is read whole.
        let comments = Self.blockComments(in: bytes)
        platform = Self.platform(of: bytes, comments: comments)
        (deferredExtensions, textMayMissTypes) = Self.extendedTypes(in: bytes)
        // Only the lines that hold the word are matched (the expression is slow on a whole file),
        // each once however often it holds the word; a byte order mark is no part of line 1.
        let first = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1, counted = first, lineEnd = first
        for offset in ByteSearch.occurrences(of: Self.classKeyword, in: bytes) {
            if Self.isKeywordOddlySpaced(bytes, at: offset, length: 5) { textMayMissTypes = true }
            guard offset >= lineEnd, Self.isKeyword(bytes, at: offset, length: 5) else { continue }
            var start = offset
            while start > lineEnd, bytes[start - 1] != 0x0A { start -= 1 }
            var end = offset
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            if comments.contains(where: { $0.contains(offset) }) {
                // (The line's other places of the word are still looked at.)
                let text = String(decoding: bytes[start..<end], as: UTF8.self)
                if Self.classDeclaration.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil { textMayMissTypes = true }
                continue
            }
            lineEnd = end
            for byte in bytes[counted..<start] where byte == 0x0A { line += 1 }
            counted = start
            let text = Self.code(of: String(decoding: bytes[start..<end], as: UTF8.self))
            let matches = Self.classDeclaration.matches(in: text, range: NSRange(text.startIndex..., in: text))
            // A declaration the expression cannot read whole (split over lines, a comment or a
            // nested bracket inside, not first on its line, a name it does not spell): the file
            // is read whole wherever it is.
            if Self.mayDeclareClass(text) > matches.count { textMayMissTypes = true }
            for match in matches {
                guard let nameRange = Range(match.range(at: 1), in: text), let whole = Range(match.range, in: text) else { continue }
                let superclass = Range(match.range(at: 2), in: text).map { String(text[$0].split(separator: ".").last ?? text[$0]) }
                let rest = text[whole.upperBound...].trimmingCharacters(in: .whitespaces)
                if superclass == nil ? !rest.hasPrefix("{") : !(rest.isEmpty || rest.hasPrefix("{") || rest.hasPrefix(",")) || rest.contains("/*") {
                    textMayMissTypes = true
                }
                // The declaration starts at its attributes on the lines above (`@IBDesignable`),
                // as the parser's does; comment lines between them are passed over.
                var declarationLine = line, lineStart = start, lineNumber = line
                var attributes = String(text[..<nameRange.lowerBound])
                while lineStart > first {
                    var previousStart = lineStart - 1
                    while previousStart > first, bytes[previousStart - 1] != 0x0A { previousStart -= 1 }
                    let previous = String(decoding: bytes[previousStart..<(lineStart - 1)], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    lineNumber -= 1
                    lineStart = previousStart
                    if previous.hasPrefix("//") { continue }
                    guard Self.attributesOnly.firstMatch(in: previous, range: NSRange(previous.startIndex..., in: previous)) != nil else { break }
                    declarationLine = lineNumber
                    attributes = previous + " " + attributes
                }
                classes.append(Class(name: String(text[nameRange]), superclass: superclass, objcName: Self.objcName(in: attributes), line: declarationLine))
            }
        }
        // An `@objc(Name)` the classes read do not hold may name one of them.
        let named = Set(classes.compactMap(\.objcName))
        Self.forEachLine(holding: "@objc", in: bytes, where: { Self.opensParenthesis(bytes, after: $0 + 5) }) { line in
            for match in Self.objcAttribute.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                if let range = Range(match.range(at: 1), in: line), !named.contains(String(line[range])) { textMayMissTypes = true }
            }
        }
    }

    /// For a file read by its text alone: whether that text may hold view code (see
    /// `mayHoldViewCode`). One that does not is read whole only where it names a helper or a
    /// stale connection's member (`WholeReading`).
    public var textHoldsViewCode = false

    /// Whether the file was read whole but for its code (`init(_:readingUses:deferringCalls:)`):
    /// its text holds no view code, so that code says nothing to the verdicts but the calls of
    /// helpers (`helperCalls`, not read), which only a file naming a helper can make.
    public var helperCallsUnread = false

    /// Whether the text reading (`init(classesOf:)`) may have missed a class or an extension it
    /// could not read: such a file is read whole wherever it is (see `RelevantTypes`).
    public var textMayMissTypes = false

    /// A line of attributes alone (`@MainActor`, `@available(*, message: "a = b")`, several).
    static let attributesOnly = try! NSRegularExpression(pattern: #"^(@[A-Za-z_][A-Za-z0-9_]*(\(.*\))?[ \t]*)+$"#)

    /// Whether a word at an offset may stand as a keyword: not inside a longer name, and
    /// followed by a space, a tab or the end of its line. Where it does not, neither the
    /// declarations' expressions nor their loose forms can match there (both ask for as much).
    static func isKeyword(_ bytes: [UInt8], at offset: Int, length: Int) -> Bool {
        if offset > 0 {
            let before = bytes[offset - 1]
            if before == UInt8(ascii: "_") || (before >= 0x30 && before <= 0x39) || (before | 0x20 >= 0x61 && before | 0x20 <= 0x7A) { return false }
        }
        let after = offset + length
        return after >= bytes.count || bytes[after] == 0x20 || bytes[after] == 0x09 || bytes[after] == 0x0D || bytes[after] == 0x0A
    }

    /// Whether a word at an offset, not inside a longer name, is followed by what Swift reads as
    /// space but the lines' readers do not: a vertical tab, a form feed, a NUL, a carriage return
    /// alone, or a comment (`extension/**/Foo`, `class\u{0B}Foo`). A file that holds one is read
    /// whole.
    static func isKeywordOddlySpaced(_ bytes: [UInt8], at offset: Int, length: Int) -> Bool {
        let after = offset + length
        guard after < bytes.count else { return false }
        let next = bytes[after]
        let comment = next == UInt8(ascii: "/") && after + 1 < bytes.count && (bytes[after + 1] == UInt8(ascii: "/") || bytes[after + 1] == UInt8(ascii: "*"))
        // (A carriage return alone ends a line the lines' readers, which split at line feeds, run on.)
        let loneReturn = next == 0x0D && (after + 1 >= bytes.count || bytes[after + 1] != 0x0A)
        guard next == 0x0B || next == 0x0C || next == 0x00 || comment || loneReturn else { return false }
        return offset == 0 || !isIdentifierByte(bytes[offset - 1])
    }

    /// Whether a `(` follows an offset, after spaces and tabs (`@objc (Name)`).
    static func opensParenthesis(_ bytes: [UInt8], after offset: Int) -> Bool {
        var index = offset
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "(")
    }

    /// How many class declarations a line may hold, loosely: `class` (not after a dot or `@`, not
    /// `class func` and the like) followed by a name, or ending the line. Comment lines hold none.
    static func mayDeclareClass(_ line: String) -> Int {
        looseClassDeclaration.numberOfMatches(in: line, range: NSRange(line.startIndex..., in: line))
    }

    /// A line's code, as far as a line shows it: nothing for a comment line (`//`, or `*` inside a
    /// block comment), and what follows a block comment that opens and closes at its start.
    static func code(of line: String) -> String {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.hasPrefix("//") || trimmed.hasPrefix("*") { return "" }
        if trimmed.hasPrefix("/*") {
            guard let close = trimmed.range(of: "*/") else { return "" }
            return String(trimmed[close.upperBound...])
        }
        return line
    }

    static let looseClassDeclaration = try! NSRegularExpression(
        pattern: #"(?<![A-Za-z0-9_.@`"])class(?:[ \t]+(?!(?:func|var|let|subscript|override|final|static|private|public|open|internal|fileprivate|required|convenience|init|deinit|dynamic|package|nonisolated)\b)[^\s:{<]|[ \t]*$)"#)

    static let classKeyword = Array("class".utf8)

    /// The name in an `@objc(Name)` attribute of some text (a class's attributes), if any.
    static func objcName(in attributes: String) -> String? {
        guard let match = objcAttribute.firstMatch(in: attributes, range: NSRange(attributes.startIndex..., in: attributes)),
              let range = Range(match.range(at: 1), in: attributes) else { return nil }
        return String(attributes[range])
    }

    static let objcAttribute = try! NSRegularExpression(pattern: #"@objc[ \t]*\([ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*\)"#)

    /// The types a file's `extension` declarations name, by their last part (`extension A.B` →
    /// `B`), found by their text: a comment that says `extension Foo` names one too, which only
    /// makes the file read whole where it need not be.
    static func extendedTypes(in bytes: [UInt8]) -> (names: [String], mayMiss: Bool) {
        var names: Set<String> = []
        var mayMiss = false
        forEachLine(holding: "extension", in: bytes, where: { offset in
            if isKeywordOddlySpaced(bytes, at: offset, length: 9) { mayMiss = true }
            return isKeyword(bytes, at: offset, length: 9)
        }) { line in
            let lineBytes = Array(line.utf8)
            // (The line's other places of the word, which `where` did not see.)
            if ByteSearch.occurrences(of: extensionKeyword, in: lineBytes).contains(where: { isKeywordOddlySpaced(lineBytes, at: $0, length: 9) }) { mayMiss = true }
            for range in extensionNames(in: lineBytes) {
                let name = String(decoding: lineBytes[range], as: UTF8.self)
                names.insert(String(name.split(separator: ".").last ?? Substring(name)))
                // A name that goes on in letters the expression does not spell (`VCé`, `A٣`), or
                // after a space (`extension Outer . Inner`, `Outer. Inner`: `Inner` is extended).
                if range.upperBound < lineBytes.count, lineBytes[range.upperBound] >= 0x80 || lineBytes[range.upperBound] == UInt8(ascii: "`") { mayMiss = true }
                var after = range.upperBound
                while after < lineBytes.count, lineBytes[after] == 0x20 || lineBytes[after] == 0x09 { after += 1 }
                if lineBytes[range.upperBound - 1] == UInt8(ascii: ".") || after < lineBytes.count && lineBytes[after] == UInt8(ascii: ".") { mayMiss = true }
            }
            // `extension` ending its line, or before a comment: one that was not read.
            let code = Self.code(of: line)
            let codeBytes = Array(code.utf8)
            if !extensionsAllPlain(codeBytes),
               looseExtension.numberOfMatches(in: code, range: NSRange(code.startIndex..., in: code)) > extensionNames(in: codeBytes).count {
                mayMiss = true
            }
        }
        return (names.sorted(), mayMiss)
    }

    /// Where `extensionDeclaration` finds the extended type's name in a line, by its bytes (its
    /// letters are all ASCII: the same matches, without a regular expression's cost).
    static func extensionNames(in line: [UInt8]) -> [Range<Int>] {
        var names: [Range<Int>] = []
        var from = 0
        for offset in ByteSearch.occurrences(of: extensionKeyword, in: line) where offset >= from {
            if offset > 0, isIdentifierByte(line[offset - 1]) { continue }
            guard let start = nameStart(in: line, after: offset + extensionKeyword.count) else { continue }
            var index = start
            while index < line.count, isIdentifierByte(line[index]) || line[index] == UInt8(ascii: ".") { index += 1 }
            names.append(start..<index)
            from = index
        }
        return names
    }

    /// Whether every `extension` of a line is either inside a longer name or plainly a
    /// declaration (`extension Name`, after none of `.@`"`), so that `looseExtension` matches
    /// exactly where `extensionDeclaration` does and need not be asked.
    static func extensionsAllPlain(_ line: [UInt8]) -> Bool {
        for offset in ByteSearch.occurrences(of: extensionKeyword, in: line) {
            if offset > 0, isIdentifierByte(line[offset - 1]) { continue }
            if offset > 0, [UInt8(ascii: "."), UInt8(ascii: "@"), UInt8(ascii: "`"), UInt8(ascii: "\"")].contains(line[offset - 1]) { return false }
            guard nameStart(in: line, after: offset + extensionKeyword.count) != nil else { return false }
        }
        return true
    }

    /// Where a name begins after a keyword that ends at `index`: past at least one space or tab,
    /// at a letter or `_`; nil where none does.
    static func nameStart(in line: [UInt8], after index: Int) -> Int? {
        var index = index
        let spaces = index
        while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
        guard index > spaces, index < line.count, isIdentifierByte(line[index]), !isDigit(line[index]) else { return nil }
        return index
    }

    static let extensionKeyword = Array("extension".utf8)

    /// `[A-Za-z0-9_]`.
    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || isDigit(byte) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static let looseExtension = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.@`"])extension(?:[ \t]+[^\s]|[ \t]*$)"#)

    /// Calls `visit` with each line of a file that holds a word, once per line however often it
    /// holds it (a regular expression is slow on a whole file; on those lines it is not).
    /// - Parameter outside: ranges whose lines are passed over (block comments).
    /// - Parameter accept: which places of the word count (by their offset): a line none of whose
    ///   places counts is not visited.
    static func forEachLine(holding word: String, in bytes: [UInt8], outside skipped: [Range<Int>] = [], where accept: (Int) -> Bool = { _ in true },
                            _ visit: (String) -> Void) {
        var lineEnd = 0
        for offset in ByteSearch.occurrences(of: Array(word.utf8), in: bytes) where offset >= lineEnd {
            if skipped.contains(where: { $0.contains(offset) }) || !accept(offset) { continue }
            var start = offset
            while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
            var end = offset
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            lineEnd = end
            visit(String(decoding: bytes[start..<end], as: UTF8.self))
        }
    }

    static let extensionDeclaration = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9_])extension[ \t]+([A-Za-z_][A-Za-z0-9_.]*)"#)

    /// Where a file's block comments are (`/* … */`, nested as Swift nests them), by their text:
    /// a `/*` inside a string or after `//` opens one too, which hides that file's imports after
    /// it, and makes a class declared after it unsure (the file is read whole).
    static func blockComments(in bytes: [UInt8]) -> [Range<Int>] {
        let opens = ByteSearch.occurrences(of: Array("/*".utf8), in: bytes)
        guard !opens.isEmpty else { return [] }
        let closes = ByteSearch.occurrences(of: Array("*/".utf8), in: bytes)
        var ranges: [Range<Int>] = []
        var depth = 0, start = 0, open = 0, close = 0
        while open < opens.count || close < closes.count {
            if open < opens.count, close == closes.count || opens[open] < closes[close] {
                if depth == 0 { start = opens[open] }
                depth += 1
                open += 1
            } else {
                if depth > 0 {
                    depth -= 1
                    if depth == 0 { ranges.append(start..<(closes[close] + 2)) }
                }
                close += 1
            }
        }
        // (Never closed: to the end.)
        if depth > 0 { ranges.append(start..<bytes.count) }
        return ranges
    }

    /// The framework a file's imports name: UIKit, or AppKit (`import Cocoa` too); unknown for
    /// neither or both.
    /// - Parameter comments: the file's `blockComments(in:)`, where the caller has them.
    static func platform(of bytes: [UInt8], comments: [Range<Int>]? = nil) -> IBDocument.Platform {
        // Each line that says `import`, read as an import declaration (not a comment or a
        // string): `import UIKit`, `@testable import UIKit`, `import class UIKit.UIView`.
        var uiKit = false, appKit = false
        // (Only a file, and a line, that names a framework can import it: most imports do not.)
        guard frameworks.contains(where: { ByteSearch.contains(bytes, Array($0.utf8)) }) else { return .unknown }
        forEachLine(holding: "import", in: bytes, outside: comments ?? blockComments(in: bytes)) { text in
            guard frameworks.contains(where: text.contains) else { return }
            // (Most are `import UIKit` alone: read without the expression.)
            if let module = plainImport(Array(text.utf8)) {
                if module == "UIKit" { uiKit = true }
                if module == "AppKit" || module == "Cocoa" { appKit = true }
                return
            }
            let line = code(of: text)
            // (Several on a line: `import Foundation; import UIKit`.)
            for match in Self.importDeclaration.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                guard let module = Range(match.range(at: 1), in: line).map({ String(line[$0]) }) else { continue }
                if module == "UIKit" { uiKit = true }
                if module == "AppKit" || module == "Cocoa" { appKit = true }
            }
        }
        return uiKit == appKit ? .unknown : uiKit ? .uiKit : .appKit
    }

    /// The module of a line that is an import declaration and nothing else (`import UIKit`,
    /// indented, a carriage return at its end), as `importDeclaration` reads it; nil for any
    /// other line (which the expression reads).
    static func plainImport(_ line: [UInt8]) -> String? {
        var index = 0
        while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
        guard line[index...].starts(with: importKeyword), let start = nameStart(in: line, after: index + importKeyword.count) else { return nil }
        index = start
        while index < line.count, isIdentifierByte(line[index]) { index += 1 }
        let module = String(decoding: line[start..<index], as: UTF8.self)
        // (A kind, `import class UIKit.UIView`, is the expression's to read.)
        guard !["class", "struct", "enum", "protocol", "typealias", "func", "var", "let"].contains(module) else { return nil }
        while index < line.count, line[index] == 0x20 || line[index] == 0x09 || line[index] == 0x0D { index += 1 }
        return index == line.count ? module : nil
    }

    static let importKeyword = Array("import".utf8)

    /// The modules whose import says UIKit or AppKit.
    static let frameworks = ["UIKit", "AppKit", "Cocoa"]

    /// An import declaration's module, at the start of a line.
    static let importDeclaration = try! NSRegularExpression(
        pattern: #"(?:^|;)[ \t\x{FEFF}]*(?:@[A-Za-z_]+(?:\([^)]*\))?[ \t]+)*(?:(?:public|package|internal|fileprivate|private)[ \t]+)?import[ \t]+(?:(?:class|struct|enum|protocol|typealias|func|var|let)[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])"#)

    /// `class Name: Superclass` (after attributes and modifiers), at the start of a line; the
    /// superclass may have generic arguments (`TextHintCell<UILabel>`), not nested ones.
    static let classDeclaration = try! NSRegularExpression(
        pattern: #"^[ \t]*(?:@[A-Za-z_][A-Za-z0-9_]*(?:\([^)\n]*\))?[ \t]+)*(?:(?:public|open|internal|fileprivate|private|package|final|nonisolated)[ \t]+)*class[ \t]+(?!(?:func|var|let|subscript|override|final|static|private|public|open|internal|fileprivate|package|required|convenience|init|deinit|dynamic|nonisolated)\b)([A-Za-z_][A-Za-z0-9_]*)(?:<[^>{\n]*>)?(?:[ \t]*:[ \t]*([A-Za-z_][A-Za-z0-9_.]*)(?:<[^<>{\n]*>)?)?"#,
        options: [.anchorsMatchLines])

    /// The ids `swiftmod:allow ID` comments name.
    static func allowedIDs(in bytes: [UInt8]) -> Set<String> {
        var ids: Set<String> = []
        for offset in ByteSearch.occurrences(of: Array("swiftmod:allow".utf8), in: bytes) {
            var index = offset + "swiftmod:allow".utf8.count
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
            let start = index
            while index < bytes.count, bytes[index] > 0x20, bytes[index] != 0x2D || index + 1 < bytes.count && bytes[index + 1] != 0x2D { index += 1 }
            if index > start { ids.insert(String(decoding: bytes[start..<index], as: UTF8.self)) }
        }
        return ids
    }

    /// Reads a type's declaration and its members; `bodies` gets where the bodies whose code is
    /// read start, with their class (see `readCode`).
    private mutating func read(_ declaration: Node, bodies: inout [Int: String]) {
        switch declaration.kind {
        case "class_declaration":
            guard let name = declaration.child(field: "name")?.text else { return }
            let isExtension = declaration.children.contains { $0.kind == "extension" }
            // `extension Foo.Bar` names its type by its last part, `extension Foo<Int>` by its name.
            // (`` `Foo` `` names `Foo`.)
            let extended = name.prefix { $0 != "<" }.filter { !$0.isWhitespace }
            let className = Self.unticked(isExtension ? String(extended.split(separator: ".").last ?? Substring(extended)) : name)
            if isExtension, !extendedTypes.contains(className) { extendedTypes.append(className) }
            if !isExtension, declaration.children.contains(where: { $0.kind == "class" }) {
                var superclass = declaration.children.first { $0.kind == "inheritance_specifier" }?.text
                if let text = superclass {
                    let plain = text.prefix { $0 != "<" }
                    superclass = Self.unticked(String(plain.split(separator: ".").last ?? plain).filter { !$0.isWhitespace })
                }
                let objc = declaration.children.first { $0.kind == "modifiers" }?.children.first { $0.kind == "attribute" && $0.text.hasPrefix("@objc(") }
                    .map { String($0.text.dropFirst("@objc(".count).dropLast()).filter { !$0.isWhitespace } }
                classes.append(Class(name: className, superclass: superclass, objcName: objc, line: declaration.start.line))
            }
            guard let body = declaration.child(field: "body") else { return }
            // (By symbols: a class has many members, and a repository thousands of classes.)
            for member in body.children {
                let symbol = member.symbol
                if Symbols.types.contains(symbol) { read(member, bodies: &bodies) }
                let isProperty = Symbols.property.contains(symbol)
                guard isProperty || Symbols.function.contains(symbol) else { continue }
                let name = isProperty ? member.child(fieldID: Symbols.nameField)?.child(fieldID: Symbols.boundIdentifierField) : member.child(fieldID: Symbols.nameField)
                if let name { members[className, default: []].insert(Self.unticked(name.text)) }
                // (Most members have no attribute.)
                guard member.firstChild(in: Symbols.modifiers) != nil else { continue }
                if isProperty, Self.hasAttribute(member, .outlet), let outlet = outlet(member, in: className) {
                    outlets.append(outlet)
                }
                if !isProperty, Self.hasAttribute(member, .action) || Self.hasAttribute(member, .objc), let selector = Self.selector(of: member) {
                    actions[className, default: []].insert(selector)
                }
            }
            bodies[body.byteRange.lowerBound] = className
        default:
            return
        }
    }

    /// A name without its backticks (`` `default` `` is `default` to Interface Builder).
    static func unticked(_ name: String) -> String {
        name.hasPrefix("`") && name.hasSuffix("`") && name.count > 1 ? String(name.dropFirst().dropLast()) : name
    }

    /// A method's Objective-C selector: `@objc(name:)` as written, else from its name and labels.
    static func selector(of function: Node) -> String? {
        guard let name = function.child(field: "name").map({ Self.unticked($0.text) }) else { return nil }
        if let explicit = function.children.first(where: { $0.kind == "modifiers" })?.children.first(where: { $0.kind == "attribute" && $0.text.hasPrefix("@objc(") }) {
            return String(explicit.text.dropFirst("@objc(".count).dropLast()).filter { !$0.isWhitespace }
        }
        let parameters = function.children.filter { $0.kind == "parameter" }
        guard let first = parameters.first else { return name }
        func label(_ parameter: Node) -> String {
            let external = parameter.child(field: "external_name")?.text
            return external ?? parameter.child(field: "name")?.text ?? "_"
        }
        let firstLabel = Self.unticked(label(first))
        // `close(sender:)` is `closeWithSender:`; a label whose first word is a preposition goes
        // without "With": `didTap(on:)` is `didTapOn:`, `tap(forEvent:)` is `tapForEvent:`.
        let joint = prepositions.contains(String(firstLabel.prefix { !$0.isUppercase }).lowercased()) ? "" : "With"
        var selector = firstLabel == "_" ? name + ":" : name + joint + firstLabel.prefix(1).uppercased() + firstLabel.dropFirst() + ":"
        for parameter in parameters.dropFirst() {
            let text = Self.unticked(label(parameter))
            selector += (text == "_" ? "" : text) + ":"
        }
        return selector
    }

    /// The names a Swift method whose Objective-C selector is `selector` may have (`selector(of:)`
    /// backwards): the selector's first part (`close:`, or `@objc(close:)` as written), and that
    /// part without the first label joined to it (`closeWithSender:` → `close`, `didTapOn:` →
    /// `didTap`).
    static func methodNames(forSelector selector: String) -> [String] {
        let head = String(selector.prefix { $0 != ":" })
        var names = [head]
        for index in head.indices.dropFirst() where head[index].isUppercase {
            let label = head[index...]
            let word = label.prefix(1) + label.dropFirst().prefix { !$0.isUppercase }
            if label.hasPrefix("With") || prepositions.contains(word.lowercased()) { names.append(String(head[..<index])) }
        }
        return names
    }

    /// The prepositions Swift's Objective-C names join without "With".
    static let prepositions: Set<String> = [
        "above", "after", "along", "alongside", "as", "at", "before", "below", "by", "following", "for", "from", "given", "in",
        "including", "inside", "into", "matching", "of", "on", "passing", "preceding", "since", "to", "until", "using", "via",
        "when", "with", "within",
    ]

    /// Whether a declaration carries an attribute, as its modifiers write it.
    static func hasAttribute(_ declaration: Node, _ attribute: AttributeSpelling) -> Bool {
        // (By symbols and bytes: every member with a modifier is asked, in thousands of files.)
        declaration.firstChild(in: Symbols.modifiers)?.children.contains { Symbols.attribute.contains($0.symbol) && attribute.spells($0.bytes) } ?? false
    }

    /// How an attribute may be written: `@Name`, `@Name(…)`, `` @`Name` ``.
    struct AttributeSpelling {
        let plain: [UInt8], withArguments: [UInt8], ticked: [UInt8]

        init(_ name: String) {
            plain = Array("@\(name)".utf8)
            withArguments = Array("@\(name)(".utf8)
            ticked = Array("@`\(name)`".utf8)
        }

        func spells(_ text: ArraySlice<UInt8>) -> Bool {
            text.elementsEqual(plain) || text.starts(with: withArguments) || text.elementsEqual(ticked)
        }

        static let outlet = AttributeSpelling("IBOutlet")
        static let action = AttributeSpelling("IBAction")
        static let objc = AttributeSpelling("objc")
    }

    private func outlet(_ declaration: Node, in className: String) -> Outlet? {
        guard let name = declaration.child(field: "name")?.child(field: "bound_identifier") ?? declaration.child(field: "name"),
              let annotation = declaration.firstChild(in: Symbols.typeAnnotation) else { return nil }
        let type = annotation.text.drop { $0 == ":" || $0.isWhitespace }
        let ownership = declaration.firstChild(in: Symbols.modifiers)?.firstChild(in: Symbols.ownershipModifier)?.text
        let unwrapped = annotation.firstChild(in: Symbols.forceUnwrap) != nil
        let collection = annotation.child(field: "name")?.kind == "array_type"
        return Outlet(className: className, name: Self.unticked(name.text), type: String(type), ownership: ownership, isImplicitlyUnwrapped: unwrapped,
                      isCollection: collection, line: name.start.line, nameColumn: name.start.column, byteRange: declaration.byteRange,
                      start: Position(line: declaration.start.line, column: declaration.start.column),
                      end: Position(line: declaration.end.line, column: declaration.end.column))
    }

    /// `x.removeFromSuperview()` / `self.x.removeFromSuperview()` / `x?.removeFromSuperview()`,
    /// and `addSubview(x)`-like calls with the outlet as an argument, in a class's code.
    ///
    /// Also every member name the body reads bare or through `self` (not inside nested types); a
    /// local of the same name counts too (telling them apart costs a walk per name; counting it
    /// only makes a rewrite more careful).
    ///
    /// And, in the whole file, every member read after a dot on something other than `self`
    /// (`foreignReferences`). One walk of the tree does both (walking is what costs): `bodies`
    /// says where the class bodies `read` saw start, and with which class; a nested type's code
    /// is its own (or no class's).
    private mutating func readCode(of tree: SyntaxTree, bodies: [Int: String], readingUses: Bool) {
        var foreign: [String: Int] = [:]
        // What the file's text can hold: the walk looks for nothing it cannot (every node is a
        // cost, for thousands of files).
        let bytes = tree.source.bytes
        let removes = ByteSearch.contains(bytes, Self.removalMarker)
        let adds = ByteSearch.contains(bytes, Self.subviewMarker)
        let stacks = ByteSearch.contains(bytes, Self.stackViewMarker)
        // The regions the walk is in, innermost last: a class body (its class), or a nested type
        // (nil): until where they end.
        var regions: [(end: Int, className: String?)] = []
        // The names functions and closures declare (parameters, `let`s, closure parameters), by
        // scope, until where they end: a local named like an outlet is not it.
        var scopes: [(end: Int, names: Set<String>)] = []
        func isLocal(_ name: String) -> Bool { scopes.contains { $0.names.contains(name) } }
        /// The member a value names (`label`, `self.label`, `label!`), unless a local of that name.
        func member(_ expression: Node) -> String? {
            var value = expression
            while Symbols.wrappers.contains(value.symbol), let inner = value.namedChildren.first { value = inner }
            // (`` `default` `` names `default`.)
            if Symbols.identifier.contains(value.symbol) {
                let name = Self.unticked(value.text)
                return isLocal(name) ? nil : name
            }
            if Symbols.navigation.contains(value.symbol), value.child(field: "target")?.kind == "self_expression" {
                return value.child(field: "suffix")?.child(field: "suffix").map { Self.unticked($0.text) }
            }
            return nil
        }
        tree.root.walkWithParents { node, parent, field in
            let symbol = node.symbol
            let range = node.byteRange
            while let last = regions.last, last.end <= range.lowerBound { regions.removeLast() }
            while let last = scopes.last, last.end <= range.lowerBound { scopes.removeLast() }
            if Symbols.opaque.contains(symbol) { return false }
            if Symbols.scopes.contains(symbol) { scopes.append((range.upperBound, [])) }
            if Symbols.identifier.contains(symbol), !scopes.isEmpty, let parent,
               field == Symbols.boundIdentifierField || Symbols.bindings.contains(parent.symbol)
                || Symbols.parameter.contains(parent.symbol) && field == Symbols.nameField {
                let name = node.text
                // `guard let label = label`, `if let label = self.label`: the outlet's own view.
                if field != Symbols.boundIdentifierField || !Self.bindsItself(node, named: name, in: parent) {
                    scopes[scopes.count - 1].names.insert(Self.unticked(name))
                }
            }
            if readingUses, Symbols.navigation.contains(symbol), let target = node.child(field: "target"), !Symbols.selfExpression.contains(target.symbol),
               let name = node.child(field: "suffix")?.child(field: "suffix"), name.kind == "simple_identifier" {
                let text = Self.unticked(name.text)
                if foreign[text] == nil { foreign[text] = node.start.line }
            }
            if Symbols.types.contains(symbol) {
                regions.append((range.upperBound, nil))
                return true
            }
            if field == Symbols.bodyField, let className = bodies[range.lowerBound], let parent, Symbols.types.contains(parent.symbol) {
                regions.append((range.upperBound, className))
                return true
            }
            guard let className = regions.last?.className else { return true }
            if removes || adds, Symbols.function.contains(symbol) { readHelper(node, of: className) }
            // (Calls and capitalised names are no outlets: left out, the cache stays small.)
            if readingUses, let name = Self.memberRead(node, symbol: symbol, parent: parent, field: field), memberUses[className]?[name] == nil,
               name.first?.isUppercase == false, !(Symbols.identifier.contains(symbol) && parent.map { Symbols.call.contains($0.symbol) } == true) {
                memberUses[className, default: [:]][name] = node.start.line
            }
            let isCall = Symbols.call.contains(symbol)
            guard isCall || removes && Symbols.forStatement.contains(symbol) else { return true }
            if removes, let loop = Self.loop(node) {
                // `[a, b].forEach { $0.removeFromSuperview() }`.
                if let views = Self.listRemoved(by: loop, naming: member) {
                    for name in views { removals.append(ViewUse(className: className, outlet: name, line: node.start.line)) }
                    return true
                }
                if let container = Self.containerEmptied(by: loop, naming: member) {
                    containerRemovals.append(ViewUse(className: className, outlet: container, line: node.start.line))
                    return true
                }
            }
            guard isCall, let callee = node.child(at: 0) else { return true }
            let calleeSymbol = callee.symbol
            // (Asked for only where needed: most calls are neither removals nor helpers.)
            lazy var arguments = Self.arguments(of: node)
            let navigates = Symbols.navigation.contains(calleeSymbol)
            let methodNode = navigates ? callee.child(fieldID: Symbols.suffixField)?.child(fieldID: Symbols.suffixField)
                : Symbols.identifier.contains(calleeSymbol) ? callee : nil
            guard let methodNode else { return true }
            let target = navigates ? callee.child(fieldID: Symbols.targetField) : nil
            // On the class itself: `self.hide(x)`, or a static helper's `Self.hide(x)`, `VC.hide(x)`.
            let onSelf = target.map { Symbols.selfExpression.contains($0.symbol)
                || Symbols.identifier.contains($0.symbol) && ($0.bytes.elementsEqual(Self.selfType) || Self.unticked($0.text) == className) } ?? true
            // `UIStackView(arrangedSubviews: [a, b])` puts its views back.
            if stacks, !navigates, methodNode.bytes.reversed().starts(with: Self.stackViewMarker.reversed()) {
                for argument in arguments where argument.child(fieldID: Symbols.nameField)?.text == "arrangedSubviews" {
                    for element in argument.child(fieldID: Symbols.valueField)?.namedChildren ?? [] {
                        if let name = member(element) { additions.append(ViewUse(className: className, outlet: name, line: node.start.line)) }
                    }
                }
            }
            // (`` `hide`(label) `` calls `hide`.)
            var methodBytes = methodNode.bytes
            if methodBytes.count > 2, methodBytes.first == UInt8(ascii: "`"), methodBytes.last == UInt8(ascii: "`") { methodBytes = methodBytes.dropFirst().dropLast() }
            lazy var methodName = String(decoding: methodBytes, as: UTF8.self)
            if removes, methodBytes.elementsEqual(Self.removalMarker) {
                if let target, let name = member(target) {
                    removals.append(ViewUse(className: className, outlet: name, line: node.start.line))
                }
            } else if adds, Self.adderNames.contains(where: { methodBytes.elementsEqual($0) }) {
                // `addSubview(label)` on the class's own view (a bare call), or on a view.
                if let first = arguments.first?.child(fieldID: Symbols.valueField), let name = member(first) {
                    additions.append(ViewUse(className: className, outlet: name, line: node.start.line))
                }
            } else if onSelf {
                // `hide(label)`, `self.hide(label)`: a member as an argument.
                var labels: [String]?
                for (index, argument) in arguments.enumerated() {
                    guard let value = argument.child(fieldID: Symbols.valueField), let name = member(value) else { continue }
                    labels = labels ?? arguments.map { $0.child(fieldID: Symbols.nameField).map { Self.unticked($0.text.trimmingCharacters(in: CharacterSet(charactersIn: ": "))) } ?? "_" }
                    helperCalls.append(HelperCall(className: className, method: methodName, outlet: name, argument: index, line: node.start.line, labels: labels ?? []))
                }
            } else if let target, arguments.isEmpty, let name = member(target),
                      node.child(at: 1)?.children.contains(where: { Symbols.closure.contains($0.symbol) }) != true {
                // `stack.clear()`: a member as the receiver, without arguments.
                helperCalls.append(HelperCall(className: className, method: methodName, outlet: name, argument: nil, line: node.start.line))
            }
            return true
        }
        foreignReferences = foreign
    }

    /// A method that may be a helper: one that removes or adds a view it is given, or empties
    /// the view it is called on (its own `subviews` or `arrangedSubviews`).
    private mutating func readHelper(_ function: Node, of owner: String) {
        let bytes = function.tree.source.bytes, range = function.byteRange
        guard Self.helperMarkers.contains(where: { ByteSearch.contains(bytes, $0, within: range) }),
              let name = function.child(field: "name").map({ Self.unticked($0.text) }) else { return }
        let declared = function.children.filter { $0.kind == "parameter" }
        let parameters = declared.map { Self.unticked($0.child(field: "name")?.text ?? "") }
        let labels = declared.map { Self.unticked($0.child(field: "external_name")?.text ?? $0.child(field: "name")?.text ?? "_") }
        function.walk { inner in
            // (By symbols: every node of the method is visited, and only calls and loops matter.)
            let symbol = inner.symbol
            let isCall = Symbols.call.contains(symbol)
            guard isCall || Symbols.forStatement.contains(symbol) else { return true }
            if let loop = Self.loop(inner), Self.removesEach(loop.body, element: loop.element) {
                var collection = loop.collection
                if collection.kind == "navigation_expression", collection.child(field: "target")?.kind == "self_expression",
                   let suffix = collection.child(field: "suffix")?.child(field: "suffix") {
                    collection = suffix
                }
                if collection.kind == "simple_identifier", ["subviews", "arrangedSubviews"].contains(collection.text) {
                    helpers.insert(Helper(owner: owner, method: name, effect: .empties, parameter: nil, labels: labels))
                }
            }
            guard isCall, let callee = inner.child(at: 0) else { return true }
            // (`addSubview(view)` on the view itself, or `stack.addArrangedSubview(view)`.)
            let method = callee.kind == "simple_identifier" ? callee.text : callee.kind == "navigation_expression" ? callee.child(field: "suffix")?.child(field: "suffix")?.text ?? "" : ""
            if method == "removeFromSuperview", let target = callee.child(field: "target"), target.kind == "simple_identifier",
               let index = parameters.firstIndex(of: Self.unticked(target.text)) {
                helpers.insert(Helper(owner: owner, method: name, effect: .removes, parameter: index, labels: labels))
            } else if Self.adders.contains(method) {
                let arguments = Self.arguments(of: inner)
                if let first = arguments.first?.child(field: "value"), first.kind == "simple_identifier", let index = parameters.firstIndex(of: Self.unticked(first.text)) {
                    helpers.insert(Helper(owner: owner, method: name, effect: .adds, parameter: index, labels: labels))
                }
            }
            return true
        }
    }

    /// Whether an `if let`/`guard let` binding takes the value of the member of its own name
    /// (`guard let label = label`, `= self.label`): then it is that member's view, no other.
    static func bindsItself(_ binding: Node, named name: String, in statement: Node) -> Bool {
        guard Symbols.conditional.contains(statement.symbol) else { return false }
        let children = statement.fieldedChildren
        guard let index = children.firstIndex(where: { $0.node == binding }) else { return false }
        // `if let label {` (Swift 5.7): no value, the member's own.
        guard let value = children[(index + 1)...].first(where: { $0.node.isNamed }), value.field == "condition" else { return true }
        // (Backticks or not: `` guard let `b` = self.b ``.)
        let text = value.node.text
        return unticked(text.hasPrefix("self.") ? String(text.dropFirst("self.".count)) : text) == unticked(name)
    }

    /// A call's arguments (`value_argument` nodes), in order.
    static func arguments(of call: Node) -> [Node] {
        call.child(at: 1)?.firstChild(in: Symbols.valueArguments)?.children.filter { Symbols.valueArgument.contains($0.symbol) } ?? []
    }

    /// Texts without which a method is no helper.
    static let helperMarkers = [removalMarker, subviewMarker]
    static let removalMarker = Array("removeFromSuperview".utf8)
    /// In every adder (`addSubview`, `insertArrangedSubview`, …) and in `arrangedSubviews`.
    static let subviewMarker = Array("Subview".utf8)
    static let stackViewMarker = Array("StackView".utf8)
    static let selfType = Array("Self".utf8)

    /// The member a node (of a kind, under a parent and field) reads bare or through `self`, if
    /// it reads one.
    static func memberRead(_ node: Node, symbol: UInt16, parent: Node?, field: UInt16) -> String? {
        if Symbols.navigation.contains(symbol), node.child(field: "target")?.kind == "self_expression" {
            return node.child(field: "suffix")?.child(field: "suffix").map { unticked($0.text) }
        }
        guard Symbols.identifier.contains(symbol), let parent, field != Symbols.boundIdentifierField else { return nil }
        let parentSymbol = parent.symbol
        guard !Symbols.notReads.contains(parentSymbol), !(Symbols.valueArgument.contains(parentSymbol) && field == Symbols.nameField) else { return nil }
        return unticked(node.text)
    }

    /// The grammar's symbols and fields the reading looks for (comparing numbers, not strings).
    enum Symbols {
        static let types = SymbolSet(kinds: ["class_declaration", "protocol_declaration"])
        static let identifier = SymbolSet(kinds: ["simple_identifier"])
        static let navigation = SymbolSet(kinds: ["navigation_expression"])
        static let call = SymbolSet(kinds: ["call_expression"])
        static let forStatement = SymbolSet(kinds: ["for_statement"])
        /// Where `if let`/`guard let` bind.
        static let conditional = SymbolSet(kinds: ["if_statement", "guard_statement"])
        static let valueArgument = SymbolSet(kinds: ["value_argument"])
        static let valueArguments = SymbolSet(kinds: ["value_arguments"])
        static let selfExpression = SymbolSet(kinds: ["self_expression"])
        /// A trailing closure: `stack.each { … }` is no call on the stack alone.
        static let closure = SymbolSet(kinds: ["lambda_literal", "annotated_lambda"])
        /// Parents under which a name is no read of a member: a member after a dot, an argument's
        /// label, a pattern, a declaration's name.
        static let notReads = SymbolSet(kinds: ["navigation_suffix", "value_argument_label", "pattern", "function_declaration", "property_declaration"])
        static let boundIdentifierField = SwiftLanguage.fieldID("bound_identifier")
        static let nameField = SwiftLanguage.fieldID("name")
        static let valueField = SwiftLanguage.fieldID("value")
        static let suffixField = SwiftLanguage.fieldID("suffix")
        static let targetField = SwiftLanguage.fieldID("target")
        static let bodyField = SwiftLanguage.fieldID("body")
        static let function = SymbolSet(kinds: ["function_declaration"])
        static let property = SymbolSet(kinds: ["property_declaration"])
        static let modifiers = SymbolSet(kinds: ["modifiers"])
        static let attribute = SymbolSet(kinds: ["attribute"])
        static let typeAnnotation = SymbolSet(kinds: ["type_annotation"])
        static let ownershipModifier = SymbolSet(kinds: ["ownership_modifier"])
        /// The `!` of an implicitly unwrapped type.
        static let forceUnwrap = SymbolSet(kinds: ["!"])
        static let parameter = SymbolSet(kinds: ["parameter"])
        /// Where names are declared for the code inside alone.
        static let scopes = SymbolSet(kinds: ["function_declaration", "lambda_literal", "init_declaration", "deinit_declaration", "computed_property",
                                              "willset_clause", "didset_clause", "statements", "if_statement", "for_statement", "while_statement",
                                              "repeat_while_statement", "switch_entry", "catch_block", "do_statement"])
        /// What holds no code the reading looks at (no call, no declaration of a local): not walked.
        static let opaque = SymbolSet(kinds: ["type_annotation", "modifiers", "import_declaration", "comment", "multiline_comment"])
        /// Parents under which a name is bound: a pattern, a closure's parameter.
        static let bindings = SymbolSet(kinds: ["pattern", "lambda_parameter"])
        /// What wraps a value without changing which it is: `label!`, `label?`, `(label)`.
        static let wrappers = SymbolSet(kinds: ["postfix_expression", "optional_chaining_marker", "force_unwrap_expression", "parenthesized_expression"])
    }

    /// A loop over a collection: `xs.forEach { x in … }` (or `$0`) and `for x in xs { … }`.
    static func loop(_ node: Node) -> (collection: Node, element: String, body: Node)? {
        if node.kind == "call_expression", let callee = node.child(at: 0), callee.kind == "navigation_expression",
           callee.child(field: "suffix")?.child(field: "suffix")?.text == "forEach", let collection = callee.child(field: "target"),
           let suffix = node.child(at: 1),
           let closure = suffix.children.first(where: { $0.kind == "lambda_literal" })
            ?? suffix.children.first(where: { $0.kind == "annotated_lambda" })?.children.first(where: { $0.kind == "lambda_literal" }) {
            let element = closure.child(field: "type")?.children.first?.children.first?.child(field: "name")?.text ?? "$0"
            return (collection, element, closure)
        }
        if node.kind == "for_statement", let item = node.child(field: "item")?.text, let collection = node.child(field: "collection") {
            return (collection, item, node)
        }
        return nil
    }

    /// Whether a loop's body removes its element from its superview.
    static func removesEach(_ body: Node, element: String) -> Bool {
        var removes = false
        body.walk { inner in
            if Symbols.call.contains(inner.symbol), let callee = inner.child(at: 0), Symbols.navigation.contains(callee.symbol),
               callee.child(field: "suffix")?.child(field: "suffix")?.text == "removeFromSuperview",
               callee.child(field: "target")?.text == element { removes = true }
            return !removes
        }
        return removes
    }

    /// The views `[a, b].forEach { $0.removeFromSuperview() }` (or `for v in [a, b]`) removes.
    /// - Parameter naming: the member a value names (see `readCode`), if any.
    static func listRemoved(by loop: (collection: Node, element: String, body: Node), naming: (Node) -> String?) -> [String]? {
        guard loop.collection.kind == "array_literal", removesEach(loop.body, element: loop.element) else { return nil }
        return loop.collection.namedChildren.compactMap(naming)
    }

    /// The container whose subviews a statement removes:
    /// `x.arrangedSubviews.forEach { $0.removeFromSuperview() }` (or `subviews`, a named closure
    /// parameter) and `for view in x.subviews { view.removeFromSuperview() }`.
    static func containerEmptied(by loop: (collection: Node, element: String, body: Node), naming: (Node) -> String?) -> String? {
        guard loop.collection.kind == "navigation_expression",
              ["subviews", "arrangedSubviews"].contains(loop.collection.child(field: "suffix")?.child(field: "suffix")?.text ?? ""),
              let target = loop.collection.child(field: "target"), removesEach(loop.body, element: loop.element) else { return nil }
        return naming(target)
    }

    /// Nodes whose declarations are seen only inside them.
    static let blockKinds: Set<String> = ["statements", "lambda_literal", "function_declaration", "if_statement", "for_statement", "while_statement",
                                          "switch_entry", "catch_block", "do_statement", "computed_property", "init_declaration"]

    /// Whether a bare name is a local of the code around it (a parameter, a `let`/`var`, a
    /// closure parameter) declared before it, rather than a member.
    /// - Parameter countingSelfBindings: a binding of the member's own value (`guard let label =
    ///   label`, `if let label`) declares a local too: after it, the name is no longer the
    ///   (optional) member but its unwrapped value, which a rewrite must leave alone.
    static func isLocal(_ name: Node, countingSelfBindings: Bool = false) -> Bool {
        let text = unticked(name.text)
        for scope in name.ancestors where ["function_declaration", "lambda_literal", "init_declaration", "computed_property", "for_statement", "if_statement", "guard_statement", "statements"].contains(scope.kind) {
            var declares = false
            scope.walk { inner in
                if declares || inner.byteRange.lowerBound >= name.byteRange.lowerBound { return false }
                if inner.kind == "simple_identifier", unticked(inner.text) == text, let parent = inner.parent,
                   parent.kind == "pattern" || parent.kind == "lambda_parameter" || parent.kind == "parameter"
                    || inner.fieldName == "bound_identifier" && (countingSelfBindings || !Self.bindsItself(inner, named: text, in: parent)) {
                    declares = true
                }
                // A block that does not hold the name (an earlier `if`'s body) keeps its locals.
                let holdsName = inner.byteRange.contains(name.byteRange.lowerBound)
                return !declares && inner.kind != "class_declaration" && (holdsName || !Self.blockKinds.contains(inner.kind))
            }
            if declares { return true }
        }
        return false
    }
}
