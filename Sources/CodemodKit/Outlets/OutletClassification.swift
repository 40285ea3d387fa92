import InterfaceBuilder
import Workspace

/// Every `@IBOutlet` of a repository judged against its storyboards and xibs, by the three outlet
/// rules: (1) an outlet connected wherever its class is used in Interface Builder, and never taken
/// out of the hierarchy, is guaranteed (strong `!`); (2) one that is not connected in some use of
/// its class, or that the class's code removes from its superview, may be absent (`?`); (3) such
/// an outlet whose view is not put back may be weak.
///
/// Also the connections that name an outlet or action the class does not declare (`stale`), which
/// crash when the scene loads.
public struct OutletClassification: Sendable {
    /// Where an outlet's class is used in Interface Builder.
    public struct Place: Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var description: String { "\(file):\(line)" }
    }

    public enum Verdict: Sendable, Equatable {
        /// Rule 1: connected in every use of its class (`uses` of them).
        case guaranteed(uses: Int)
        /// Rule 2 (and 3): not connected in these uses of its class.
        case notConnected([Place])
        /// Rule 2 (and 3): its class's code removes it from its superview (at this line), and never adds it back.
        case removed(line: Int)
        /// Rule 2, strong: removed (at `line`) and added back (at `added`).
        case removedAndReAdded(line: Int, added: Int)
        /// Its class is in no storyboard or xib: created in code, or in another bundle.
        case unknown
        /// An outlet collection: always strong.
        case collection

        /// A short name for counts and JSON: `guaranteed`, `not-connected`, `removed`, …
        public var name: String {
            switch self {
            case .guaranteed: "guaranteed"
            case .notConnected: "not-connected"
            case .removed: "removed"
            case .removedAndReAdded: "removed-and-re-added"
            case .unknown: "unknown"
            case .collection: "collection"
            }
        }

        /// Whether the view may be absent when code touches the outlet (rule 2).
        public var mayBeAbsent: Bool {
            switch self {
            case .notConnected, .removed, .removedAndReAdded: true
            default: false
            }
        }

        /// Whether a `?` outlet may be weak (rule 3).
        public var mayBeWeak: Bool {
            switch self {
            case .notConnected, .removed: true
            default: false
            }
        }
    }

    /// One outlet and its verdict.
    public struct Entry: Sendable {
        public var file: String
        public var outlet: SwiftOutlets.Outlet
        public var verdict: Verdict
        /// Why, in words.
        public var reason: String
        /// Whether the class's code puts its view back into the hierarchy (it must then be
        /// strong, whatever the verdict).
        public var addedBack = false
    }

    /// A connection to a member the class does not declare.
    public struct StaleConnection: Sendable, Equatable {
        public var file: String
        public var line: Int
        public var className: String
        public var name: String
        public var kind: IBDocument.Connection.Kind
    }

    public var entries: [Entry] = []
    public var stale: [StaleConnection] = []
    /// Each class of the code's superclass (by name), as far as the code declares it.
    public private(set) var superclasses: [String: String] = [:]
    /// Where each class is declared (in files some target builds), by its name as judged (a class
    /// told apart from a namesake by `SameNamedClasses` under its new name).
    public private(set) var declarations: [String: [Place]] = [:]

    /// A class and its superclasses, nearest first.
    public func ancestry(_ name: String) -> [String] { Self.ancestry(name, in: superclasses) }

    /// A class and its superclasses in a map of superclasses, nearest first (a cycle ends it).
    static func ancestry(_ name: String, in superclasses: [String: String]) -> [String] {
        var chain = [name]
        var seen: Set<String> = [name]
        while let parent = superclasses[chain.last!], seen.insert(parent).inserted { chain.append(parent) }
        return chain
    }

    /// Members UIKit and AppKit classes declare that IB connects (`view` of a view controller,
    /// `delegate`, `dataSource`, a cell's `contentView`, …): a connection to one of them on a
    /// class of the code is not stale.
    static let frameworkMembers: Set<String> = [
        "view", "delegate", "dataSource", "tableView", "collectionView", "searchDisplayController", "inputView", "inputAccessoryView",
        "tabBarItem", "navigationItem", "backgroundView", "selectedBackgroundView", "multipleSelectionBackgroundView", "textLabel",
        "detailTextLabel", "imageView", "accessoryView", "editingAccessoryView", "contentView", "window", "rootViewController",
        "viewControllers", "gestureRecognizers", "accessibilityElements", "keyCommands", "webView", "scrollView", "refreshControl",
        "nextKeyView", "initialFirstResponder", "menu", "target", "textField", "titleView", "leftBarButtonItem", "rightBarButtonItem",
        "searchBar", "searchResultsDataSource", "searchResultsDelegate", "searchContentsController", "pageViewController",
        "splitViewController", "navigationController", "tabBarController", "selectedViewController", "panGestureRecognizer",
        "pinchGestureRecognizer", "formatter", "outlet", "minimumDateView", "largeContentImage", "documentView", "contentViewController",
    ]

    /// The superclasses of UIKit's and AppKit's classes that outlets and their owners are of,
    /// nearest first (the chain ends at `NSObject`).
    static func frameworkAncestry(_ name: String) -> [String] {
        var chain: [String] = []
        var current = name
        while let parent = frameworkSuperclasses[current], !chain.contains(parent) {
            chain.append(parent)
            current = parent
        }
        return chain
    }

    static let frameworkSuperclasses: [String: String] = [
        "UIResponder": "NSObject", "UIView": "UIResponder", "UIViewController": "UIResponder", "UIControl": "UIView",
        "UIButton": "UIControl", "UISwitch": "UIControl", "UISlider": "UIControl", "UISegmentedControl": "UIControl",
        "UITextField": "UIControl", "UIDatePicker": "UIControl", "UIStepper": "UIControl", "UIPageControl": "UIControl",
        "UILabel": "UIView", "UIImageView": "UIView", "UIStackView": "UIView", "UIScrollView": "UIView",
        "UITableView": "UIScrollView", "UICollectionView": "UIScrollView", "UITextView": "UIScrollView",
        "UITableViewCell": "UIView", "UICollectionReusableView": "UIView", "UICollectionViewCell": "UICollectionReusableView",
        "UITableViewHeaderFooterView": "UIView", "UIVisualEffectView": "UIView", "UIActivityIndicatorView": "UIView",
        "UIProgressView": "UIView", "UINavigationBar": "UIView", "UIToolbar": "UIView", "UITabBar": "UIView",
        "UISearchBar": "UIView", "UIPickerView": "UIView", "WKWebView": "UIView",
        "UITableViewController": "UIViewController", "UICollectionViewController": "UIViewController",
        "UINavigationController": "UIViewController", "UITabBarController": "UIViewController",
        "UIPageViewController": "UIViewController", "UISplitViewController": "UIViewController",
        "NSResponder": "NSObject", "NSView": "NSResponder", "NSViewController": "NSResponder", "NSWindowController": "NSResponder",
        "NSControl": "NSView", "NSButton": "NSControl", "NSTextField": "NSControl", "NSImageView": "NSControl",
        "NSPopUpButton": "NSButton", "NSSlider": "NSControl", "NSTableView": "NSControl", "NSOutlineView": "NSTableView",
        "NSStackView": "NSView", "NSScrollView": "NSView", "NSTableCellView": "NSView", "NSBox": "NSView",
    ]

    /// Actions UIKit and AppKit classes declare (a connection to one on a class of the code is
    /// not stale).
    static let frameworkActions: Set<String> = [
        "copy:", "cut:", "paste:", "delete:", "selectAll:", "select:", "undo:", "redo:", "performClose:", "performMiniaturize:",
        "performZoom:", "terminate:", "hide:", "unhideAllApplications:", "orderFrontStandardAboutPanel:", "toggleSidebar:",
        "dismissViewControllerAnimated:completion:", "becomeFirstResponder", "resignFirstResponder",
    ]

    /// - Parameters:
    ///   - documents: the storyboards and xibs, by the path to report.
    ///   - swift: what each Swift file says, by the path to report.
    ///   - unbuilt: the Swift files (as in `swift`) that no target of an Xcode project builds:
    ///     their classes are not the ones Interface Builder's files name, and their outlets are
    ///     not judged.
    ///   - modules: the modules (targets) that build each Swift file and each document, by path as
    ///     given: of classes of one name, a storyboard's object is the one of its module (see
    ///     `SameNamedClasses`).
    ///   - jobs: how many files' outlets are judged at once.
    public init(documents allDocuments: [IBDocument], swift allSwift: [(path: String, outlets: SwiftOutlets)], unbuilt: Set<String> = [],
                modules: [String: Set<String>] = [:], jobs: Int = 1) {
        let built = unbuilt.isEmpty ? allSwift : allSwift.filter { !unbuilt.contains($0.path) }
        let (documents, swift) = SameNamedClasses.separate(documents: allDocuments, swift: built, modules: modules)
        for index in allSwift.indices where !unbuilt.isEmpty && unbuilt.contains(allSwift[index].path) {
            for outlet in allSwift[index].outlets.outlets {
                entries.append(Entry(file: allSwift[index].path, outlet: outlet, verdict: .unknown,
                                     reason: "its file is built by no target of the Xcode project, so it is not judged"))
            }
        }
        // Classes of the code, their superclasses and what they declare.
        var superclass: [String: String] = [:]
        var members: [String: Set<String>] = [:]
        var actions: [String: Set<String>] = [:]
        // `@objc(Name)`: Interface Builder's `customClass` is the Objective-C name.
        var swiftName: [String: String] = [:]
        /// (A class's first set is taken as it is, not copied name by name.)
        func add(_ declared: Set<String>, to sets: inout [String: Set<String>], of name: String) {
            if let index = sets.index(forKey: name) {
                sets.values[index].formUnion(declared)
            } else {
                sets[name] = declared
            }
        }
        for index in swift.indices {
            for declared in swift[index].outlets.classes {
                declarations[declared.name, default: []].append(Place(file: swift[index].path, line: declared.line))
                if let parent = declared.superclass { superclass[declared.name] = parent }
                if let objc = declared.objcName { swiftName[objc] = declared.name }
            }
            for (name, declared) in swift[index].outlets.members { add(declared, to: &members, of: name) }
            for (name, declared) in swift[index].outlets.actions { add(declared, to: &actions, of: name) }
        }
        superclasses = superclass
        let superclassMap = superclass
        // (Asked for every connection, call and outlet: each class's is found once.)
        var chains: [String: [String]] = [:]
        func ancestry(_ name: String) -> [String] {
            if let known = chains[name] { return known }
            let chain = Self.ancestry(name, in: superclassMap)
            chains[name] = chain
            return chain
        }
        // The classes a File's Owner of some xib is: a view of such a class elsewhere, with no
        // connections of its own, loads its own xib.
        var owners: Set<String> = []
        var ownerOutlets: [String: [String: String]] = [:]
        for document in documents {
            for object in document.objects where object.isFilesOwner {
                guard let custom = object.customClass else { continue }
                let name = swiftName[custom] ?? custom
                owners.insert(name)
                for connection in document.connections where connection.source == object.id && connection.kind != .action {
                    ownerOutlets[name, default: [:]][connection.name] = connection.destination
                }
            }
        }
        // Uses: every object of a class of the code, with the outlets connected on it.
        struct Use {
            var className: String
            var place: Place
            /// The outlets connected on the object, to the ids of their views.
            var outlets: [String: String]
            var document: Int
            var object: String
            /// Outlets its own xib connects (a view that loads its own xib as File's Owner).
            var ownXib: Set<String> = []
            func connects(_ outlet: String) -> Bool { outlets[outlet] != nil || ownXib.contains(outlet) }
        }
        var uses: [Use] = []
        for (index, document) in documents.enumerated() {
            var connected: [String: [String: String]] = [:]
            for connection in document.connections where connection.kind != .action {
                connected[connection.source, default: [:]][connection.name] = connection.destination
            }
            for object in document.objects where !object.isReference {
                guard let custom = object.customClass else { continue }
                let name = swiftName[custom] ?? custom
                // (Only classes the code declares: what one declared elsewhere holds, Objective-C
                // or a library, is not known, even where an extension here adds to it.)
                guard declarations[name] != nil else { continue }
                let outlets = connected[object.id] ?? [:]
                var use = Use(className: name, place: Place(file: document.path, line: object.line), outlets: outlets, document: index, object: object.id)
                // A view that loads its own xib: the xib's connections are made on it too.
                if owners.contains(name), !object.isFilesOwner { use.ownXib = Set(ownerOutlets[name].map { Array($0.keys) } ?? []) }
                uses.append(use)
            }
            // Stale connections: a member none of the class's chain declares.
            for connection in document.connections {
                let holder = connection.kind == .action ? connection.destination : connection.source
                guard let object = document.object(holder), let custom = object.customClass else { continue }
                let name = swiftName[custom] ?? custom
                guard declarations[name] != nil else { continue }
                let chain = ancestry(name)
                let member = connection.name
                if connection.kind == .action {
                    // An action is a selector of the `@IBAction`/`@objc` methods of the class and
                    // its superclasses (UIKit's own actions go to the First Responder, not judged).
                    if chain.contains(where: { actions[$0]?.contains(member) == true }) || Self.frameworkActions.contains(member) { continue }
                } else if chain.contains(where: { members[$0]?.contains(member) == true }) || Self.frameworkMembers.contains(member) {
                    continue
                }
                stale.append(StaleConnection(file: document.path, line: connection.line, className: name, name: member, kind: connection.kind))
            }
        }
        // A class that loads its own xib and is also placed in a storyboard or xib: the places
        // are the object, and its File's Owner connections are made on each (counted there).
        func isOwner(_ use: Use) -> Bool { documents[use.document].object(use.object)?.isFilesOwner ?? false }
        let placed = Set(uses.filter { !isOwner($0) }.map(\.className))
        uses.removeAll { isOwner($0) && placed.contains($0.className) && owners.contains($0.className) }
        // What the code of a class or of its subclasses does to views, in any file.
        typealias Placed = (path: String, use: SwiftOutlets.ViewUse)
        // Through helpers (of any file): `hide(label)`, `show(label)`, `stack.clear()`. A call on
        // `self` goes to a helper of the class or of a superclass (its own code's, or UIKit's
        // `UIView`, `UIViewController`… extended); a call on an outlet, to one of the outlet's
        // declared type, its superclasses, or any view's (`UIView`, `NSView`).
        var helpers: [String: [SwiftOutlets.Helper]] = [:]
        var outletTypes: [String: [String: String]] = [:]
        for index in swift.indices {
            for helper in swift[index].outlets.helpers { helpers[helper.method, default: []].append(helper) }
            for outlet in swift[index].outlets.outlets { outletTypes[outlet.className, default: [:]][outlet.name] = outlet.typeName }
        }
        /// A class's superclasses in the code, then in UIKit or AppKit.
        func lineage(_ name: String) -> Set<String> {
            let chain = ancestry(name)
            return Set(chain + Self.frameworkAncestry(chain.last ?? name))
        }
        func does(_ call: SwiftOutlets.HelperCall, _ effect: SwiftOutlets.Helper.Effect) -> Bool {
            guard let candidates = helpers[call.method] else { return false }
            if let argument = call.argument {
                let owners = lineage(call.className)
                return candidates.contains { $0.effect == effect && $0.parameter == argument && $0.labels == call.labels && owners.contains($0.owner) }
            }
            // On an outlet: its declared type (found on the class or a superclass).
            guard let type = ancestry(call.className).lazy.compactMap({ outletTypes[$0]?[call.outlet] }).first else { return false }
            let owners = lineage(type).union(["UIView", "NSView"])
            return candidates.contains { $0.effect == effect && $0.parameter == nil && owners.contains($0.owner) }
        }
        var removals: [Placed] = []
        var containerRemovals: [Placed] = []
        var additions: [Placed] = []
        for index in swift.indices {
            for use in swift[index].outlets.removals { removals.append((swift[index].path, use)) }
            for use in swift[index].outlets.containerRemovals { containerRemovals.append((swift[index].path, use)) }
            for use in swift[index].outlets.additions { additions.append((swift[index].path, use)) }
        }
        func throughHelpers(_ effect: SwiftOutlets.Helper.Effect) -> [Placed] {
            var placed: [Placed] = []
            for index in swift.indices {
                for call in swift[index].outlets.helperCalls where does(call, effect) {
                    placed.append((swift[index].path, SwiftOutlets.ViewUse(className: call.className, outlet: call.outlet, line: call.line)))
                }
            }
            return placed
        }
        removals += throughHelpers(.removes)
        containerRemovals += throughHelpers(.empties)
        additions += throughHelpers(.adds)
        func place(_ placed: Placed, from path: String) -> String {
            placed.path == path ? "line \(placed.use.line)" : "\(placed.path):\(placed.use.line)"
        }
        // The uses of each class and of its subclasses, by class, in the order of the documents
        // (not of a dictionary's keys, which changes from run to run: a reason lists them).
        var usesOf: [String: [Use]] = [:]
        for use in uses {
            for ancestor in ancestry(use.className) { usesOf[ancestor, default: []].append(use) }
        }
        // (By the name of the view, in order: thousands of outlets look them up.)
        let removalsOf = Dictionary(grouping: removals, by: \.use.outlet)
        // The containers emptied in the code of each class or of its subclasses, in order.
        var containerRemovalsOf: [String: [Placed]] = [:]
        for emptied in containerRemovals {
            for ancestor in ancestry(emptied.use.className) { containerRemovalsOf[ancestor, default: []].append(emptied) }
        }
        let additionsOf = Dictionary(grouping: additions, by: \.use.outlet)
        // Each outlet: the uses of its class and of its subclasses. (File by file, in parallel:
        // the classes' chains are found first, and only read there.)
        for placed in removals + containerRemovals + additions { _ = ancestry(placed.use.className) }
        let knownChains = chains
        func chain(_ name: String) -> [String] { knownChains[name] ?? Self.ancestry(name, in: superclassMap) }
        let judged: [[Entry]] = ParallelMap.map(Array(swift.indices), jobs: swift.count < 64 ? 1 : jobs, worker: { () }) { _, index in
            let path = swift[index].path
            var entries: [Entry] = []
            for outlet in swift[index].outlets.outlets {
                let relevant = usesOf[outlet.className] ?? []
                func ofThisOutlet(_ placed: Placed) -> Bool { chain(placed.use.className).contains(outlet.className) }
                var removal = removalsOf[outlet.name]?.first(where: ofThisOutlet)
                // Removed with the other subviews of a container (in some use, its view is one).
                var container: String?
                for emptied in containerRemovalsOf[outlet.className] ?? [] where removal == nil {
                    let inside = relevant.contains { use in
                        // The container is an outlet, or the object's root view or content view.
                        let containerView = use.outlets[emptied.use.outlet] ?? documents[use.document].child(of: use.object, key: emptied.use.outlet)?.id
                        guard let containerView, let view = use.outlets[outlet.name] else { return false }
                        guard let object = documents[use.document].object(view) else { return false }
                        return object.parent == containerView && object.isSubview
                    }
                    if inside {
                        removal = emptied
                        container = emptied.use.outlet
                    }
                }
                let addition = additionsOf[outlet.name]?.first(where: ofThisOutlet)
                let verdict: Verdict
                let reason: String
                let missing = relevant.filter { !$0.connects(outlet.name) }
                // Removal is the class's own code: judged whether or not its class is in a
                // storyboard or xib.
                if outlet.isCollection {
                    verdict = .collection
                    reason = "an outlet collection: always strong"
                } else if !relevant.isEmpty, !missing.isEmpty {
                    verdict = .notConnected(missing.map(\.place))
                    let places = missing.prefix(3).map(\.place.description).joined(separator: ", ")
                    reason = "not connected where `\(outlet.className)` is used at \(places)\(missing.count > 3 ? " and \(missing.count - 3) more" : "")"
                } else if let removal, let addition {
                    verdict = .removedAndReAdded(line: removal.use.line, added: addition.use.line)
                    reason = "removed from its superview\(container.map { " with the subviews of `\($0)`" } ?? "") (\(place(removal, from: path))) and added back (\(place(addition, from: path)))"
                } else if let removal {
                    verdict = .removed(line: removal.use.line)
                    reason = "removed from its superview\(container.map { " with the subviews of `\($0)`" } ?? "") (\(place(removal, from: path))) and never added back"
                } else if relevant.isEmpty {
                    verdict = .unknown
                    reason = "`\(outlet.className)` is in no storyboard or xib (created in code, or in another bundle)"
                } else {
                    verdict = .guaranteed(uses: relevant.count)
                    reason = "connected in every use of `\(outlet.className)` (\(relevant.count))"
                }
                entries.append(Entry(file: path, outlet: outlet, verdict: verdict, reason: reason, addedBack: addition != nil))
            }
            return entries
        }
        entries += judged.joined()
        entries.sort { ($0.file, $0.outlet.line) < ($1.file, $1.outlet.line) }
        stale.sort { ($0.file, $0.line) < ($1.file, $1.line) }
    }
}
