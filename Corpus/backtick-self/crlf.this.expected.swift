import Foundation

// CRLF line endings, and a rebinding spread over lines. ✅
final class Sync {
    func go() {
        run { [weak self] in
            guard let this = self,
                  this.enabled else { return }
            this.flush()
        }
    }
}
