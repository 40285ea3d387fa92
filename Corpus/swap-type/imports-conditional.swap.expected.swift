// Copyright header: stays first.

import Foundation // for URL
import NetKit
#if canImport(UIKit)
import UIKit
#endif
#if DEBUG
@testable import NetKit
#endif

// The new import goes after the last unconditional import, on its own line (the comment on
// `import Foundation` stays put); a conditional `import NetKit` does not count.
let client = NetworkClient()
