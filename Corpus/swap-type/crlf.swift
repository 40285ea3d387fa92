import Foundation

// CRLF and an added import.
let web: UIWebView = UIWebView()
let views: [UIWebView] = []
