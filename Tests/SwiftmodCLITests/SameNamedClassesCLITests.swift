import Foundation
import Testing

/// Two targets of an Xcode project (an app and a widget), each with its own `ProfileVC` and its
/// own xib (issue 26's "same class name in an app and an extension"): each object is the class of
/// the target that builds its xib (`customModuleProvider="target"`) or that its `customModule`
/// names (`PRODUCT_MODULE_NAME`), and each class keeps its own verdicts. A file both targets
/// build could be either's: then the classes stay one, and no connection it declares is stale.
@Suite struct SameNamedClassesCLITests {
    static let project = """
        // !$*UTF8*$!
        {
            archiveVersion = 1;
            objectVersion = 56;
            objects = {
                G0 = {isa = PBXGroup; children = (FA1, FA2, FB1, FB2, FS); sourceTree = "<group>"; };
                FA1 = {isa = PBXFileReference; path = A/ProfileVC.swift; sourceTree = "<group>"; };
                FA2 = {isa = PBXFileReference; path = A/Main.xib; sourceTree = "<group>"; };
                FB1 = {isa = PBXFileReference; path = B/ProfileVC.swift; sourceTree = "<group>"; };
                FB2 = {isa = PBXFileReference; path = B/Widget.xib; sourceTree = "<group>"; };
                FS = {isa = PBXFileReference; path = "S/ProfileVC+Actions.swift"; sourceTree = "<group>"; };
                BA1 = {isa = PBXBuildFile; fileRef = FA1; };
                BA2 = {isa = PBXBuildFile; fileRef = FA2; };
                BB1 = {isa = PBXBuildFile; fileRef = FB1; };
                BB2 = {isa = PBXBuildFile; fileRef = FB2; };
                BSA = {isa = PBXBuildFile; fileRef = FS; };
                BSB = {isa = PBXBuildFile; fileRef = FS; };
                SA = {isa = PBXSourcesBuildPhase; files = (BA1, BSA); };
                RA = {isa = PBXResourcesBuildPhase; files = (BA2); };
                SB = {isa = PBXSourcesBuildPhase; files = (BB1, BSB); };
                RB = {isa = PBXResourcesBuildPhase; files = (BB2); };
                CB = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_MODULE_NAME = WidgetKit; }; name = Debug; };
                LB = {isa = XCConfigurationList; buildConfigurations = (CB); };
                TA = {isa = PBXNativeTarget; name = App; buildPhases = (SA, RA); };
                TB = {isa = PBXNativeTarget; name = "Widget Extension"; buildPhases = (SB, RB); buildConfigurationList = LB; };
                P = {isa = PBXProject; mainGroup = G0; targets = (TA, TB); };
            };
            rootObject = P;
        }

        """

