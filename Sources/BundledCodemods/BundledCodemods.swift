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
}
