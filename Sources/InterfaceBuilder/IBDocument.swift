import Foundation

/// A storyboard or a xib, as far as outlets are concerned: its objects of a custom class and the
/// connections between objects, each with its line.
///
/// Interface Builder writes XML (`document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB"`,
/// `…CocoaTouch.XIB`, `…Cocoa.XIB` for AppKit): objects are elements with an `id` (`viewController`,
/// `tableViewCell`, `view`, `placeholder`, …), and an object's `<connections>` holds its
/// `<outlet property="label" destination="id"/>`, `<outletCollection …/>` and
/// `<action selector="tap:" destination="id"/>` (for an action, the destination is the target).
public struct IBDocument: Sendable, Codable {
    /// An object of the document: an element with an `id`.
    public struct Object: Sendable, Equatable, Codable {
        public var id: String
        /// The element's name: `viewController`, `tableViewCell`, `view`, `placeholder`, …
        public var element: String
        /// `customClass`, when the object is of a class of the code.
        public var customClass: String?
        /// `customModule`; with `customModuleProvider="target"` the module is the target's own,
        /// whatever the text says.
        public var customModule: String?
        public var moduleFromTarget: Bool
        /// A xib's File's Owner (`placeholderIdentifier="IBFilesOwner"`): the object that loads it.
        public var isFilesOwner: Bool
        /// A storyboard reference (`viewControllerPlaceholder`): a scene of another storyboard.
        public var isReference: Bool
        /// The id of the object it is inside (nil at the top).
        public var parent: String?
        /// Whether it is one of its parent's subviews (in `<subviews>`), not a constraint, a
        /// gesture recognizer or another object the parent holds.
        public var isSubview: Bool
        /// The property of its parent it is (`key="view"` for a view controller's root view,
        /// `key="contentView"` for a cell's).
        public var key: String?
        public var line: Int

        public init(id: String, element: String, customClass: String?, customModule: String?, moduleFromTarget: Bool, isFilesOwner: Bool,
                    isReference: Bool, parent: String?, isSubview: Bool, key: String?, line: Int) {
            self.id = id
            self.element = element
            self.customClass = customClass
            self.customModule = customModule
            self.moduleFromTarget = moduleFromTarget
            self.isFilesOwner = isFilesOwner
            self.isReference = isReference
            self.parent = parent
            self.isSubview = isSubview
            self.key = key
            self.line = line
        }
    }

    /// A connection made on an object (`source`).
    public struct Connection: Sendable, Equatable, Codable {
        public enum Kind: String, Sendable, Codable { case outlet, outletCollection, action }
        public var kind: Kind
        /// The outlet's property, or the action's selector (`tap:`).
        public var name: String
        /// The object holding the outlet; for an action, the control that sends it.
        public var source: String
        /// The outlet's view; for an action, its target.
        public var destination: String
        public var line: Int

        public init(kind: Kind, name: String, source: String, destination: String, line: Int) {
            self.kind = kind
            self.name = name
            self.source = source
            self.destination = destination
            self.line = line
        }
    }

    public enum Platform: String, Sendable, Codable { case uiKit, appKit, unknown }

