import CodemodKit
import Foundation
import SwiftTree
import Workspace

/// `run --interactive`: each change is shown with its context, and the user answers, as with
/// `git add -p`: yes, no, all in this file, skip the rest of the file, quit. Only what was accepted
/// is written. Ctrl-C stops the review: what was written is summed up, and the run exits 130.
final class ChangeReview: @unchecked Sendable {
    private let painter: DiffPainter
    private var quit = false
    /// Guards `waiting` and `interrupted`, which the Ctrl-C handler reads on another thread.
    private let lock = NSLock()
    /// Whether the review waits for an answer (nothing is being written then).
    private var waiting = false
    /// Whether Ctrl-C was pressed while a file was being written: the review stops after it.
    private(set) var interrupted = false
    /// Changes (hunks) the run offered for review, in every file.
    private(set) var offered = 0
    /// Changes the user accepted (written, or named by `notWritten`).
    private(set) var accepted = 0
    /// Changes the user left: answered no, skipped with the rest of a file, or the one quit at.
    private(set) var declined = 0
    /// Files with an accepted change.
    private(set) var filesAccepted = 0
    /// Accepted changes by file (as shown), to tell those written from those refused.
    private var acceptedByFile: [String: Int] = [:]
    /// Accepted changes whose file could not be written, and those files (as shown).
    private(set) var notWritten = 0
    private(set) var filesNotWritten: [String] = []

    /// Changes never asked about: those after quitting (or after the terminal closed).
    var notReviewed: Int { offered - accepted - declined }

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
        offered += hunks.count
        var chosen: [[Edit]] = []
        var all = false
        for (index, hunk) in hunks.enumerated() {
            if quit { break }
            if all {
                chosen.append(hunk)
                continue
            }
            guard let set = try? EditSet(hunk, in: source) else { continue }
            write(painter.paint(UnifiedDiff().render(path: display, source: source, edits: set)))
            answering: while true {
                guard let answer = readAnswer(to: "(\(index + 1)/\(hunks.count)) Make this change to \(SafeText.oneLine(display))? [y,n,a,s,q,?] ")?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() else {
                    // The terminal closed: nothing more is accepted, or reviewed. After Ctrl-C,
                    // the file under review is left as it was.
                    quit = true
                    if interrupted { return record([], display) }
                    break answering
                }
                switch answer {
                case "y", "yes": chosen.append(hunk); break answering
                case "n", "no": declined += 1; break answering
                case "a": chosen.append(hunk); all = true; break answering
                case "s":
                    declined += hunks.count - index
                    return record(chosen, display)
                case "q": declined += 1; quit = true; break answering
                case "": continue answering  // an empty line (a CR turned into a line break): ask again
                default: write(Self.help)
                }
            }
        }
        return record(chosen, display)
    }

    /// The answer to a question, a line from the terminal; nil when it closed or after Ctrl-C.
    private func readAnswer(to question: String) -> String? {
        lock.lock()
        if interrupted {
            lock.unlock()
            return nil
        }
        // Waiting from before the question is asked: Ctrl-C after it stops the run at once.
        waiting = true
        lock.unlock()
        write(question)
        let line = readLine(strippingNewline: true)
        lock.lock()
        waiting = false
        lock.unlock()
        return line
    }

    /// Handles Ctrl-C (SIGINT) from now on (the temporary files' handler, which `run` installs
    /// before writing, asks the review first): while the review waits for an answer, the summary
    /// of what was written goes to stderr and the process exits 130 at once (the file under review
    /// is left as it was); while a file is being written, the write finishes, the review stops,
    /// and the run ends with its summaries and exit status 130 (`interrupted`).
    func stopOnInterrupt() {
        TemporaryFiles.handleInterruptions { [weak self] signal in
            guard signal == SIGINT, let self else { return true }
            return self.interrupt()
        }
    }

    /// Whether the process stops now: only while the review waits for an answer (nothing is
    /// being written then), after saying what was written.
    private func interrupt() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        interrupted = true
        guard waiting else { return false }
        write("\n")
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        return true
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
        notWritten += count
        filesNotWritten.append(display)
    }

    /// What the review did, for the end of the run: accepted, declined, not reviewed, and which
    /// accepted changes could not be written.
    var summary: String {
        var text = "Accepted \(accepted) of \(plural(offered, "change"))"
        if accepted > 0 { text += " (\(plural(filesAccepted, "file")))" }
        text += ", declined \(declined)"
        if notReviewed > 0 { text += ", \(notReviewed) not reviewed (\(interrupted ? "after Ctrl-C; the file under review was left as it was" : "after quitting"))" }
        text += "; "
        if accepted == 0 {
            text += "nothing was written."
        } else if notWritten == 0 {
            text += accepted == 1 ? "it was written." : "all were written."
        } else {
            let names = filesNotWritten.prefix(3).map(SafeText.oneLine).joined(separator: ", ") + (filesNotWritten.count > 3 ? ", …" : "")
            text += "\(accepted - notWritten) written, \(notWritten) not: \(names) could not be written (see the \(filesNotWritten.count == 1 ? "error" : "errors") above)."
        }
        return text
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
