import InterfaceBuilder

/// The types whose code can change a verdict: what decides which Swift files read by their text
/// alone (`SwiftOutlets.deferredExtensions`: they hold `@objc`, a removal or a re-adding, but no
/// outlet or action) must be read whole.
///
/// A verdict reads the code of an outlet's class and of its subclasses (removals, re-adding,
/// helper calls), the helpers of those classes' superclasses and of the outlet's type, and the
/// members and actions of the classes Interface Builder names and of their superclasses. So the
/// relevant types are: the classes that declare outlets, with all their subclasses; the classes
/// Interface Builder names; the outlets' types; every superclass of those (in the code, then in
/// UIKit or AppKit); and `UIView` and `NSView`. A file none of whose
/// classes and extensions is one of them says nothing a verdict reads but its classes, which its
/// text gives.
///
/// Classes are taken by their names as written: namesakes of two modules count for each other,
/// which reads more files, never fewer.
public struct RelevantTypes: Sendable {
    public private(set) var names: Set<String> = ["UIView", "NSView"]

    /// - Parameters:
    ///   - documents: every storyboard and xib the verdicts read.
    ///   - swift: what every Swift file says (whole or by its text).
    public init(documents: [IBDocument], swift: [SwiftOutlets]) {
        var superclasses: [String: Set<String>] = [:]
        var subclasses: [String: Set<String>] = [:]
        var swiftNames: [String: Set<String>] = [:]
        var outletClasses: Set<String> = []
        var named: Set<String> = []
        var outletTypes: Set<String> = []
        for file in swift {
            for declared in file.classes {
                if let parent = declared.superclass {
                    superclasses[declared.name, default: []].insert(parent)
                    subclasses[parent, default: []].insert(declared.name)
                }
                if let objc = declared.objcName { swiftNames[objc, default: []].insert(declared.name) }
            }
            for outlet in file.outlets {
                outletClasses.insert(outlet.className)
                outletTypes.insert(outlet.typeName)
            }
        }
        for document in documents {
            for object in document.objects {
                guard let custom = object.customClass else { continue }
                named.insert(custom)
                named.formUnion(swiftNames[custom] ?? [])
            }
        }
        // The classes whose code is read for some outlet: its class and the subclasses.
        var code = outletClasses
        var pending = Array(outletClasses)
        while let next = pending.popLast() {
            for child in subclasses[next] ?? [] where code.insert(child).inserted { pending.append(child) }
        }
        // Every superclass of those, of the classes Interface Builder names and of the outlets'
        // types: their helpers, members and actions.
        pending = Array(code.union(named).union(outletTypes))
        names.formUnion(pending)
        while let next = pending.popLast() {
            let parents = (superclasses[next] ?? []).union(OutletClassification.frameworkAncestry(next))
            for parent in parents where names.insert(parent).inserted { pending.append(parent) }
        }
    }

    /// Whether a file read by its text alone must be read whole: one of its classes or
    /// extensions is relevant, or its text may hide one (`SwiftOutlets.textMayMissTypes`). False
    /// for a file read whole already.
    public func needsWholeReading(_ file: SwiftOutlets) -> Bool {
        guard let extensions = file.deferredExtensions else { return false }
        return file.textMayMissTypes || extensions.contains(where: names.contains) || file.classes.contains { names.contains($0.name) }
    }
}
