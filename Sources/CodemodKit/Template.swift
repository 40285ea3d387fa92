/// A rewrite template: text with `{{name}}` holes filled from captures and parameters.
///
///     "{{type}}!"        // the text of the capture @type, then "!"
///     "guard let {{binding}}"   // a parameter
public struct Template: Hashable, Sendable {
    enum Piece: Hashable, Sendable {
        case text(String)
        case hole(String)
    }

    let pieces: [Piece]
    /// The template as written.
    public let source: String

    public init(_ source: String) {
        self.source = source
        var pieces: [Piece] = []
        var rest = Substring(source)
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            if open.lowerBound > rest.startIndex { pieces.append(.text(String(rest[..<open.lowerBound]))) }
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            pieces.append(.hole(name))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        self.pieces = pieces
    }

    /// The names of the holes.
    public var holes: [String] {
        pieces.compactMap { if case let .hole(name) = $0 { return name } else { return nil } }
    }

    /// Fills the holes; `value` returns nil for an unknown name, which leaves the hole as written.
    public func render(_ value: (String) -> String?) -> String {
        pieces.map { piece in
            switch piece {
            case let .text(text): return text
            case let .hole(name): return value(name) ?? "{{\(name)}}"
            }
        }.joined()
    }
}

import Foundation
