import Foundation

// Rebindings inside #if blocks: fine for `let self`, refused for a named binding (its scope
// would differ between build configurations).
final class Tracker {
    func send() {
        upload { [weak self] in
            #if DEBUG
            guard let self else { return }
            self.log("debug upload")
            #else
            print(self?.name ?? "")
            #endif
        }
    }
}
