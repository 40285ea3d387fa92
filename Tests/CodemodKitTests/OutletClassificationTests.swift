import Foundation
@testable import CodemodKit
import InterfaceBuilder
import SwiftTree
import Testing
import Workspace

/// Verdicts from storyboards and Swift code (issue 26), for the shapes a hostile review found
/// judged wrongly: a root view or content view emptied, `[a, b].forEach` removals, a
/// module-qualified superclass, `@objc(Name)` classes, a view that loads its own xib and has
/// connections where it is placed, selectors with prepositions, backticked names.
@Suite struct OutletClassificationTests {
    func judge(_ swift: String, _ documents: [(String, String)]) throws -> OutletClassification {
        let ib = try documents.map { try IBDocument(path: $0.0, data: Data($0.1.utf8)) }
        return OutletClassification(documents: ib, swift: [(path: "V.swift", outlets: SwiftOutlets(Parser().parse(swift)))])
    }

    func verdicts(_ classification: OutletClassification) -> [String: String] {
        Dictionary(uniqueKeysWithValues: classification.entries.map { ("\($0.outlet.className).\($0.outlet.name)", $0.verdict.name) })
    }

    static func storyboard(_ objects: String) -> String {
        """
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0">
            <scenes><scene sceneID="s"><objects>
        \(objects)
            </objects></scene></scenes>
        </document>
        """
    }

    /// Many files' outlets are judged in parallel: the same verdicts, reasons and order as one by one.
    @Test func judgingInParallelJudgesAsOneByOne() throws {
        let parser = Parser()
        var swift: [(path: String, outlets: SwiftOutlets)] = []
        var objects = ""
        for index in 0..<90 {
            // A base class per ten files, its subclasses removing, re-adding or leaving the outlet.
            let code = index % 10 == 0
                ? "class Base\(index): UIView { @IBOutlet weak var label: UILabel!\n @IBOutlet var chips: [UIView]! }\n"
                : """
                  class View\(index): Base\(index / 10 * 10) {
                      @IBOutlet weak var icon\(index): UIImageView!
                      func hide() { \(index % 3 == 0 ? "label.removeFromSuperview()" : index % 3 == 1 ? "icon\(index).removeFromSuperview(); addSubview(icon\(index))" : "") }
                  }

                  """
            swift.append((path: "Views/V\(index).swift", outlets: SwiftOutlets(parser.parse(code))))
            if index % 10 != 0, index % 4 != 0 {
                let connected = index % 5 == 0 ? "" : "<outlet property=\"label\" destination=\"l\(index)\" id=\"c\(index)\"/>"
                objects += """
                    <view id="v\(index)" customClass="View\(index)"><subviews><label id="l\(index)"/></subviews>
                        <connections>\(connected)<outlet property="icon\(index)" destination="l\(index)" id="d\(index)"/></connections></view>

                    """
            }
        }
        let documents = [try IBDocument(path: "Main.storyboard", data: Data(Self.storyboard(objects).utf8))]
        func judged(jobs: Int) -> [String] {
            OutletClassification(documents: documents, swift: swift, jobs: jobs).entries.map { "\($0.file):\($0.outlet.line) \($0.verdict.name) \($0.reason)" }
        }
        let alone = judged(jobs: 1)
        #expect(alone.count == 99, "\(alone.count)")
        #expect(Set(alone.map { $0.split(separator: " ")[1] }).count >= 4, "\(Set(alone.map { $0.split(separator: " ")[1] }))")
        #expect(judged(jobs: 2) == alone)
        #expect(judged(jobs: 8) == alone)
    }

    @Test func emptyingARootViewOrAContentViewRemovesItsSubviews() throws {
        let classification = try judge("""
            class RootVC: UIViewController {
                @IBOutlet weak var titleLabel: UILabel!
                func reset() { view.subviews.forEach { $0.removeFromSuperview() } }
            }
            class PairVC: UIViewController {
                @IBOutlet weak var a: UIView!
                @IBOutlet weak var b: UIView!
                @IBOutlet weak var c: UIView!
                func hide() { [a, b].forEach { $0.removeFromSuperview() } }
            }
            """, [("Main.storyboard", Self.storyboard("""
                <viewController id="r" customClass="RootVC">
                    <view key="view" id="rv"><subviews><label id="t"/></subviews></view>
                    <connections><outlet property="titleLabel" destination="t" id="o1"/></connections>
                </viewController>
                <viewController id="p" customClass="PairVC">
                    <view key="view" id="pv"><subviews><view id="a"/><view id="b"/><view id="c"/></subviews></view>
                    <connections>
                        <outlet property="a" destination="a" id="o2"/><outlet property="b" destination="b" id="o3"/><outlet property="c" destination="c" id="o4"/>
                    </connections>
                </viewController>
            """))])
        #expect(verdicts(classification) == ["RootVC.titleLabel": "removed", "PairVC.a": "removed", "PairVC.b": "removed", "PairVC.c": "guaranteed"])
    }

    @Test func classesAreFoundByTheirSuperclassAndObjectiveCNames() throws {
        let classification = try judge("""
            class Base: UIViewController { @IBOutlet weak var header: UILabel! }
            class Sub: App.Base {}
            @objc(ObjCCard) class CardV: UIView { @IBOutlet weak var title: UILabel! }
            class Host: UIViewController {
                @IBOutlet weak var `default`: UIButton!
                @IBAction func didTap(on sender: Any) {}
                @IBAction func send(for event: Any) {}
                @IBAction func tap(forEvent event: Any) {}
            }
            """, [("Main.storyboard", Self.storyboard("""
                <viewController id="s" customClass="Sub"><view key="view" id="sv"/></viewController>
                <view id="c" customClass="ObjCCard"/>
                <viewController id="h" customClass="Host">
                    <view key="view" id="hv"><subviews><button id="b">
                        <connections>
                            <action selector="didTapOn:" destination="h" id="x1"/>
                            <action selector="sendFor:" destination="h" id="x2"/>
                            <action selector="tapForEvent:" destination="h" id="x3"/>
                        </connections>
                    </button></subviews></view>
                    <connections><outlet property="default" destination="b" id="o1"/></connections>
                </viewController>
            """))])
        #expect(verdicts(classification) == ["Base.header": "not-connected", "CardV.title": "not-connected", "Host.default": "guaranteed"])
        #expect(classification.stale.isEmpty, "\(classification.stale)")
        // And back, for a file read by its text: the names a selector's method may have.
        #expect(SwiftOutlets.methodNames(forSelector: "tapForEvent:").contains("tap"))
        #expect(SwiftOutlets.methodNames(forSelector: "closeWithSender:").contains("close"))
        #expect(SwiftOutlets.methodNames(forSelector: "refresh:") == ["refresh"])
    }

