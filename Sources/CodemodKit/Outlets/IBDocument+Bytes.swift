import InterfaceBuilder
import Workspace

/// A storyboard or xib as read, written into the outlet reader's cache and read back as plain
/// bytes (as `SwiftOutlets` is): a property list of hundreds of documents takes longer to write
/// than reading them took.
extension IBDocument {
    func write(to writer: inout ByteWriter) {
        writer.write(path)
        writer.write(platform.rawValue)
        writer.write(isStoryboard)
        writer.write(objects.count)
        for object in objects {
            writer.write(object.id)
            writer.write(object.element)
            writer.writeOptional(object.customClass)
            writer.writeOptional(object.customModule)
            writer.write(object.moduleFromTarget)
            writer.write(object.isFilesOwner)
            writer.write(object.isReference)
            writer.writeOptional(object.parent)
            writer.write(object.isSubview)
            writer.writeOptional(object.key)
            writer.write(object.line)
        }
        writer.write(connections.count)
        for connection in connections {
            writer.write(connection.kind.rawValue)
            writer.write(connection.name)
            writer.write(connection.source)
            writer.write(connection.destination)
            writer.write(connection.line)
        }
    }

    /// Reads what `write(to:)` wrote.
    /// - Throws: `ByteReader.Truncated` when the bytes end early or are not such a document.
    init(from reader: inout ByteReader) throws {
        let path = try reader.readString()
        guard let platform = Platform(rawValue: try reader.readString()) else { throw ByteReader.Truncated() }
        let isStoryboard = try reader.readBool()
        var objects: [Object] = []
        for _ in 0..<(try reader.readCount()) {
            objects.append(Object(id: try reader.readString(), element: try reader.readString(), customClass: try reader.readOptionalString(),
                                  customModule: try reader.readOptionalString(), moduleFromTarget: try reader.readBool(),
                                  isFilesOwner: try reader.readBool(), isReference: try reader.readBool(), parent: try reader.readOptionalString(),
                                  isSubview: try reader.readBool(), key: try reader.readOptionalString(), line: try reader.readInt()))
        }
        var connections: [Connection] = []
        for _ in 0..<(try reader.readCount()) {
            guard let kind = Connection.Kind(rawValue: try reader.readString()) else { throw ByteReader.Truncated() }
            connections.append(Connection(kind: kind, name: try reader.readString(), source: try reader.readString(),
                                          destination: try reader.readString(), line: try reader.readInt()))
        }
        self.init(path: path, platform: platform, isStoryboard: isStoryboard, objects: objects, connections: connections)
    }
}
