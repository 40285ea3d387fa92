/// A count with its noun: "3 files", "1 file" (a regular plural in `s`).
public func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