    @Test func aViewThatLoadsItsOwnXibIsConnectedByItWhereverItIsPlaced() throws {
        let classification = try judge("""
            class OwnerView: UIView {
                @IBOutlet weak var inner: UILabel!
                @IBOutlet weak var delegate: AnyObject!
            }
            """, [
                ("Main.storyboard", Self.storyboard("""
                    <viewController id="vc"><view key="view" id="v"><subviews>
                        <view id="o" customClass="OwnerView"><connections><outlet property="delegate" destination="vc" id="d"/></connections></view>
                    </subviews></view></viewController>
                """)),
                ("OwnerView.xib", """
                    <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0"><objects>
                        <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="OwnerView">
                            <connections><outlet property="inner" destination="l" id="i"/></connections>
                        </placeholder>
                        <view id="root"><subviews><label id="l"/></subviews></view>
                    </objects></document>
                    """),
            ])
        #expect(verdicts(classification) == ["OwnerView.inner": "guaranteed", "OwnerView.delegate": "guaranteed"])
    }

    @Test func aFileWithoutOutletsIsReadForItsClassesAlone() {
        let text = """
            import UIKit

            @available(iOS 13, *) public final class FeedCell: App.BaseCell {
                class func make() -> FeedCell { FeedCell() }
                class var identifier: String { "feed" }
            }
            open class Box<T>: Container<T> {}
            protocol Loader: class {}
            class Plain {}
            """
        let bytes = Array(text.utf8)
        #expect(!SwiftOutlets.mayHoldOutlets(bytes))
        let light = SwiftOutlets(classesOf: bytes)
        #expect(light.classes.map { "\($0.name):\($0.superclass ?? "-")@\($0.line)" } == ["FeedCell:BaseCell@3", "Box:Container@7", "Plain:-@9"])
        // The parse says the same of them.
        let parsed = SwiftOutlets(Parser().parse(text))
        #expect(parsed.classes.map { "\($0.name):\($0.superclass ?? "-")@\($0.line)" } == light.classes.map { "\($0.name):\($0.superclass ?? "-")@\($0.line)" })
        #expect(SwiftOutlets.mayHoldOutlets(Array("@IBOutlet weak var x: UIView!".utf8)))
        // A byte order mark is no part of the first line; a line that says "class" many times is
        // read once (and quickly); CRLF counts lines as LF does.
        let marked = SwiftOutlets(classesOf: [0xEF, 0xBB, 0xBF] + Array("class SubCell: BaseCell {}\r\nlet kinds = [\"class\", \"class\"]\r\nclass Other {}\r\n".utf8))
        #expect(marked.classes.map { "\($0.name):\($0.superclass ?? "-")@\($0.line)" } == ["SubCell:BaseCell@1", "Other:-@3"])
        let long = SwiftOutlets(classesOf: Array(("let a = [" + Array(repeating: "\"class\"", count: 50_000).joined(separator: ",") + "]\nclass Late: Base {}\n").utf8))
        #expect(long.classes.map { "\($0.name)@\($0.line)" } == ["Late@2"])
        // A superclass with generic arguments is read; with nested ones, the file is read whole.
        let generic = "class LabelCell: HintCell<UILabel> { }\nfinal class ViewCell: Base.HintCell<UIView, Int> {}\n"
        let genericLight = SwiftOutlets(classesOf: Array(generic.utf8))
        #expect(!genericLight.textMayMissTypes)
        #expect(genericLight.classes.map { "\($0.name):\($0.superclass ?? "-")" } == ["LabelCell:HintCell", "ViewCell:HintCell"])
        #expect(SwiftOutlets(Parser().parse(generic)).classes.map { "\($0.name):\($0.superclass ?? "-")" } == ["LabelCell:HintCell", "ViewCell:HintCell"])
        #expect(SwiftOutlets(classesOf: Array("class Nested: Box<Array<Int>> {}\n".utf8)).textMayMissTypes)
        // An extension of a name the expression does not spell whole, and a class inside a block
        // comment: unsure, so read whole.
        #expect(SwiftOutlets(classesOf: Array("extension VCé { func go() { hide(label) } }\n".utf8)).textMayMissTypes)
        #expect(SwiftOutlets(classesOf: Array("import UIKit\n/*\nclass OldVC: VC {\n}\n*/\nfinal class Something {}\n".utf8)).textMayMissTypes)
    }

