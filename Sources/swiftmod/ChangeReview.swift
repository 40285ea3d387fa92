import CodemodKit
import Foundation
import SwiftTree

/// `run --interactive`: each change is shown with its context, and the user answers, as with
/// `git add -p`: yes, no, all in this file, skip the rest of the file, quit. Only what was accepted
/// is written.
final class ChangeReview: @unchecked Sendable {
    private let painter: DiffPainter
    private var quit = false
    private(set) var shown = 0
    private(set) var accepted = 0
    private(set) var filesAccepted = 0
    /// Accepted changes by file (as shown), to tell those written from those refused.
    private(set) var acceptedByFile: [String: Int] = [:]

    init(painter: DiffPainter) {
        self.painter = painter
    }

    static let help = """
    y - make this change
    n - leave it
    a - make this change and all the others in this file
    s - leave this one and all the others in this file
    q - quit: leave this one and everything after it (what was accepted is written)
    ? - this help

    """

    /// The hunks of a file the user accepts.
    func choose(_ display: String, _ source: SourceText, _ hunks: [[Edit]]) -> [[Edit]] {
        var chosen: [[Edit]] = []
        var all = false
        for (index, hunk) in hunks.enumerated() {
            if quit { break }
            if all {
                chosen.append(hunk)
                continue
            }
            guard let set = try? EditSet(hunk, in: source) else { continue }
            shown += 1
            write(painter.paint(UnifiedDiff().render(path: display, source: source, edits: set)))
            answering: while true {
                write("(\(index + 1)/\(hunks.count)) Make this change to \(SafeText.oneLine(display))? [y,n,a,s,q,?] ")
                guard let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() else {
                    // The terminal closed: nothing more is accepted.
                    quit = true
                    break answering
                }
                switch answer {
                case "y", "yes": chosen.append(hunk); break answering
                case "n", "no": break answering
                case "a": chosen.append(hunk); all = true; break answering
                case "s": return record(chosen, display)
                case "q": quit = true; break answering
                case "": continue answering  // an empty line (a CR turned into a line break): ask again
                default: write(Self.help)
                }
            }
        }
        return record(chosen, display)
    }

    private func record(_ chosen: [[Edit]], _ display: String) -> [[Edit]] {
        accepted += chosen.count
        if !chosen.isEmpty {
            filesAccepted += 1
            acceptedByFile[display] = chosen.count
        }
        return chosen
    }

    /// A file whose write was refused or failed: its accepted changes were not made.
    func notWritten(_ display: String) {
        guard let count = acceptedByFile.removeValue(forKey: display) else { return }
        accepted -= count
        filesAccepted -= 1
        refused += count
    }

    private(set) var refused = 0

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
