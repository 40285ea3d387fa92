import Foundation

/// Draws the module graph as SVG, without Graphviz: modules in layers (each above what it depends
/// on, foundations at the bottom), ordered within a layer to keep dependencies short, coloured by
/// type; forbidden dependencies in red, dependencies on a cycle in dashed red, a badge with the
/// violations left on each module. Elements carry `data-*` attributes so tools can read them back.
enum ModuleGraphSVG {
    struct Placed {
        var x: Double
        var y: Double
        var width: Double
    }

    static let nodeHeight = 40.0, gapX = 22.0, gapY = 64.0, margin = 70.0, marginY = 16.0, maxPerRow = 10
    static let palette = ["#3559d6", "#1f8a4c", "#8e44ad", "#c77700", "#00838f", "#ad1457", "#5d4037", "#546e7a"]

    static func render(_ overview: ModuleOverview) -> String {
        let modules = overview.modules
        guard !modules.isEmpty else { return "" }
        let index = Dictionary(uniqueKeysWithValues: modules.enumerated().map { ($1.name, $0) })
        let dependencies = modules.indices.map { node in
            overview.edges.filter { $0.from == modules[node].name }.compactMap { index[$0.to] }
        }
        // Modules outside the repository sit in a row of their own, below the rest.
        var layers = layer(dependencies.map { $0.filter { !modules[$0].external } })
        for node in modules.indices where modules[node].external { layers[node] = -1 }
        let rows = order(layers: layers, dependencies: dependencies, modules: modules)
        // Place rows top-down: the highest layer first.
        var placed = [Placed](repeating: Placed(x: 0, y: 0, width: 0), count: modules.count)
        var widest = 0.0
        for (rowIndex, row) in rows.enumerated() {
            var x = margin
            for node in row {
                let width = max(84, Double(modules[node].name.count) * 7.4 + 22)
                placed[node] = Placed(x: x, y: marginY + Double(rowIndex) * (nodeHeight + gapY), width: width)
                x += width + gapX
            }
            widest = max(widest, x - gapX + margin)
        }
        // Centre each row.
        for row in rows {
            guard let last = row.last else { continue }
            let shift = (widest - (placed[last].x + placed[last].width + margin)) / 2
            for node in row { placed[node].x += shift }
        }
        let height = marginY * 2 + Double(rows.count) * nodeHeight + Double(max(0, rows.count - 1)) * gapY
        // A type keeps its colour from report to report: picked by its place in `.swiftmod.yml`.
        let order = overview.types.map(\.type)
        let types = order.filter { type in modules.contains { $0.type == type } }
        func colour(_ type: String?) -> String {
            type.flatMap { order.firstIndex(of: $0) }.map { palette[$0 % palette.count] } ?? "#7a8194"
        }

        var svg = "<svg class=\"modules\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(format(widest)) \(format(height))\" width=\"\(format(widest))\" role=\"img\" aria-label=\"Module dependency graph\">\n"
        svg += """
          <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#9aa3b5"/></marker>
            <marker id="arrow-bad" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c62828"/></marker>
          </defs>

        """
        // Edges first, so that modules are drawn over them; the red ones last, on top.
        let ordered = overview.edges.sorted { ($0.forbidden || $0.inCycle ? 1 : 0) < ($1.forbidden || $1.inCycle ? 1 : 0) }
        for edge in ordered {
            guard let from = index[edge.from], let to = index[edge.to] else { continue }
            let source = placed[from], target = placed[to]
            let rowsApart = abs(target.y - source.y) / (nodeHeight + gapY)
            let path: String
            if target.y > source.y, rowsApart < 1.5 {
                // Down to the next row: a plain S-curve.
                let x1 = source.x + source.width / 2, y1 = source.y + nodeHeight
                let x2 = target.x + target.width / 2, y2 = target.y
                path = "M\(format(x1)),\(format(y1)) C\(format(x1)),\(format(y1 + gapY * 0.6)) \(format(x2)),\(format(y2 - gapY * 0.6)) \(format(x2)),\(format(y2))"
            } else {
                // Past other rows, up, or along a row: out of the side and round, so that it does
                // not run through the modules between (further apart, wider round).
                let down = target.y > source.y
                let x1 = source.x + (down ? 0 : source.width), y1 = source.y + nodeHeight / 2
                let x2 = target.x + (down ? 0 : target.width), y2 = target.y + nodeHeight / 2
                let out = (down ? -1.0 : 1.0) * (28 + 14 * max(1, rowsApart))
                path = "M\(format(x1)),\(format(y1)) C\(format(x1 + out)),\(format(y1)) \(format(x2 + out)),\(format(y2)) \(format(x2)),\(format(y2))"
            }
            let bad = edge.forbidden || edge.inCycle
            let classes = ["edge"] + (edge.forbidden ? ["forbidden"] : []) + (edge.allowed ? ["allowed"] : []) + (edge.inCycle ? ["cycle"] : [])
            let what = edge.forbidden ? " — forbidden by its type" : edge.allowed ? " — forbidden by its type, allowed by a comment"
                : edge.inCycle ? " — on a dependency cycle" : ""
            svg += "  <path class=\"\(classes.joined(separator: " "))\" d=\"\(path)\" marker-end=\"url(#\(bad ? "arrow-bad" : "arrow"))\" data-from=\"\(escape(edge.from))\" data-to=\"\(escape(edge.to))\" data-forbidden=\"\(edge.forbidden)\" data-allowed=\"\(edge.allowed)\" data-cycle=\"\(edge.inCycle)\"><title>\(escape(edge.from)) → \(escape(edge.to)) (\(escape(edge.kinds.joined(separator: ", "))))\(what)</title></path>\n"
        }
        for (node, module) in modules.enumerated() {
            let place = placed[node]
            let fill = colour(module.type)
            svg += "  <g class=\"module\(module.external ? " external" : "")\" data-module=\"\(escape(module.name))\" data-type=\"\(escape(module.type ?? ""))\" data-violations=\"\(module.violations)\">"
            svg += "<title>\(escape(module.name))\(module.type.map { " (\(escape($0)))" } ?? "")\(module.owners.isEmpty ? "" : " — " + escape(module.owners.joined(separator: " ")))\(module.violations > 0 ? " — \(module.violations) violation\(module.violations == 1 ? "" : "s") left" : "")</title>"
            svg += "<rect x=\"\(format(place.x))\" y=\"\(format(place.y))\" width=\"\(format(place.width))\" height=\"\(format(nodeHeight))\" rx=\"7\" fill=\"\(fill)\" fill-opacity=\"\(module.external ? "0.04" : "0.12")\" stroke=\"\(fill)\" stroke-width=\"1.5\"\(module.external ? " stroke-dasharray=\"4 3\"" : "")/>"
            svg += "<text class=\"name\" x=\"\(format(place.x + place.width / 2))\" y=\"\(format(place.y + 17))\" text-anchor=\"middle\">\(escape(module.name))</text>"
            svg += "<text class=\"type\" x=\"\(format(place.x + place.width / 2))\" y=\"\(format(place.y + 31))\" text-anchor=\"middle\" fill=\"\(fill)\">\(escape(module.type ?? (module.external ? "external" : "no type")))</text>"
            if module.violations > 0 {
                svg += "<circle class=\"badge\" cx=\"\(format(place.x + place.width - 2))\" cy=\"\(format(place.y + 2))\" r=\"9\"/>"
                svg += "<text class=\"badge-count\" x=\"\(format(place.x + place.width - 2))\" y=\"\(format(place.y + 5.5))\" text-anchor=\"middle\">\(module.violations)</text>"
            }
            svg += "</g>\n"
        }
        svg += "</svg>\n"
        let legend = types.map { "<span class=\"type-key\" style=\"border-color:\(colour($0))\">\(escape($0))</span>" }
        return svg + "<p class=\"legend\">\(legend.joined(separator: " ")) <span class=\"key forbidden\"></span> forbidden dependency <span class=\"key allowed\"></span> forbidden, allowed by a comment <span class=\"key cycle\"></span> on a cycle <span class=\"badge-key\">n</span> violations left in the module; dashed boxes are modules outside the repository that a type may not import</p>\n"
    }

    /// Each module's layer: 0 for a module that depends on nothing, else one above the highest of
    /// its dependencies; a dependency that closes a cycle (found depth first) is left out.
    static func layer(_ dependencies: [[Int]]) -> [Int] {
        var layer = [Int](repeating: -1, count: dependencies.count)
        var onPath = [Bool](repeating: false, count: dependencies.count)
        for start in dependencies.indices where layer[start] < 0 {
            var work: [(node: Int, next: Int)] = [(start, 0)]
            onPath[start] = true
            while let (node, next) = work.last {
                if next < dependencies[node].count {
                    work[work.count - 1].next += 1
                    let dependency = dependencies[node][next]
                    if layer[dependency] < 0, !onPath[dependency] {
                        onPath[dependency] = true
                        work.append((dependency, 0))
                    }
                    continue
                }
                work.removeLast()
                onPath[node] = false
                layer[node] = (dependencies[node].filter { layer[$0] >= 0 && !onPath[$0] }.map { layer[$0] }.max() ?? -1) + 1
            }
        }
        return layer
    }

    /// Rows top-down (highest layer first, a layer wider than `maxPerRow` wrapped), each ordered
    /// by the mean position of its modules' neighbours (two sweeps), starting by type and name.
    static func order(layers: [Int], dependencies: [[Int]], modules: [ModuleOverview.Module]) -> [[Int]] {
        let top = layers.max() ?? 0, bottom = min(0, layers.min() ?? 0)
        var byLayer = (bottom...top).reversed().map { level in
            modules.indices.filter { layers[$0] == level }.sorted { (modules[$0].type ?? "~", modules[$0].name) < (modules[$1].type ?? "~", modules[$1].name) }
        }
        var dependents = [[Int]](repeating: [], count: modules.count)
        for (node, list) in dependencies.enumerated() { for dependency in list { dependents[dependency].append(node) } }
        for _ in 0..<2 {
            var position = [Double](repeating: 0, count: modules.count)
            for row in byLayer { for (offset, node) in row.enumerated() { position[node] = Double(offset) / Double(max(1, row.count - 1)) } }
            for (level, row) in byLayer.enumerated() where level > 0 {
                byLayer[level] = row.enumerated().sorted { lhs, rhs in
                    func centre(_ node: Int, _ fallback: Int) -> Double {
                        let near = dependents[node]
                        return near.isEmpty ? Double(fallback) / Double(max(1, row.count - 1)) : near.map { position[$0] }.reduce(0, +) / Double(near.count)
                    }
                    return (centre(lhs.element, lhs.offset), lhs.offset) < (centre(rhs.element, rhs.offset), rhs.offset)
                }.map(\.element)
                for (offset, node) in byLayer[level].enumerated() { position[node] = Double(offset) / Double(max(1, byLayer[level].count - 1)) }
            }
        }
        return byLayer.flatMap { row in stride(from: 0, to: row.count, by: maxPerRow).map { Array(row[$0..<min($0 + maxPerRow, row.count)]) } }
            .filter { !$0.isEmpty }
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }
    static func escape(_ text: String) -> String { ProgressHTML.escape(text) }
}