    static func xib(module: String, outlets: [String]) -> String {
        let connections = outlets.enumerated().map { "<outlet property=\"\($1)\" destination=\"v\($0)\" id=\"o\($0)\"/>" }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0">
                <objects>
                    <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner" customClass="ProfileVC" \(module)>
                        <connections>
                            \(connections)
                        </connections>
                    </placeholder>
                    <view id="root">
                        <subviews>
                            <label id="v0"/><label id="v1"/>
                            <button id="b">
                                <connections><action selector="tap:" destination="-1" eventType="touchUpInside" id="a1"/></connections>
                            </button>
                        </subviews>
                    </view>
                </objects>
            </document>

            """
    }

    func repository(sharedFile: Bool) throws -> Scratch {
        let repo = try Scratch()
        try repo.write("Demo.xcodeproj/project.pbxproj", Self.project)
        try repo.write("A/ProfileVC.swift", "import UIKit\n\nfinal class ProfileVC: UIViewController {\n    @IBOutlet weak var nameLabel: UILabel!\n    @IBOutlet weak var appOnly: UILabel!\n}\n")
        try repo.write("B/ProfileVC.swift", "import UIKit\n\nfinal class ProfileVC: UIViewController {\n    @IBOutlet weak var nameLabel: UILabel!\n    @IBOutlet weak var widgetOnly: UILabel!\n}\n")
        // The app's xib names the module by its target; the widget's by `customModule` alone.
        try repo.write("A/Main.xib", Self.xib(module: "customModule=\"Stale\" customModuleProvider=\"target\"", outlets: ["nameLabel", "appOnly"]))
        try repo.write("B/Widget.xib", Self.xib(module: "customModule=\"WidgetKit\"", outlets: ["nameLabel"]))
        let actions = "import UIKit\n\nextension ProfileVC {\n    @IBAction func tap(_ sender: Any) {}\n}\n"
        // Without the shared file the action is each class's own.
        try repo.write(sharedFile ? "S/ProfileVC+Actions.swift" : "A/ProfileVC.swift", sharedFile ? actions
            : "import UIKit\n\nfinal class ProfileVC: UIViewController {\n    @IBOutlet weak var nameLabel: UILabel!\n    @IBOutlet weak var appOnly: UILabel!\n    @IBAction func tap(_ sender: Any) {}\n}\n")
        if !sharedFile {
            try repo.write("B/ProfileVC.swift", "import UIKit\n\nfinal class ProfileVC: UIViewController {\n    @IBOutlet weak var nameLabel: UILabel!\n    @IBOutlet weak var widgetOnly: UILabel!\n    @IBAction func tap(_ sender: Any) {}\n}\n")
        }
        try CLI.run("git", ["init", "-q"], in: repo.path)
        return repo
    }

    struct Output: Decodable {
        struct Row: Decodable { var file: String; var className: String; var outlet: String; var verdict: String }
        struct Stale: Decodable { var className: String; var name: String }
        var outlets: [Row]
        var staleConnections: [Stale]
    }

    func outlets(_ repo: Scratch) throws -> Output {
        let result = try CLI.swiftmod(["outlets", "--format", "json"], in: repo.path)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode(Output.self, from: result.stdoutBytes)
    }

    @Test func eachTargetsClassKeepsItsOwnVerdicts() throws {
        let output = try outlets(try repository(sharedFile: false))
        let verdicts = Dictionary(uniqueKeysWithValues: output.outlets.map { ("\($0.file) \($0.outlet)", $0.verdict) })
        #expect(verdicts == [
            "A/ProfileVC.swift nameLabel": "guaranteed", "A/ProfileVC.swift appOnly": "guaranteed",
            "B/ProfileVC.swift nameLabel": "guaranteed", "B/ProfileVC.swift widgetOnly": "not-connected",
        ], "\(output.outlets)")
        #expect(Set(output.outlets.map(\.className)) == ["ProfileVC (App)", "ProfileVC (WidgetKit)"])
        #expect(output.staleConnections.isEmpty)
    }

    /// However a shared extension is read (by its text for a scan, whole for `run`, with or
    /// without its member uses and calls), it keeps the classes one: `outlets`, a cold scan and
    /// a scan without its cache say the same (once, a conformance alone split them for `outlets`
    /// and `--no-cache` but not for a cold scan, and a read member kept them one for those only).
    @Test(arguments: [
        "extension ProfileVC: UITableViewDelegate {}\n",
        "extension ProfileVC {\n    convenience init(x: Int) {\n        self.init(nibName: nil, bundle: nil)\n        _ = nameLabel\n    }\n}\n",
        "extension ProfileVC {\n    func show() { print(nameLabel) }\n}\n",
    ])
    func aSharedExtensionKeepsTheClassesOneHoweverItIsRead(extensionText: String) throws {
        let repo = try repository(sharedFile: false)
        try repo.write("S/ProfileVC+Actions.swift", "import UIKit\n\n" + extensionText)
        // The widget's xib connects the app's `appOnly` too: stale there, were the classes apart.
        try repo.write("B/Widget.xib", Self.xib(module: "customModule=\"WidgetKit\"", outlets: ["nameLabel", "appOnly"]))
        try repo.write(".swiftmod.yml", OutletRulesCLITests.config)
        let output = try outlets(repo)
        #expect(output.staleConnections.isEmpty, "\(output.staleConnections)")
        #expect(output.outlets.allSatisfy { $0.className == "ProfileVC" }, "\(output.outlets)")
        struct Scan: Decodable { struct Finding: Decodable, Equatable { var migration: String; var file: String; var line: Int; var text: String }; var findings: [Finding] }
        func scan(_ arguments: [String]) throws -> [Scan.Finding] {
            let result = try CLI.swiftmod(["scan", "--format", "json"] + arguments, in: repo.path)
            return try JSONDecoder().decode(Scan.self, from: result.stdoutBytes).findings
        }
        let withoutCache = try scan(["--no-cache"])
        #expect(!withoutCache.contains { $0.migration == "stale-connection" }, "\(withoutCache)")
        #expect(try scan([]) == withoutCache)
    }

    @Test func aFileBothTargetsBuildKeepsTheClassesOne() throws {
        let output = try outlets(try repository(sharedFile: true))
        // Merged, as before: no stale `tap:` (the shared extension declares it for both).
        #expect(output.staleConnections.isEmpty, "\(output.staleConnections)")
        #expect(output.outlets.allSatisfy { $0.className == "ProfileVC" })
        #expect(output.outlets.first { $0.file == "B/ProfileVC.swift" && $0.outlet == "widgetOnly" }?.verdict == "not-connected")
    }
}

/// Xcode 16 synchronized folders: every file under the folder is built, but those an exception
/// set takes out of the target (a stale xib left in the folder).
@Suite struct SynchronizedFolderCLITests {
    static let project = """
        // !$*UTF8*$!
        {
            archiveVersion = 1;
            objectVersion = 77;
            objects = {
                G0 = {isa = PBXGroup; children = (SG); sourceTree = "<group>"; };
                SG = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (EX); path = App; sourceTree = "<group>"; };
                EX = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Old/Stale.xib, Info.plist); target = TA; };
                TA = {isa = PBXNativeTarget; name = App; buildPhases = (); fileSystemSynchronizedGroups = (SG); };
                P = {isa = PBXProject; mainGroup = G0; targets = (TA); };
            };
            rootObject = P;
        }

        """

    static func xib(_ outlets: [String]) -> String {
        let connections = outlets.enumerated().map { "<outlet property=\"\($1)\" destination=\"v\($0)\" id=\"o\($0)\"/>" }.joined()
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0"><objects>
            <tableViewCell id="c" customClass="Cell" customModuleProvider="target">
                <view key="contentView" id="cv"><subviews><label id="v0"/><view id="v1"/></subviews></view>
                <connections>\(connections)</connections>
            </tableViewCell>
            </objects></document>

            """
    }

    @Test func aFileAnExceptionSetTakesOutIsNotBuilt() throws {
        let repo = try Scratch()
        try repo.write("Demo.xcodeproj/project.pbxproj", Self.project)
        try repo.write("App/Cell.swift", "import UIKit\n\nfinal class Cell: UITableViewCell {\n    @IBOutlet weak var titleLabel: UILabel!\n    @IBOutlet weak var badge: UIView!\n}\n")
        try repo.write("App/Cell.xib", Self.xib(["titleLabel", "badge"]))
        try repo.write("App/Old/Stale.xib", Self.xib(["titleLabel"]))
        let result = try CLI.swiftmod(["outlets"], in: repo.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("guaranteed: `Cell.badge`"), "\(result.stdout)")
        #expect(result.stderr.contains("App/Old/Stale.xib is built by no target"), "\(result.stderr)")
        // Without the exception the stale xib is built, and the badge is not connected there.
        try repo.write("Demo.xcodeproj/project.pbxproj", Self.project.replacingOccurrences(of: "Old/Stale.xib, ", with: ""))
        let built = try CLI.swiftmod(["outlets"], in: repo.path)
        #expect(built.stdout.contains("not-connected: `Cell.badge`"), "\(built.stdout)")
        // A folder listed is everything it holds.
        try repo.write("Demo.xcodeproj/project.pbxproj", Self.project.replacingOccurrences(of: "Old/Stale.xib, ", with: "Old, "))
        let folder = try CLI.swiftmod(["outlets"], in: repo.path)
        #expect(folder.stdout.contains("guaranteed: `Cell.badge`"), "\(folder.stdout)")
    }
}