    /// Where the document was read from, as the caller named it.
    public var path: String
    public var platform: Platform
    public var isStoryboard: Bool
    public var objects: [Object] = [] {
        didSet { index = Dictionary(objects.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first }) }
    }
    public var connections: [Connection] = []
    private var index: [String: Int] = [:]

    enum CodingKeys: String, CodingKey { case path, platform, isStoryboard, objects, connections }

    /// A document as read before (from a cache).
    public init(path: String, platform: Platform, isStoryboard: Bool, objects: [Object], connections: [Connection]) {
        self.path = path
        self.platform = platform
        self.isStoryboard = isStoryboard
        self.objects = objects
        self.connections = connections
        index = Dictionary(objects.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        platform = try container.decode(Platform.self, forKey: .platform)
        isStoryboard = try container.decode(Bool.self, forKey: .isStoryboard)
        objects = try container.decode([Object].self, forKey: .objects)
        connections = try container.decode([Connection].self, forKey: .connections)
        index = Dictionary(objects.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The object with an id.
    public func object(_ id: String) -> Object? { index[id].map { objects[$0] } }

    /// The object that is another's property (`key="view"`), if any.
    public func child(of parent: String, key: String) -> Object? {
        objects.first { $0.parent == parent && $0.key == key }
    }

    /// A document that could not be read: not XML, or not Interface Builder's.
    public struct ReadError: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var line: Int
        public var reason: String
        public var description: String { "\(path):\(line): \(reason)" }

        public init(path: String, line: Int, reason: String) {
            self.path = path
            self.line = line
            self.reason = reason
        }
    }

    /// Reads a document's bytes.
    /// - Throws: `ReadError` with the line where the XML breaks, or for XML that is not a
    ///   storyboard or xib.
    public init(path: String, data: Data) throws {
        self.path = path
        platform = .unknown
        isStoryboard = path.hasSuffix(".storyboard")
        var reader = Reader()
        do {
            try XMLScanner.scan([UInt8](data), start: { try reader.start($0) }, end: { name, bytes in reader.end(bytes[name]) })
        } catch let failure as XMLScanner.Failure {
            throw ReadError(path: path, line: max(failure.line, 1), reason: failure.reason)
        }
        guard let type = reader.documentType else {
            throw ReadError(path: path, line: 1, reason: "not an Interface Builder document (no <document type=\"com.apple.InterfaceBuilder3…\">)")
        }
        // (By bytes: Foundation's `contains` searches as a locale would.)
        let typeBytes = Array(type.utf8)
        func holds(_ text: String) -> Bool { XMLScanner.firstOffset(of: Array(text.utf8), in: typeBytes[...]) != nil }
        platform = holds("CocoaTouch") ? .uiKit : holds("Cocoa") ? .appKit : .unknown
        if holds("Storyboard") { isStoryboard = true }
        objects = reader.objects
        connections = reader.connections
        // (Observers do not run in an initializer.)
        index = Dictionary(objects.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Reads a file.
    public init(contentsOf path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ReadError(path: path, line: 1, reason: "cannot be read (\(error.localizedDescription))")
        }
        try self.init(path: path, data: data)
    }

    /// Whether a path names an Interface Builder file.
    public static func isInterfaceBuilderFile(_ path: String) -> Bool {
        path.hasSuffix(".storyboard") || path.hasSuffix(".xib")
    }
}

/// What the elements say: a stack of the elements with an id, to know which object a
/// `<connections>` belongs to and which object another is inside.
private struct Reader {
    var documentType: String?
    var objects: [IBDocument.Object] = []
    var connections: [IBDocument.Connection] = []
    /// For each open element, the id of the object it is or is inside.
    private var stack: [String?] = []
    /// Whether each open element is `<subviews>`.
    private var subviews: [Bool] = []
    private var inConnections = 0

    static let connectionsName = Array("connections".utf8)
    static let subviewsName = Array("subviews".utf8)

    mutating func start(_ tag: XMLScanner.StartTag) throws {
        let enclosing = stack.last ?? nil
        let inSubviews = subviews.last ?? false
        subviews.append(tag.hasName(Self.subviewsName))
        if stack.isEmpty {
            guard tag.hasName(Array("document".utf8)), let type = tag.attribute("type"), type.hasPrefix("com.apple.InterfaceBuilder") else {
                throw XMLScanner.Failure(line: tag.line, reason: "not an Interface Builder document (its root is <\(tag.name)>)")
            }
            documentType = type
            stack.append(nil)
            return
        }
        if tag.hasName(Self.connectionsName) { inConnections += 1 }
        if inConnections > 0, let kind = IBDocument.Connection.Kind(rawValue: tag.name) {
            let name = kind == .action ? tag.attribute("selector") : tag.attribute("property")
            // (AppKit's actions name their target `target`.)
            if let name, let destination = tag.attribute("destination") ?? tag.attribute("target"), let source = enclosing {
                connections.append(.init(kind: kind, name: name, source: source, destination: destination, line: tag.line))
            }
            stack.append(enclosing)
            return
        }
        // An object: an element with an id outside `<connections>` (constraints, segues and
        // the like have ids too, and are objects no outlet names by class).
        if inConnections == 0, let id = tag.attribute("id") {
            let element = tag.name
            objects.append(.init(
                id: id, element: element, customClass: tag.attribute("customClass"), customModule: tag.attribute("customModule"),
                moduleFromTarget: tag.attribute("customModuleProvider") == "target",
                isFilesOwner: tag.attribute("placeholderIdentifier") == "IBFilesOwner",
                isReference: element == "viewControllerPlaceholder", parent: enclosing, isSubview: inSubviews, key: tag.attribute("key"), line: tag.line))
            stack.append(id)
        } else {
            stack.append(enclosing)
        }
    }

    mutating func end(_ name: ArraySlice<UInt8>) {
        if XMLScanner.equal(name, Self.connectionsName) { inConnections -= 1 }
        if !stack.isEmpty { stack.removeLast() }
        if !subviews.isEmpty { subviews.removeLast() }
    }
}
