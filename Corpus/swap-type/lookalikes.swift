import Foundation

// Only the type `Session` is replaced; names that merely look like it are not.
final class SessionFactory {
    func make() -> Session { Session(id: "🆕") }            // replaced: the type
    let mySession = MySession()                               // a different type
    let sessionValue = 1                                      // a variable
    let label = "Session"                                     // a string
    /* Session in a block comment */
    enum Kind { case Session, other }                         // an enum case
    var kind: Kind = .Session                                 // an implicit member
    let nested = Auth.Session()                               // another module's or type's Session
    func open(Session: Bool) {}                               // an argument label
    let selector = #selector(Session.refresh)                 // selectors stay
    let path = #keyPath(Session.token)                        // key-path strings stay
    let typed = \Session.token                                // a typed key path is a use
    let text = "made \(Session.self)"                          // interpolation is code
}
