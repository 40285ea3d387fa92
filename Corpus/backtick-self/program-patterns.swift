import Foundation

// Patterns after a backtick rebinding, run before and after the rewrite with a named binding.
// The enum cases share their names with methods of the handler (`openLink`, `share`, `close`):
// a name after a leading dot stays a case. Names bound by a pattern (`case let .openLink(url)`),
// a tuple, `catch`, a closure or `inout` parameter, or a local function hide the members of the
// same name in their scope; everything else that is a member gets `this.`.
enum Action {
    case openLink(URL)
    case share(url: URL, title: String)
    case close
}

struct Failure: Error { let code: Int }

final class LinkHandler {
    var url = URL(string: "https://member.example")!
    var title = "member-title"
    var attempts = 0
    var note: String? = "member-note"
    var log: [String] = []

    func openLink(_ url: URL) { log.append("open \(url.host ?? "?")") }
    func share(url: URL, title: String) { log.append("share \(title) \(url.host ?? "?")") }
    func close() { log.append("close") }
    func summary() -> String { "member summary" }
    func validate() throws { throw Failure(code: 7) }
    func run(_ body: @escaping () -> Void) { body() }
    func perform(_ body: () -> Void, completion: () -> Void) { body(); completion() }

    func handle(_ action: Action) {
        run { [weak self] in
            guard let `self` = self else { return }
            // `if case` binds `url`: the method call gets `this.`, the binding does not.
            if case let .openLink(url) = action {
                openLink(url)
            }
            if case .share(url: let link, title: var caption) = action {
                caption += "!"
                share(url: link, title: caption)
            }
            switch action {
            case .openLink(let url) where url.host == "docs.example":
                log.append("docs \(url.host ?? "?")")
            case let .share(url, title):
                log.append("shared \(title) \(url.host ?? "?")")
            case .close:
                close()
            default:
                log.append("other, member title \(title)")
            }
            guard case .openLink = action else {
                log.append("not a link, member url \(url.host ?? "?")")
                return
            }
            // Argument labels stay; their values are the members.
            share(url: url, title: title)
        }
    }

    func drain(_ queue: [Action]) {
        run { [weak self] in
            guard let `self` = self else { return }
            for case let .openLink(url) in queue {
                openLink(url)
            }
            var pending = queue.makeIterator()
            while case let .share(url, title)? = pending.next() {
                log.append("drained \(title) \(url.host ?? "?")")
            }
            // A tuple declares both names; its value reads the members.
            let (title, url) = (title.uppercased(), url)
            log.append("tuple \(title) \(url.host ?? "?")")
        }
    }

    func retry() {
        run { [weak self] in
            guard let `self` = self else { return }
            do {
                try validate()
            } catch let failure as Failure {
                log.append("failure \(failure.code) after \(attempts)")
            } catch {
                log.append("other \(error)")
            }
            func bump(_ attempts: inout Int) {
                attempts += 10
            }
            bump(&attempts)
            let describe = { (url: URL, title: String) in "\(title)@\(url.host ?? "?")" }
            log.append(describe(url, title))
            let pairs = [(url: url, title: "pair")]
            pairs.forEach { (pair: (url: URL, title: String)) in
                self.log.append("pair \(pair.title) \(pair.url.host ?? "?")")
            }
            let titles = [self].map(\.title) + [self].map(\LinkHandler.title)
            log.append("paths \(titles)")
            perform({ self.attempts += 1 }, completion: { self.log.append("done after \(self.attempts)") })
        }
    }

    func report() {
        run { [weak self] in
            guard let `self` = self else { return }
            // The local function is called before it is declared: it hides the method.
            log.append(summary())
            func summary() -> String { "local summary" }
            // A local constant declared later does not hide the member before it.
            log.append("before \(title)")
            let title = "local-title"
            log.append("after \(title)")
            // A condition's binding is not seen by its own value, nor by the `else` branch.
            if let note = note, note.hasSuffix("note") {
                log.append("bound \(note)")
            }
            if let note = note?.uppercased(), note.isEmpty {
                log.append("empty \(note)")
            } else {
                log.append("else \(note ?? "-")")
            }
        }
    }
}

let handler = LinkHandler()
handler.handle(.openLink(URL(string: "https://docs.example")!))
handler.handle(.share(url: URL(string: "https://share.example")!, title: "news"))
handler.handle(.close)
handler.handle(.openLink(URL(string: "https://other.example")!))
handler.drain([.share(url: URL(string: "https://b.example")!, title: "b"), .openLink(URL(string: "https://a.example")!), .close])
handler.retry()
handler.report()
handler.log.forEach { print($0) }
