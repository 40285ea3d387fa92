import Foundation

/// The codemod definitions of `Codemods/`, compiled into the binary.
public enum BundledCodemods {
    /// Each definition's YAML with the name it is reported under (`<bundled>/NAME.yml`).
    public static var definitions: [(origin: String, yaml: String)] {
        embedded.map { entry in
            let data = Data(base64Encoded: entry.base64) ?? Data()
            return ("<bundled>/\(entry.name)", String(decoding: data, as: UTF8.self))
        }
    }

    /// The bundled codemods' ids, for shell completion: each definition file is named after its
    /// id (`strong-iboutlet.yml`), so none is decoded.
    public static var ids: [String] {
        embedded.map { $0.name.hasSuffix(".yml") ? String($0.name.dropLast(4)) : $0.name }
    }
}
