#!/usr/bin/env python3
"""Generates a large corpus of realistic Swift for the benchmark (our own generator).

Files look like app code: view controllers, view models, services, extensions, closures, switch
statements, string literals, `#if DEBUG` blocks and comments. A few percent of them hold the
patterns of the three bundled migrations (weak implicitly unwrapped outlets, backtick self
rebindings, UIWebView), next to look-alikes that are not uses (optional weak outlets, outlet
collections, `strongSelf`, the words in strings and comments). Deterministic for a given seed.

Usage: generate-corpus.py OUTPUT_DIR [--lines 1000000] [--seed 7]
Prints the expected number of uses per migration as JSON on stdout.
"""
import argparse
import json
import os
import random

p = argparse.ArgumentParser()
p.add_argument("output")
p.add_argument("--lines", type=int, default=1_000_000)
p.add_argument("--seed", type=int, default=7)
args = p.parse_args()
rng = random.Random(args.seed)

NOUNS = ["Profile", "Feed", "Inbox", "Checkout", "Search", "Settings", "Player", "Map", "Cart", "Order",
         "Account", "Story", "Comment", "Photo", "Video", "Payment", "Ticket", "Route", "Review", "Device"]
TYPES = ["String", "Int", "Bool", "Double", "[String]", "Date", "URL", "Data"]
expected = {"webview": 0, "backtick-self": 0, "strong-iboutlet": 0}


def property_lines(name):
    out = []
    for i in range(rng.randint(3, 8)):
        t = rng.choice(TYPES)
        access = rng.choice(["", "private ", "private(set) ", "fileprivate "])
        out.append(f"    {access}var {name.lower()}{i}: {t}?")
    return out


def outlet_lines():
    out = []
    for i in range(rng.randint(1, 4)):
        kind = rng.random()
        if kind < 0.45:
            access = rng.choice(["", "private ", "fileprivate "])
            out.append(f"    @IBOutlet {access}weak var label{i}: UILabel!")
            expected["strong-iboutlet"] += 1
        elif kind < 0.65:
            out.append(f"    @IBOutlet weak var optionalView{i}: UIView?")
        elif kind < 0.8:
            out.append(f"    @IBOutlet var strongButton{i}: UIButton!")
        elif kind < 0.9:
            out.append(f"    @IBOutlet var stack{i}: [UIView]!")
        else:
            out.append("    @IBOutlet")
            out.append(f"    weak var split{i}: UIStackView!")
            expected["strong-iboutlet"] += 1
    return out


def closure_lines(name, rebind):
    body = []
    if rebind == "guard":
        body.append("            guard let `self` = self else { return }")
        expected["backtick-self"] += 1
        obj = "self"
    elif rebind == "if":
        body.append("            if let `self` = self, !items.isEmpty {")
        body.append("                self.render(items)")
        body.append("            }")
        expected["backtick-self"] += 1
        return ["        service.fetch(page: page) { [weak self] items in"] + body + ["        }"]
    else:
        body.append("            guard let strongSelf = self else { return }")
        obj = "strongSelf"
    body += [
        f"            {obj}.items = items.filter {{ !$0.isEmpty }}",
        f"            {obj}.log(\"loaded \\(items.count) {name.lower()} items\")",
        "            #if DEBUG",
        f"            print(\"debug: \\({obj}.items.count)\")",
        "            #endif",
    ]
    return ["        service.fetch(page: page) { [weak self] items in"] + body + ["        }"]


def method_lines(name, index, rebind, webview):
    out = [f"    /// Loads page {index} of the {name.lower()} list.",
           f"    func load{name}{index}(page: Int) {{"]
    out += closure_lines(name, rebind)
    if webview:
        out.append("        let preview: UIWebView = UIWebView(frame: .zero)")
        out.append("        preview.isHidden = true")
        expected["webview"] += 2
    out += [
        "        switch page {",
        "        case 0: log(\"first page\")",
        "        case 1...10: log(\"page \\(page)\")",
        "        default: log(\"far page\")",
        "        }",
        "        let summary = items.map { $0.uppercased() }.joined(separator: \", \")",
        "        if summary.count > 100 { log(String(summary.prefix(100))) }",
        "    }",
        "",
    ]
    return out


def file_text(index):
    name = rng.choice(NOUNS)
    # How often each pattern appears: a few percent of files, as in a codebase mid-migration;
    # `mentions` files name the patterns only in comments and strings (parsed, but no uses).
    has_outlets = rng.random() < 0.03
    has_rebind = rng.random() < 0.04
    has_webview = rng.random() < 0.02
    mentions = rng.random() < 0.02
    lines = [
        "//",
        f"//  {name}ViewController{index}.swift",
        "//  Generated for the swiftmod benchmark.",
        "//",
        "",
        "import Foundation",
        "import UIKit",
        "",
        f"/// Shows the {name.lower()} screen." + (" 📱" if rng.random() < 0.2 else ""),
        f"final class {name}ViewController{index}: UIViewController {{",
    ]
    if has_outlets:
        lines += outlet_lines()
    lines += property_lines(name)
    lines += ["    var items: [String] = []", "    private let service = Service()", ""]
    if mentions:
        lines.append("    // Old code used UIWebView and `guard let `self` = self`; see the migration docs.")
        lines.append("    private let note = \"@IBOutlet weak var x: UILabel! and UIWebView are deprecated\"")
    for m in range(rng.randint(4, 9)):
        rebind = "plain"
        if has_rebind and m < 2:
            rebind = rng.choice(["guard", "if"])
        lines += method_lines(name, m, rebind, has_webview and m == 0)
    lines += [
        "    func log(_ message: String) { print(\"[\\(type(of: self))] \\(message)\") }",
        "    func render(_ items: [String]) { self.items = items }",
        "}",
        "",
        f"extension {name}ViewController{index}: CustomStringConvertible {{",
        f"    var description: String {{ \"{name}ViewController{index}(\\(items.count) items)\" }}",
        "}",
        "",
    ]
    return lines


total = 0
index = 0
os.makedirs(args.output, exist_ok=True)
while total < args.lines:
    lines = file_text(index)
    module = f"Module{index % 60:02d}"
    folder = os.path.join(args.output, "Modules", module, "Sources", module)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"File{index:05d}.swift"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    total += len(lines)
    index += 1

with open(os.path.join(args.output, ".swiftmod.yml"), "w") as f:
    f.write("""migrations:
  - id: webview
    codemod: swap-type
    params: { from: UIWebView, to: WKWebView, module: UIKit, import: WebKit }
    priority: P1
  - codemod: backtick-self
  - codemod: strong-iboutlet
""")
print(json.dumps({"files": index, "lines": total, "uses": expected}))