    /// The text reading against the parse (the oracle) on every Swift file of `Corpus/` (and of
    /// the folders `SWIFTMOD_TEXT_READING_ROOTS` names, `:`-separated: a real app): where the
    /// text reading is sure of a file (`textMayMissTypes` false), its classes, superclasses,
    /// `@objc(Name)`s and lines are the parse's.
    @Test func theTextReadingOfEveryCorpusFileIsTheParses() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Corpus").standardized.path
        let roots = [corpus] + (ProcessInfo.processInfo.environment["SWIFTMOD_TEXT_READING_ROOTS"]?.split(separator: ":").map(String.init) ?? [])
        var sure = 0
        for path in try FileWalker().swiftFiles(under: roots) {
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { continue }
            let light = SwiftOutlets(classesOf: [UInt8](data))
            guard !light.textMayMissTypes else { continue }
            sure += 1
            let whole = SwiftOutlets(Parser().parse(text))
            func described(_ file: SwiftOutlets) -> [String] { file.classes.map { "\($0.name):\($0.superclass ?? "-"):\($0.objcName ?? "-")@\($0.line)" } }
            #expect(described(light) == described(whole), "\(path)")
        }
        #expect(sure > 50)
    }

    /// The byte readers of `extension` and `import` lines (`extensionNames`, `extensionsAllPlain`,
    /// `plainImport`) read what the regular expressions they stand in for read: on tricky lines,
    /// on random lines made of their pieces, and on every line of `Corpus/` that holds the word.
    @Test func theByteReadersOfLinesReadAsTheExpressions() throws {
        func expression(_ regex: NSRegularExpression, _ line: String) -> [String] {
            regex.matches(in: line, range: NSRange(line.startIndex..., in: line)).compactMap { Range($0.range(at: 1), in: line).map { String(line[$0]) } }
        }
        func check(_ line: String) {
            let bytes = Array(line.utf8)
            let names = SwiftOutlets.extensionNames(in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
            #expect(names == expression(SwiftOutlets.extensionDeclaration, line), "\(line.debugDescription)")
            if SwiftOutlets.extensionsAllPlain(bytes) {
                let loose = SwiftOutlets.looseExtension.numberOfMatches(in: line, range: NSRange(line.startIndex..., in: line))
                #expect(loose == names.count, "\(line.debugDescription)")
            }
            if let module = SwiftOutlets.plainImport(bytes) {
                #expect([module] == expression(SwiftOutlets.importDeclaration, line), "\(line.debugDescription)")
            }
        }
        let tricky = [
            "extension Foo {", "  extension A.B.C: P {", "public extension UIView{", "extension\tX", "extension  ", "extension", "extension\r",
            "x.extension Foo", "@extension Foo", "`extension` Foo", "\"extension Foo\"", "myextension Foo", "extension 9x", "extension _x",
            "extension Foo { } extension Bar {", "extension A.extension B", "extension Xextension Y", "extension é", "extension Aé", "extension A`",
            "import UIKit", "  import AppKit\r", "import UIKit // x", "import class UIKit.UIView", "import UIKit; import AppKit", "@testable import UIKit",
            "import  Cocoa\t", "import\tUIKitExtras", "import 9", "import", "import ", "\u{FEFF}import UIKit", "importUIKit", "import struct",
            "import UIKit.UIView", "import UIKit\u{00A0}",
        ]
        for line in tricky { check(line) }
        // Random lines of the pieces that matter, with a fixed seed.
        var generator = SplitMix(seed: 26)
        let pieces = ["extension", "import", " ", "\t", "\r", "Foo", "A.B", ".", "@", "`", "\"", "_", "9", "é", ";", "{", "class", "UIKit", "Cocoa", "//", "\u{FEFF}", "x"]
        for _ in 0..<20000 {
            let line = (0..<Int(generator.next() % 7 + 1)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            check(line)
        }
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Corpus").standardized.path
        var lines = 0
        for path in try FileWalker().swiftFiles(under: [corpus]) {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) where line.contains("extension") || line.contains("import") {
                check(String(line))
                lines += 1
            }
        }
        #expect(lines > 100)
    }

    /// View code, as the text tells it: each way the tree reading finds a removal, a re-adding or
    /// a helper holds one of its texts; a view's `layoutSubviews` or a stack view's type does not.
    @Test func viewCodeIsToldByTheTextsOfRemovalsAndAdders() {
        for code in ["v.removeFromSuperview()", "addSubview(v)", "view.insertSubview(v, at: 0)", "stack.addArrangedSubview(v)",
                     "stack.insertArrangedSubview(v, at: 1)", "UIStackView(arrangedSubviews: [v])", "arrangedSubviews.forEach { $0.removeFromSuperview() }"] {
            #expect(SwiftOutlets.mayHoldViewCode(Array(code.utf8)), "\(code)")
        }
        for code in ["override func layoutSubviews() { super.layoutSubviews() }", "let stack: UIStackView", "view.bringSubviewToFront(v)",
                     "for v in subviews { v.alpha = 0 }"] {
            #expect(!SwiftOutlets.mayHoldViewCode(Array(code.utf8)), "\(code)")
        }
        // A file whose text holds none is read the same with its code deferred (`scan`) as whole,
        // but for the calls it defers.
        let text = "class V: UIView {\n    @IBOutlet weak var a: UILabel!\n    override func layoutSubviews() { super.layoutSubviews(); bringSubviewToFront(a) }\n}\n"
        let deferred = SwiftOutlets(Parser().parse(text), readingUses: false, deferringCalls: true)
        let whole = SwiftOutlets(Parser().parse(text), readingUses: false)
        #expect(deferred.helperCallsUnread && deferred.removals.isEmpty && whole.removals.isEmpty && whole.additions.isEmpty && whole.helpers.isEmpty)
    }

    /// A small random number generator of a fixed seed (SplitMix64).
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A file that declares no outlet or action is read by its text first (`scan`), and whole
    /// only where one of its types matters: a class
    /// with outlets, its subclasses and superclasses, a class a storyboard names (by its
    /// `@objc(Name)` too), an outlet's type, `UIView`.
    @Test func filesWithoutOutletsAreReadWholeWhereTheirTypesMatter() throws {
        func light(_ text: String) -> SwiftOutlets { SwiftOutlets(classesOf: Array(text.utf8)) }
        let vc = SwiftOutlets(Parser().parse("""
            class ProfileVC: BaseVC {
                @IBOutlet weak var nameLabel: UILabel!
                @IBOutlet weak var stack: UIStackView!
            }
            """))
        let files: [String: SwiftOutlets] = [
            "extension": light("extension ProfileVC {\n    @objc func tap() { nameLabel.removeFromSuperview() }\n}\n"),
            "subclass": light("final class SpecialVC: ProfileVC {\n    @objc func x() {}\n}\n"),
            "base": light("class BaseVC: UIViewController {\n    @objc func help() {}\n}\n"),
            "any view": light("public extension UIView {\n    func hide(_ v: UIView) { v.removeFromSuperview() }\n}\n"),
            "outlet type": light("extension UIStackView {\n    func clear() { arrangedSubviews.forEach { $0.removeFromSuperview() } }\n}\n"),
            "named by its Objective-C name": light("@objc(LegacyScreen)\nclass Screen: UIViewController {\n    @objc func tap() {}\n}\n"),
            "unrelated": light("class Poller: NSObject {\n    @objc func tick() {}\n}\nextension Poller { func addSubview() {} }\n"),
            "unrelated view": light("class Spinner: UIView { @objc func spin() {} }\n"),
        ]
        #expect(files["named by its Objective-C name"]?.classes.first?.objcName == "LegacyScreen")
        #expect(files["extension"]?.deferredExtensions == ["ProfileVC"] && files["unrelated"]?.deferredExtensions == ["Poller"])
        // A file without outlet-related text is held back too (its code may call a helper), and
        // read whole where it matters; one read whole is not held back.
        let plain = light("class Plain: UIView {}\n")
        #expect(plain.deferredExtensions == [] && vc.deferredExtensions == nil)
        let storyboard = try IBDocument(path: "Main.storyboard", data: Data(Self.storyboard("""
            <viewController id="v" customClass="LegacyScreen" customModule="App"/>
            """).utf8))
        let relevant = RelevantTypes(documents: [storyboard], swift: [vc, plain] + Array(files.values))
        let needed = files.filter { relevant.needsWholeReading($0.value) }.keys.sorted()
        #expect(needed == ["any view", "base", "extension", "named by its Objective-C name", "outlet type", "subclass"], "\(needed)")
        #expect(!relevant.needsWholeReading(plain) && !relevant.needsWholeReading(vc))
        // The bytes keep what was held back.
        var writer = ByteWriter()
        files["extension"]!.write(to: &writer)
        var reader = ByteReader(writer.bytes)
        #expect(try SwiftOutlets(from: &reader).deferredExtensions == ["ProfileVC"])
    }

    /// What the text reading cannot read whole makes the file read whole wherever it is (a
    /// hostile review's shapes); what it reads, or what only looks like a declaration, does not.
    @Test func aDeclarationTheTextCannotReadMakesTheFileReadWhole() {
        let unreadable = [
            "final class Sub:\n    VC {\n}\n", "final class Sub\n    : VC {\n}\n", "struct Helper {}; final class Sub: VC {}\n",
            "let x = 1; final class Sub: VC {}\n", "@available(*, deprecated, renamed: \"make()\") final class Sub: VC {}\n",
            "final class Sub<T: Box<Int>>: VC {}\n", "final class Sub: /* legacy */ VC {}\n", "final class Écran: VC {}\n",
            "final class `Sub`: VC {}\n", "extension\n    VC { func drop() {} }\n", "extension /* legacy */ VC {}\n",
            "@objc(LegacyScreen)\nlet marker = 1\nfinal class Screen: UIViewController {}\n",
        ]
        for text in unreadable {
            #expect(SwiftOutlets(classesOf: Array(text.utf8)).textMayMissTypes, "\(text)")
        }
        let readable = [
            "package class Sub: VC {}\n", "public final class Sub: App.VC, Themed {}\n", "class Plain {}\n",
            "/// A class that loads.\n// class Old: VC {}\n/* The class below */ final class Sub: VC {}\n",
            " * a class of views\nlet kinds = [\"class\", \"struct\"]\nclass func make() {}\n",
            "@objc(LegacyScreen)\n// Interface Builder knows it by its old name.\n@MainActor\nfinal class Screen: UIViewController {}\n",
            "@available(*, deprecated, message: \"use NewVC = the new one\")\n@objc(OldVC) class VC: UIViewController {}\n",
            "extension VC: Themed {}\nextension UIView {\n}\n",
        ]
        for text in readable {
            let read = SwiftOutlets(classesOf: Array(text.utf8))
            #expect(!read.textMayMissTypes, "\(text)")
        }
        #expect(SwiftOutlets(classesOf: Array("package class Sub: VC {}\n".utf8)).classes.map(\.name) == ["Sub"])
        let screen = SwiftOutlets(classesOf: Array("@objc(LegacyScreen)\n// Interface Builder knows it by its old name.\n@MainActor\nfinal class Screen: UIViewController {}\n".utf8))
        #expect(screen.classes.map { "\($0.name) \($0.objcName ?? "-") \($0.line)" } == ["Screen LegacyScreen 1"])
        // Such a file is read whole whatever its types.
        var unsure = SwiftOutlets(classesOf: Array("final class Sub:\n    VC {}\n".utf8))
        #expect(RelevantTypes(documents: [], swift: [unsure]).needsWholeReading(unsure))
        unsure.textMayMissTypes = false
        #expect(!RelevantTypes(documents: [], swift: [unsure]).needsWholeReading(unsure))
    }

    @Test func aStaticHelperCalledThroughSelfOrTheClassRemoves() throws {
        let classification = try judge("""
            class VC: UIViewController {
                @IBOutlet weak var label: UILabel!
                @IBOutlet weak var badge: UILabel!
                @IBOutlet weak var title: UILabel!
                static func hide(_ view: UIView) { view.removeFromSuperview() }
                func a() { Self.hide(label) }
                func b() { VC.hide(badge) }
                func c() { Other.hide(title) }
            }
            """, [])
        // (`Other.hide` is another type's helper.)
        #expect(verdicts(classification) == ["VC.label": "removed", "VC.badge": "removed", "VC.title": "unknown"])
    }

    @Test func anImportInABlockCommentIsNoImport() {
        let commented = "import Foundation\n/* Once:\nimport AppKit\n/* nested */\nimport Cocoa\n*/\nimport UIKit\n"
        #expect(SwiftOutlets.platform(of: Array(commented.utf8)) == .uiKit)
        #expect(SwiftOutlets.platform(of: Array("/* import UIKit */ import AppKit\n".utf8)) == .appKit)
        #expect(SwiftOutlets.platform(of: Array("import UIKit\n/* unclosed\nimport AppKit\n".utf8)) == .uiKit)
        #expect(SwiftOutlets.blockComments(in: Array("a /* b /* c */ d */ e */".utf8)) == [2..<19])
    }

    @Test func documentsRoundTripThroughBytes() throws {
        let document = try IBDocument(path: "Main.storyboard", data: Data(Self.storyboard("""
            <viewController id="v" customClass="ProfileVC" customModule="App" customModuleProvider="target">
                <view key="view" id="root"><subviews><label id="l"/></subviews></view>
                <connections>
                    <outlet property="nameLabel" destination="l" id="c1"/>
                    <action selector="tap:" destination="v" id="c2"/>
                </connections>
            </viewController>
            <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="Owner"/>
            """).utf8))
        var writer = ByteWriter()
        document.write(to: &writer)
        var reader = ByteReader(writer.bytes)
        let back = try IBDocument(from: &reader)
        #expect(reader.isAtEnd)
        #expect(back.path == document.path && back.platform == document.platform && back.isStoryboard == document.isStoryboard)
        #expect(back.objects == document.objects && back.connections == document.connections && back.object("l") == document.object("l"))
        #expect(document.objects.count >= 4 && document.connections.count == 2)
        for cut in stride(from: 0, to: writer.bytes.count, by: 5) {
            var short = ByteReader(Array(writer.bytes.prefix(cut)))
            #expect(throws: ByteReader.Truncated.self) { try IBDocument(from: &short) }
        }
    }

    /// Views taken out and put back through helpers, in the class or in another file's
    /// extension: `hide(label)`, `stack.clear()`, `show(label)`; a local named like an outlet,
    /// given to the same helper, is not the outlet.
    @Test func helpersThatRemoveEmptyOrAddBack() throws {
        let view = """
            import UIKit
            final class ReceiptView: UIView {
                @IBOutlet weak var stack: UIStackView!
                @IBOutlet weak var totalLabel: UILabel!
                @IBOutlet weak var taxLabel: UILabel!
                @IBOutlet weak var noteLabel: UILabel!
                @IBOutlet weak var footerLabel: UILabel!
                func reset() {
                    hide(totalLabel)
                    stack.clear()
                    show(noteLabel)
                    let footerLabel = UILabel()
                    hide(footerLabel)
                }
                private func hide(_ view: UIView) { view.removeFromSuperview() }
            }
            """
        let helpers = """
            import UIKit
            extension UIStackView {
                func clear() { arrangedSubviews.forEach { $0.removeFromSuperview() } }
                func show(_ view: UIView) { addArrangedSubview(view) }
            }
            extension UIView {
                func show(_ view: UIView) { addSubview(view) }
            }
            """
        let xib = """
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0">
                <objects>
                    <view id="r" customClass="ReceiptView">
                        <subviews>
                            <stackView id="s"><subviews><label id="t"/><label id="x"/></subviews></stackView>
                            <label id="n"/><label id="f"/>
                        </subviews>
                        <connections>
                            <outlet property="stack" destination="s" id="o1"/>
                            <outlet property="totalLabel" destination="n" id="o2"/>
                            <outlet property="taxLabel" destination="x" id="o3"/>
                            <outlet property="noteLabel" destination="t" id="o4"/>
                            <outlet property="footerLabel" destination="f" id="o5"/>
                        </connections>
                    </view>
                </objects>
            </document>
            """
        let classification = OutletClassification(documents: [try IBDocument(path: "Receipt.xib", data: Data(xib.utf8))],
                                                  swift: [(path: "ReceiptView.swift", outlets: SwiftOutlets(Parser().parse(view))),
                                                          (path: "Helpers.swift", outlets: SwiftOutlets(Parser().parse(helpers)))])
        #expect(verdicts(classification) == [
            "ReceiptView.stack": "guaranteed",
            // `hide(totalLabel)`: the private helper removes what it is given.
            "ReceiptView.totalLabel": "removed",
            // In the stack that `stack.clear()` (another file's extension) empties.
            "ReceiptView.taxLabel": "removed",
            // In it too, and put back by `show(noteLabel)`.
            "ReceiptView.noteLabel": "removed-and-re-added",
            // The local `footerLabel` is hidden, not the outlet.
            "ReceiptView.footerLabel": "guaranteed",
        ])
    }

    /// A xib of one view of a class, with a label connected to each outlet.
    static func viewXib(of className: String, connecting outlets: [String]) -> String {
        let labels = outlets.indices.map { "<label id=\"l\($0)\"/>" }.joined()
        let connections = outlets.enumerated().map { "<outlet property=\"\($1)\" destination=\"l\($0)\" id=\"o\($0)\"/>" }.joined(separator: "\n")
        return "<document type=\"com.apple.InterfaceBuilder3.CocoaTouch.XIB\" version=\"3.0\"><objects>\n<view id=\"r\" customClass=\"\(className)\">"
            + "<subviews>\(labels)</subviews>\n<connections>\n\(connections)\n</connections></view>\n</objects></document>\n"
    }

    /// Backticked names are the names: `` extension `ReceiptView` ``, a helper declared as
    /// `` func `hide`(_:) `` or called as `` `hide`(label) ``. And a file whose `class` or
    /// `extension` is followed by what only Swift reads as space (a vertical tab, a comment) is
    /// read whole, where the text cannot read its types (a hostile review's cases).
    @Test func backtickedNamesAndOddlySpacedKeywords() throws {
        let view = """
            import UIKit
            final class `ReceiptView`: UIView {
                @IBOutlet weak var totalLabel: UILabel!
                @IBOutlet weak var taxLabel: UILabel!
                @IBOutlet weak var noteLabel: UILabel!
                func reset() { `hide`(taxLabel) }
                private func `hide`(_ view: UIView) { view.removeFromSuperview() }
            }
            extension `ReceiptView` {
                func drop() { totalLabel.removeFromSuperview() }
            }
            """
        let xib = Self.viewXib(of: "ReceiptView", connecting: ["totalLabel", "taxLabel", "noteLabel"])
        let classification = OutletClassification(documents: [try IBDocument(path: "Receipt.xib", data: Data(xib.utf8))],
                                                  swift: [(path: "ReceiptView.swift", outlets: SwiftOutlets(Parser().parse(view)))])
        #expect(verdicts(classification) == [
            "ReceiptView.totalLabel": "removed", "ReceiptView.taxLabel": "removed", "ReceiptView.noteLabel": "guaranteed",
        ])
        for text in ["extension\u{0B}ReceiptView {\n}\n", "extension/* the view */ReceiptView {\n}\n", "extension\u{0C}ReceiptView {}\n",
                     "extension Other {}; extension\u{0B}ReceiptView {}\n", "final class\u{0B}Receipt: UIView {}\n", "class/**/Receipt: UIView {}\n",
                     "import UIKit\rclass\rReceipt: UIView {}\r", "import UIKit\rextension\rReceiptView {}\r"] {
            #expect(SwiftOutlets(classesOf: Array(text.utf8)).textMayMissTypes, "\(text.debugDescription)")
        }
        for text in ["extension ReceiptView {}\n", "// a subclass/**/ of it\n", "let extension_ = 1\n", "// the class/struct split\n", "class\r\nReceipt: UIView {}\r\n"] {
            #expect(SwiftOutlets(classesOf: Array(text.utf8)).textMayMissTypes == text.hasPrefix("class\r\n"), "\(text.debugDescription)")
        }
        // A backticked action is its selector; a backticked use of an outlet is the outlet.
        let actions = SwiftOutlets(Parser().parse("class C: UIViewController {\n    @IBOutlet weak var b: UILabel!\n    @IBAction func `default`(_ sender: Any) { `b`.removeFromSuperview() }\n}\n"))
        #expect(actions.actions["C"] == ["default:"] && actions.removals.map(\.outlet) == ["b"], "\(actions.actions) \(actions.removals)")
    }

    /// Helpers are told by who declares them: another type's method of the same name is not the
    /// class's; a stack view's `reset()` is not a scroll view's; overloads each count; locals of
    /// a block, a `didSet` or a `deinit` are not the outlet, but `guard let label = label` is it.
    @Test func helpersAreTheirOwnersAndLocalsTheirBlocks() throws {
        let view = """
            import UIKit
            final class FormView: UIView {
                @IBOutlet weak var stack: UIStackView!
                @IBOutlet weak var a: UILabel!
                @IBOutlet weak var b: UILabel!
                @IBOutlet weak var c: UILabel!
                @IBOutlet weak var d: UILabel!
                @IBOutlet weak var e: UILabel!
                @IBOutlet weak var f: UILabel!
                var other: UILabel? { didSet { if let e = other { fade(e) } } }
                func go(_ labels: [UILabel]) {
                    hide(a)
                    stack.reset()
                    fade(true, b)
                    for c in labels { print(c) }
                    hide(c)
                    guard let d = d else { return }
                    fade(d)
                }
                deinit { let f = UILabel(); fade(f) }
                func hide(_ view: UIView) { view.isHidden = true }
                func fade(_ view: UIView) { view.removeFromSuperview() }
                func fade(_ animated: Bool, _ view: UIView) { view.removeFromSuperview() }
            }
            """
        let others = """
            import UIKit
            final class Animator: NSObject {
                func hide(_ view: UIView) { view.removeFromSuperview() }
            }
            extension UIScrollView {
                func reset() { subviews.forEach { $0.removeFromSuperview() } }
            }
            """
        let xib = """
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0"><objects>
            <view id="r" customClass="FormView"><subviews>
                <stackView id="s"><subviews><label id="in"/></subviews></stackView>
                <label id="1"/><label id="2"/><label id="3"/><label id="4"/><label id="5"/><label id="6"/>
            </subviews><connections>
                <outlet property="stack" destination="s" id="o0"/><outlet property="a" destination="1" id="o1"/>
                <outlet property="b" destination="2" id="o2"/><outlet property="c" destination="3" id="o3"/>
                <outlet property="d" destination="4" id="o4"/><outlet property="e" destination="5" id="o5"/>
                <outlet property="f" destination="6" id="o6"/>
            </connections></view>
            </objects></document>
            """
        let classification = OutletClassification(documents: [try IBDocument(path: "Form.xib", data: Data(xib.utf8))],
                                                  swift: [(path: "FormView.swift", outlets: SwiftOutlets(Parser().parse(view))),
                                                          (path: "Others.swift", outlets: SwiftOutlets(Parser().parse(others)))])
        #expect(verdicts(classification) == [
            "FormView.stack": "guaranteed",
            // Its own `hide` only hides (the animator's removes).
            "FormView.a": "guaranteed",
            // The second overload of `fade` removes it.
            "FormView.b": "removed",
            // The loop's `c` is gone after the loop: `hide(c)` is the outlet's (and hides it).
            "FormView.c": "guaranteed",
            // `guard let d = d`: the outlet's view.
            "FormView.d": "removed",
            // The `didSet`'s and the `deinit`'s locals.
            "FormView.e": "guaranteed",
            "FormView.f": "guaranteed",
        ])
        // A comment that mentions an import is none; a scoped import is one; so are an access
        // level, attributes with arguments, and several on a line.
        #expect(SwiftOutlets.platform(of: Array("import UIKit\n// the Mac one does `import AppKit` instead\n".utf8)) == .uiKit)
        #expect(SwiftOutlets.platform(of: Array("import class AppKit.NSView\n@testable import Feed\n".utf8)) == .appKit)
        for line in ["public import UIKit", "@_spi(Foo) import UIKit", "import Foundation; import UIKit", "@preconcurrency import UIKit"] {
            #expect(SwiftOutlets.platform(of: Array((line + "\n").utf8)) == .uiKit, "\(line)")
        }
    }

    /// Which overload a call is (by its labels), UIKit's own superclasses, and the outlet's view
    /// after `guard let x = x` or `if let x` (direct removals too).
    @Test func overloadsFrameworkSuperclassesAndShorthandBindings() throws {
        let cell = """
            import UIKit
            final class ItemCell: UITableViewCell {
                @IBOutlet weak var a: UILabel!
                @IBOutlet weak var b: UILabel!
                @IBOutlet weak var c: UILabel!
                @IBOutlet weak var d: UILabel!
                @IBOutlet weak var e: UIButton!
                func go() {
                    hide(a, animated: true)
                    zap(b)
                    guard let c = c else { return }
                    c.removeFromSuperview()
                    if let d { d.removeFromSuperview() }
                    e.wipe()
                }
                func hide(_ view: UIView) { view.removeFromSuperview() }
                func hide(_ view: UIView, animated: Bool) { view.alpha = 0 }
            }
            extension UIView {
                func zap(_ view: UIView) { view.removeFromSuperview() }
            }
            extension UIControl {
                func wipe() { subviews.forEach { $0.removeFromSuperview() } }
            }
            """
        let xib = """
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0"><objects>
            <tableViewCell id="r" customClass="ItemCell"><view key="contentView" id="cv"><subviews>
                <label id="1"/><label id="2"/><label id="3"/><label id="4"/><button id="5"><subviews><label id="in"/></subviews></button>
            </subviews></view><connections>
                <outlet property="a" destination="1" id="o1"/><outlet property="b" destination="2" id="o2"/>
                <outlet property="c" destination="3" id="o3"/><outlet property="d" destination="4" id="o4"/><outlet property="e" destination="5" id="o5"/>
            </connections></tableViewCell>
            </objects></document>
            """
        let classification = OutletClassification(documents: [try IBDocument(path: "Item.xib", data: Data(xib.utf8))],
                                                  swift: [(path: "ItemCell.swift", outlets: SwiftOutlets(Parser().parse(cell)))])
        #expect(verdicts(classification) == [
            // `hide(_:animated:)` only fades.
            "ItemCell.a": "guaranteed",
            // A cell is a `UIView`: its extension's helper is the cell's.
            "ItemCell.b": "removed",
            "ItemCell.c": "removed",
            "ItemCell.d": "removed",
            // `wipe()` empties the button (a `UIControl`), not the button itself.
            "ItemCell.e": "guaranteed",
        ])
    }

    /// An app's and its share extension's `ShareCell` (both UIKit): each storyboard's object is
    /// the class of its module, by `customModuleProvider="target"` (the target that builds the
    /// storyboard) or by `customModule`; when nothing tells them apart they stay one class.
    @Test func sameNamedClassesOfTwoModulesKeepTheirOwnVerdicts() throws {
        let app = "import UIKit\nfinal class ShareCell: UITableViewCell {\n    @IBOutlet weak var titleLabel: UILabel!\n    @IBOutlet weak var badge: UIView!\n}\n"
        let share = "import UIKit\nfinal class ShareCell: UITableViewCell {\n    @IBOutlet weak var titleLabel: UILabel!\n    @IBOutlet weak var badge: UIView!\n}\n"
        func cell(_ module: String, connecting outlets: [String]) -> String {
            let connections = outlets.enumerated().map { "<outlet property=\"\($1)\" destination=\"v\($0)\" id=\"o\($0)\"/>" }.joined()
            return Self.storyboard("""
                <tableViewCell id="c" customClass="ShareCell" \(module)>
                    <view key="contentView" id="cv"><subviews><label id="v0"/><view id="v1"/></subviews></view>
                    <connections>\(connections)</connections>
                </tableViewCell>
                """)
        }
        let documents = try [
            IBDocument(path: "App/Main.storyboard", data: Data(cell("customModuleProvider=\"target\"", connecting: ["titleLabel", "badge"]).utf8)),
            // The extension's storyboard leaves the badge out; its stale `customModule` text says "App".
            IBDocument(path: "Share/Share.storyboard", data: Data(cell("customModule=\"App\" customModuleProvider=\"target\"", connecting: ["titleLabel"]).utf8)),
        ]
        let swift = [(path: "App/ShareCell.swift", outlets: SwiftOutlets(Parser().parse(app))),
                     (path: "Share/ShareCell.swift", outlets: SwiftOutlets(Parser().parse(share)))]
        let modules: [String: Set<String>] = ["App/Main.storyboard": ["App"], "App/ShareCell.swift": ["App"],
                                              "Share/Share.storyboard": ["ShareExtension"], "Share/ShareCell.swift": ["ShareExtension"]]
        let separated = OutletClassification(documents: documents, swift: swift, modules: modules)
        #expect(verdicts(separated) == [
            "ShareCell (App).titleLabel": "guaranteed", "ShareCell (App).badge": "guaranteed",
            "ShareCell (ShareExtension).titleLabel": "guaranteed", "ShareCell (ShareExtension).badge": "not-connected",
        ])
        #expect(separated.entries.first { $0.outlet.name == "badge" && $0.verdict.name == "not-connected" }?.file == "Share/ShareCell.swift")
        // `customModule` alone (no provider) names the module.
        let named = try IBDocument(path: "Share/Share.storyboard", data: Data(cell("customModule=\"ShareExtension\"", connecting: ["titleLabel"]).utf8))
        let byModule = OutletClassification(documents: [documents[0], named], swift: swift, modules: modules.filter { $0.key != "Share/Share.storyboard" })
        #expect(verdicts(byModule)["ShareCell (ShareExtension).badge"] == "not-connected")
        #expect(verdicts(byModule)["ShareCell (App).badge"] == "guaranteed")
        // Nothing to tell them apart: one class, as before (the badge is not connected somewhere).
        let merged = OutletClassification(documents: documents, swift: swift)
        #expect(merged.entries.allSatisfy { $0.outlet.className == "ShareCell" })
        #expect(merged.entries.filter { $0.outlet.name == "badge" }.allSatisfy { $0.verdict.name == "not-connected" })
    }

    /// Which framework a file is of: whole imports only; attributes on the lines above a class
    /// are part of its declaration, for the text reader as for the parser.
    @Test func platformsAndDeclarationLines() throws {
        #expect(SwiftOutlets.platform(of: Array("import CocoaLumberjackSwift\nimport UIKit\n".utf8)) == .uiKit)
        #expect(SwiftOutlets.platform(of: Array("import Cocoa\n".utf8)) == .appKit)
        #expect(SwiftOutlets.platform(of: Array("import UIKitExtras\n".utf8)) == .unknown)
        #expect(SwiftOutlets.platform(of: Array("import UIKit\nimport AppKit\n".utf8)) == .unknown)
        let text = "import UIKit\n\n@IBDesignable\n@available(iOS 13, *)\nfinal class DesignView: UIView {}\n"
        #expect(SwiftOutlets(classesOf: Array(text.utf8)).classes.map(\.line) == [3])
        #expect(SwiftOutlets(Parser().parse(text)).classes.map(\.line) == [3])
    }

    /// Two modules' base classes of one name, used through their subclasses only: told apart by
    /// the subclasses' modules.
    @Test func sameNamedBaseClassesAreToldApartByTheirSubclasses() throws {
        let base = "import UIKit\nclass BaseVC: UIViewController {\n    @IBOutlet weak var titleLabel: UILabel!\n    @IBOutlet weak var extra: UILabel!\n}\n"
        let appVC = "import UIKit\nfinal class AppVC: BaseVC {}\n"
        let widgetVC = "import UIKit\nfinal class WidgetVC: BaseVC {}\n"
        func xib(_ className: String, _ outlets: [String]) -> String {
            let connections = outlets.enumerated().map { "<outlet property=\"\($1)\" destination=\"v\($0)\" id=\"o\($0)\"/>" }.joined()
            return """
                <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0"><objects>
                <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="\(className)"><connections>\(connections)</connections></placeholder>
                <view id="r"><subviews><label id="v0"/><label id="v1"/></subviews></view>
                </objects></document>
                """
        }
        let documents = try [IBDocument(path: "App/App.xib", data: Data(xib("AppVC", ["titleLabel", "extra"]).utf8)),
                             IBDocument(path: "Widget/Widget.xib", data: Data(xib("WidgetVC", ["titleLabel"]).utf8))]
        let swift = [(path: "App/BaseVC.swift", outlets: SwiftOutlets(Parser().parse(base))), (path: "App/AppVC.swift", outlets: SwiftOutlets(Parser().parse(appVC))),
                     (path: "Widget/BaseVC.swift", outlets: SwiftOutlets(Parser().parse(base))), (path: "Widget/WidgetVC.swift", outlets: SwiftOutlets(Parser().parse(widgetVC)))]
        let modules: [String: Set<String>] = ["App/App.xib": ["App"], "App/BaseVC.swift": ["App"], "App/AppVC.swift": ["App"],
                                              "Widget/Widget.xib": ["Widget"], "Widget/BaseVC.swift": ["Widget"], "Widget/WidgetVC.swift": ["Widget"]]
        let classification = OutletClassification(documents: documents, swift: swift, modules: modules)
        #expect(verdicts(classification) == [
            "BaseVC (App).titleLabel": "guaranteed", "BaseVC (App).extra": "guaranteed",
            "BaseVC (Widget).titleLabel": "guaranteed", "BaseVC (Widget).extra": "not-connected",
        ])
    }

    @Test func outletsRoundTripThroughBytes() throws {
        let text = """
            import UIKit

            @objc(LegacyCell) final class Cell: BaseCell {
                @IBOutlet weak var titleLabel: UILabel!
                @IBOutlet var stars: [UIImageView]!
                @IBAction func tap(_ sender: Any) {}
                func clear() { titleLabel.removeFromSuperview(); [a, b].forEach { $0.removeFromSuperview() } }
                func fill() { stack.addArrangedSubview(titleLabel); other.titleLabel = nil }
            }
            // swiftmod:allow outlet-not-guaranteed -- why
            """
        let read = SwiftOutlets(Parser().parse(text))
        var writer = ByteWriter()
        read.write(to: &writer)
        var reader = ByteReader(writer.bytes)
        let back = try SwiftOutlets(from: &reader)
        #expect(reader.isAtEnd)
        #expect(back.classes == read.classes && back.outlets == read.outlets && back.actions == read.actions && back.members == read.members)
        #expect(back.allowedIDs == read.allowedIDs && back.foreignReferences == read.foreignReferences && back.memberUses == read.memberUses)
        #expect(back.removals == read.removals && back.additions == read.additions && back.containerRemovals == read.containerRemovals)
        #expect(!read.outlets.isEmpty && !read.removals.isEmpty && !read.additions.isEmpty && !read.allowedIDs.isEmpty)
        // Cut short anywhere, it is an error, not a crash.
        for cut in stride(from: 0, to: writer.bytes.count, by: 7) {
            var short = ByteReader(Array(writer.bytes.prefix(cut)))
            #expect(throws: ByteReader.Truncated.self) { try SwiftOutlets(from: &short) }
        }
    }
}
