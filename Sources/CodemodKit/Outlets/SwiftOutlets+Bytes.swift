import InterfaceBuilder
import Workspace

/// What a Swift file says about outlets, written into a cache (`scan`'s, the outlet reader's) and
/// read back, as plain bytes: several times faster than a property list for the thousands of
/// files of a repository.
extension SwiftOutlets {
    public func write(to writer: inout ByteWriter) {
        writer.write(classes.count)
        for type in classes {
            writer.write(type.name)
            writer.writeOptional(type.superclass)
            writer.writeOptional(type.objcName)
            writer.write(type.line)
        }
        writer.write(outlets.count)
        for outlet in outlets { outlet.write(to: &writer) }
        for names in [actions, members] {
            writer.write(names.count)
            for key in names.keys.sorted() {
                writer.write(key)
                writer.writeStrings(names[key]!.sorted())
            }
        }
        writer.writeStrings(allowedIDs.sorted())
        writer.write(platform.rawValue)
        writer.writeLines(foreignReferences)
        writer.write(memberUses.count)
        for key in memberUses.keys.sorted() {
            writer.write(key)
            writer.writeLines(memberUses[key]!)
        }
        for uses in [removals, containerRemovals, additions] {
            writer.write(uses.count)
            for use in uses {
                writer.write(use.className)
                writer.write(use.outlet)
                writer.write(use.line)
            }
        }
        writer.write(helpers.count)
        for helper in helpers.sorted(by: { ($0.owner, $0.method, $0.effect.rawValue, $0.parameter ?? -1) < ($1.owner, $1.method, $1.effect.rawValue, $1.parameter ?? -1) }) {
            writer.write(helper.owner)
            writer.write(helper.method)
            writer.write(helper.effect.rawValue)
            writer.write(helper.parameter)
            writer.writeStrings(helper.labels)
        }
        writer.write(helperCalls.count)
        for call in helperCalls {
            writer.write(call.className)
            writer.write(call.method)
            writer.write(call.outlet)
            writer.write(call.argument)
            writer.write(call.line)
            writer.writeStrings(call.labels)
        }
        writer.write(deferredExtensions != nil)
        if let deferredExtensions { writer.writeStrings(deferredExtensions) }
        writer.writeStrings(extendedTypes)
        writer.write(textMayMissTypes)
        writer.write(helperCallsUnread)
        writer.write(textHoldsViewCode)
    }

    /// Reads what `write(to:)` wrote.
    /// - Throws: `ByteReader.Truncated` when the bytes end early.
    public init(from reader: inout ByteReader) throws {
        for _ in 0..<(try reader.readCount()) {
            classes.append(Class(name: try reader.readString(), superclass: try reader.readOptionalString(),
                                 objcName: try reader.readOptionalString(), line: try reader.readInt()))
        }
        for _ in 0..<(try reader.readCount()) { outlets.append(try Outlet(from: &reader)) }
        for index in 0..<2 {
            var names: [String: Set<String>] = [:]
            for _ in 0..<(try reader.readCount()) { names[try reader.readString()] = Set(try reader.readStrings()) }
            if index == 0 { actions = names } else { members = names }
        }
        allowedIDs = Set(try reader.readStrings())
        guard let platform = IBDocument.Platform(rawValue: try reader.readString()) else { throw ByteReader.Truncated() }
        self.platform = platform
        foreignReferences = try reader.readLines()
        for _ in 0..<(try reader.readCount()) { memberUses[try reader.readString()] = try reader.readLines() }
        for index in 0..<3 {
            var uses: [ViewUse] = []
            for _ in 0..<(try reader.readCount()) {
                uses.append(ViewUse(className: try reader.readString(), outlet: try reader.readString(), line: try reader.readInt()))
            }
            switch index {
            case 0: removals = uses
            case 1: containerRemovals = uses
            default: additions = uses
            }
        }
        for _ in 0..<(try reader.readCount()) {
            let owner = try reader.readString(), method = try reader.readString()
            guard let effect = Helper.Effect(rawValue: try reader.readString()) else { throw ByteReader.Truncated() }
            helpers.insert(Helper(owner: owner, method: method, effect: effect, parameter: try reader.readOptionalInt(), labels: try reader.readStrings()))
        }
        for _ in 0..<(try reader.readCount()) {
            helperCalls.append(HelperCall(className: try reader.readString(), method: try reader.readString(), outlet: try reader.readString(),
                                          argument: try reader.readOptionalInt(), line: try reader.readInt(), labels: try reader.readStrings()))
        }
        if try reader.readBool() { deferredExtensions = try reader.readStrings() }
        extendedTypes = try reader.readStrings()
        textMayMissTypes = try reader.readBool()
        helperCallsUnread = try reader.readBool()
        textHoldsViewCode = try reader.readBool()
    }
}

extension SwiftOutlets.Outlet {
    public func write(to writer: inout ByteWriter) {
        writer.write(className)
        writer.write(name)
        writer.write(type)
        writer.writeOptional(ownership)
        writer.write(isImplicitlyUnwrapped)
        writer.write(isCollection)
        writer.write(line)
        writer.write(nameColumn)
        writer.write(byteRange.lowerBound)
        writer.write(byteRange.upperBound)
        for number in [start.line, start.column, end.line, end.column] { writer.write(number) }
    }

    /// Reads what `write(to:)` wrote.
    public init(from reader: inout ByteReader) throws {
        let className = try reader.readString(), name = try reader.readString(), type = try reader.readString()
        let ownership = try reader.readOptionalString()
        let unwrapped = try reader.readBool(), collection = try reader.readBool()
        let line = try reader.readInt(), column = try reader.readInt()
        let lower = try reader.readInt(), upper = try reader.readInt()
        guard lower <= upper else { throw ByteReader.Truncated() }
        let start = SwiftOutlets.Position(line: try reader.readInt(), column: try reader.readInt())
        let end = SwiftOutlets.Position(line: try reader.readInt(), column: try reader.readInt())
        self.init(className: className, name: name, type: type, ownership: ownership, isImplicitlyUnwrapped: unwrapped,
                  isCollection: collection, line: line, nameColumn: column, byteRange: lower..<upper, start: start, end: end)
    }
}

extension ByteWriter {
    public mutating func writeOptional(_ value: String?) {
        write(value != nil)
        if let value { write(value) }
    }

    public mutating func writeStrings(_ values: [String]) {
        write(values.count)
        for value in values { write(value) }
    }

    /// Names with a line each, in name order.
    public mutating func writeLines(_ lines: [String: Int]) {
        write(lines.count)
        for key in lines.keys.sorted() {
            write(key)
            write(lines[key]!)
        }
    }
}

extension ByteReader {
    /// A count written before a list: never negative, never more than the bytes could hold.
    public mutating func readCount() throws -> Int {
        let count = try readInt()
        guard count >= 0, count <= 1 << 24 else { throw Truncated() }
        return count
    }

    public mutating func readOptionalString() throws -> String? {
        try readBool() ? try readString() : nil
    }

    public mutating func readStrings() throws -> [String] {
        try (0..<readCount()).map { _ in try readString() }
    }

    public mutating func readLines() throws -> [String: Int] {
        var lines: [String: Int] = [:]
        for _ in 0..<(try readCount()) { lines[try readString()] = try readInt() }
        return lines
    }
}
