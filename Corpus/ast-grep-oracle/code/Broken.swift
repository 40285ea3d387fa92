import Foundation

// This file is in the middle of an edit: the second function is missing its closing brace and
// has a stray operator, so the parser recovers around it.
struct DraftStore {
    func save(_ draft: Draft) {
        print("saving", draft.id)
        XCTAssertEqual(draft.isDirty, true)
    }

    func discard(_ draft: Draft) {
        let ok = draft.isEmpty == = true
        print("discarding \(draft.id)")
        DispatchQueue.main.async {
            self.notify(ok)
        }

    func notify(_ ok: Bool) {
        print(ok)
    }
}
