import Foundation
import WebKit

// CRLF and an added import.
let web: WKWebView = WKWebView()
let views: [WKWebView] = []
