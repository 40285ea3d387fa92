import Foundation

// Implicit member uses (Swift 5.8+) after a backtick rebinding, run before and after the rewrite
// with a named binding: members get `this.`; locals, loop variables, closure parameters, catch's
// `error`, shorthand unwraps, implicit members and tuple labels keep their meaning.
struct Failure: Error { let code: Int }
enum Mode { case selected, normal }

final class Inbox {
    static let reuseIdentifier = "inbox"
    var title = "inbox-title"
    var count = 0
    var detail: String? = "inbox-detail"
    var messages = ["m1", "m2"]
    var error: Failure? = Failure(code: 1)
    var selected = Mode.normal
    var log: [String] = []

    func run(_ body: @escaping () -> Void) { body() }
    func validate() throws { throw Failure(code: 2) }
    func apply(_ mode: Mode) { log.append("apply \(mode)") }

    func refresh() {
        run { [weak self] in
            guard let `self` = self else { return }
            for (index, title) in messages.enumerated() { log.append("\(index) \(title)") }
            log.append("title \(title)")
            count += 1
            if let detail { log.append("detail \(detail)") }
            do { try validate() } catch { log.append("caught \(error)") }
            let pair = (count: count, selected: true)
            apply(.selected)
            messages.forEach { count in self.log.append("each \(count) \(pair)") }
            markRead()
            log.append(Inbox.reuseIdentifier)
        }
    }
}

extension Inbox {
    func markRead() { log.append("read, selected is \(selected)") }
}

let inbox = Inbox()
inbox.refresh()
inbox.log.forEach { print($0) }
