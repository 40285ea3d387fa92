import CodemodKit
import Foundation
import Lockdown
import Migrations
import SwiftTree
import Workspace

/// `swiftmod lsp`: a language server (LSP 3.17, a subset) over stdin and stdout.
///
/// - Diagnostics for every open Swift document, from the editor's text: a use the baseline does not
///   allow is an error, a baselined use a hint tagged deprecated ("deprecated: webview, P1, due
///   2027-03-31"), a wrong allow comment a warning.
/// - Hover on a use: why, what instead, docs, contact, deadline.
/// - Code actions: apply the codemod here or in the whole file, or allow the use with a comment:
///   workspace edits the editor applies; nothing is written behind its back.
/// A document's configuration is the one a `check` at the root of its repository uses: the
/// outermost `.swiftmod.yml` above it that covers it (else the nearest); it is read again when it
/// or the baseline changes. Edits queued while the server was busy are applied together and the
/// text analysed once; messages over a size limit are refused, and the server goes on. Logs go to
/// stderr only.
public final class LanguageServer {
    private let channel: MessageChannel
    private let parser = Parser()
    /// Open documents: uri → text.
    private var documents: [String: String] = [:]
    /// Projects by configuration path.
    private var projects: [String: Project] = [:]
    /// Configuration problems already logged (each once).
    private var reported = Set<String>()
    /// The analysis of each open document's current text (made again when the text changes).
    private var analyses: [String: (DocumentAnalysis, Project)] = [:]
    private var shutdownRequested = false
    /// Documents whose text changed (opened or edited) since their diagnostics were published, in
    /// the order they changed: published when no message is waiting, so that edits queued while
    /// the server was busy are all applied first and the text is analysed once.
    private var unpublished: [String] = []
    /// Projects read again since their documents were last checked.
    private var staleProjects = Set<String>()
    /// Whether the client can be asked to watch files (`client/registerCapability`).
    private var canWatchFiles = false

    /// The command line's version: the server shares its caches (nil: none).
    public var cacheVersion: String?

    public init(channel: MessageChannel = MessageChannel()) {
        self.channel = channel
    }

    /// Serves until the client says `exit` or goes away; returns the exit status.
    public func run() -> Int32 {
        while true {
            if !unpublished.isEmpty, !channel.hasMessageWaiting() {
                while let uri = unpublished.first { publish(uri) }
            }
            if channel.isClosed {
                log("the client closed its end; stopping")
                return shutdownRequested ? 0 : 1
            }
            switch channel.read() {
            case .end:
                log("the client closed the connection")
                return shutdownRequested ? 0 : 1
            case let .failed(why):
                log("reading from the client failed (\(why)); stopping")
                return 1
            case let .malformed(why):
                log("skipped a malformed message: \(why)")
                channel.send(["jsonrpc": "2.0", "id": NSNull(), "error": ["code": -32700, "message": "parse error: \(why)"]])
            case let .tooLarge(size):
                // Its id is in the bytes skipped: the error has none (as JSON-RPC says then).
                let why = "refused a message of \(size) bytes: over the limit of \(MessageChannel.maxMessageSize) bytes (\(ByteSize.describe(MessageChannel.maxMessageSize))); skipped"
                log(why)
                channel.send(["jsonrpc": "2.0", "id": NSNull(), "error": ["code": -32600, "message": why]])
                say("a message bigger than \(ByteSize.describe(MessageChannel.maxMessageSize)) was refused (a document that big is not checked)", once: "too large")
            case let .message(message):
                if let status = handle(message) { return status }
            }
        }
    }

    /// Handles one message; returns an exit status when the server must stop.
    func handle(_ message: [String: Any]) -> Int32? {
        let method = message["method"] as? String
        let id = message["id"]
        let params = message["params"] as? [String: Any] ?? [:]
        if shutdownRequested, method != "exit" {
            // After `shutdown` only `exit` is served: a request is an invalid request (as LSP says),
            // a notification is dropped.
            if let id, method != nil {
                channel.send(["jsonrpc": "2.0", "id": id, "error": ["code": -32600, "message": "the server is shutting down: only exit is accepted after shutdown"]])
            }
            return nil
        }
        switch method {
        case "initialize":
            let workspace = (params["capabilities"] as? [String: Any])?["workspace"] as? [String: Any]
            canWatchFiles = ((workspace?["didChangeWatchedFiles"] as? [String: Any])?["dynamicRegistration"] as? Bool) == true
            respond(id, [
                "capabilities": [
                    "textDocumentSync": ["openClose": true, "change": 1, "save": ["includeText": false]],
                    "hoverProvider": true,
                    "codeActionProvider": ["codeActionKinds": ["quickfix"]],
                ],
                "serverInfo": ["name": "swiftmod"],
            ])
        case "initialized":
            // Told of files changed outside the editor (a checkout, `swiftmod baseline` in a
            // terminal), when the client can watch them.
            if canWatchFiles {
                let watchers = ["**/*.swift", "**/.swiftmod.yml", "**/*.jsonl", "**/CODEOWNERS"].map { ["globPattern": $0] }
                channel.send(["jsonrpc": "2.0", "id": "swiftmod-watch", "method": "client/registerCapability", "params": [
                    "registrations": [["id": "swiftmod-watch", "method": "workspace/didChangeWatchedFiles", "registerOptions": ["watchers": watchers]]],
                ]])
            }
        case "$/setTrace", "$/cancelRequest", "workspace/didChangeConfiguration":
            break
        case nil where message["result"] != nil || message["error"] != nil:
            // A response to a request of ours (the registration): nothing to do.
            break
        case "workspace/didChangeWatchedFiles":
            diskChanged(saved: nil)
        case "shutdown":
            shutdownRequested = true
            unpublished = []
            respond(id, NSNull())
        case "exit":
            return shutdownRequested ? 0 : 1
        case "textDocument/didOpen":
            if let document = params["textDocument"] as? [String: Any], let uri = document["uri"] as? String {
                documents[uri] = document["text"] as? String ?? ""
                analyses[uri] = nil
                // Files may have changed on disk since the module graph was read or renamed files
                // were followed (a checkout, `git mv`): if so, every open document of the project
                // is checked again.
                if let configurationPath = configurationPath(of: uri), projects[configurationPath]?.refresh(unlessDoneWithin: 2) == true {
                    staleProjects.insert(configurationPath)
                }
                changed(uri)
            }
        case "textDocument/didChange":
            if let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String,
               let changes = params["contentChanges"] as? [[String: Any]] {
                // A change with a range to a document that is not open (one refused for its size)
                // has no text to apply to.
                guard documents[uri] != nil || !changes.contains(where: { $0["range"] != nil }) else {
                    log("skipped a change to \(uri), which is not open")
                    break
                }
                // Whole texts, as announced; a change with a range (incremental) is applied to it.
                var text = documents[uri] ?? ""
                for change in changes {
                    guard let new = change["text"] as? String else { continue }
                    if let range = change["range"] as? [String: Any], let start = range["start"] as? [String: Any],
                       let end = range["end"] as? [String: Any] {
                        let source = SourceText(text)
                        let from = DocumentAnalysis.byte(of: start, in: source), to = max(from, DocumentAnalysis.byte(of: end, in: source))
                        text = String(decoding: source.bytes[..<from] + Array(new.utf8) + source.bytes[to...], as: UTF8.self)
                    } else {
                        text = new
                    }
                }
                documents[uri] = text
                analyses[uri] = nil
                changed(uri)
            }
        case "textDocument/didSave":
            if let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String {
                // A save may follow `baseline` or an edit of `.swiftmod.yml` (read again if so), and
                // may change the module graph every open document is checked against.
                diskChanged(saved: uri)
            }
        case "textDocument/didClose":
            if let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String {
                documents[uri] = nil
                analyses[uri] = nil
                unpublished.removeAll { $0 == uri }
                channel.send(["jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": ["uri": uri, "diagnostics": []]])
            }
        case "textDocument/hover", "textDocument/codeAction":
            guard (params["textDocument"] as? [String: Any])?["uri"] is String,
                  method == "textDocument/hover" ? params["position"] is [String: Any] : params["range"] is [String: Any] else {
                invalidParams(id, "\(method ?? ""): textDocument.uri and \(method == "textDocument/hover" ? "position" : "range") are required")
                break
            }
            if method == "textDocument/hover" { respond(id, hover(params) ?? NSNull()) } else { respond(id, codeActions(params)) }
        default:
            if let id {
                // A request this server does not know: say so (a notification is ignored).
                channel.send(["jsonrpc": "2.0", "id": id, "error": ["code": -32601, "message": "method not found: \(method ?? "(none)")"]])
            }
        }
        return nil
    }

    private func invalidParams(_ id: Any?, _ message: String) {
        guard let id else { return }
        channel.send(["jsonrpc": "2.0", "id": id, "error": ["code": -32602, "message": message]])
    }

    private func respond(_ id: Any?, _ result: Any) {
        guard let id else { return }
        channel.send(["jsonrpc": "2.0", "id": id, "result": result])
    }

    /// Files changed on disk: the module graphs are read again (what changed); when a graph
    /// changed, every open document of its project is checked again, else the saved one (its
    /// configuration or baseline may have changed too: then `publish` checks the others).
    private func diskChanged(saved uri: String?) {
        for (path, project) in projects where project.refresh() {
            staleProjects.insert(path)
            for document in documents.keys where configurationPath(of: document) == path { analyses[document] = nil }
        }
        if let uri, documents[uri] != nil {
            publish(uri)
        } else if let any = documents.keys.sorted().first {
            publish(any)
        }
    }

    /// Notes that a document's text changed: its diagnostics are published once no message is
    /// waiting (after the edits queued behind this one).
    private func changed(_ uri: String) {
        if !unpublished.contains(uri) { unpublished.append(uri) }
    }

    private func log(_ text: String) {
        FileHandle.standardError.write(Data("swiftmod lsp: \(SafeText.oneLine(text))\n".utf8))
    }

    // MARK: - Analysis

    /// The project and the repo-relative path of a document, when it is a Swift file under a
    /// `.swiftmod.yml`.
    private func project(of uri: String) -> (Project, String)? {
        guard let url = URL(string: uri), let configurationPath = configurationPath(of: uri),
              let project = loadedProject(configurationPath), let relative = relativePath(url.standardizedFileURL.path, in: project) else { return nil }
        return (project, relative)
    }

    /// The project of a configuration, read again when it or its baseline changed; nil (said once)
    /// when it cannot be read.
    private func loadedProject(_ configurationPath: String) -> Project? {
        if projects[configurationPath]?.isStale ?? true {
            do {
                if projects[configurationPath] != nil { staleProjects.insert(configurationPath) }
                projects[configurationPath] = try Project(configurationPath: configurationPath, cacheVersion: cacheVersion)
                reported.remove(configurationPath)
            } catch {
                projects[configurationPath] = nil
                if reported.insert(configurationPath).inserted {
                    log("\(error)")
                    channel.send(["jsonrpc": "2.0", "method": "window/showMessage",
                                  "params": ["type": 1, "message": "swiftmod: \(error)"]])
                }
                return nil
            }
        }
        return projects[configurationPath]
    }

    /// The repo-relative path of a file, when the project looks at it. A manifest counts for
    /// module rules even when `include:` leaves it out.
    private func relativePath(_ path: String, in project: Project) -> String? {
        guard let relative = RepositoryPath.relative(path, root: project.configuration.root),
              project.configuration.covers(relative) || ModuleMap.isManifest(relative) else { return nil }
        // A dependency checkout or a submodule is judged by no check, so not in the editor either.
        if let folder = FileWalker.skippedFolder(of: relative, root: project.configuration.root),
           !(folder.isCheckout && FileSelection.isInside(folder.path, FileSelection.targetFolders(project.configuration))) {
            return nil
        }
        return relative
    }

    /// The `.swiftmod.yml` of a Swift document: the one a `check` at the root of its repository
    /// uses for it, that is the outermost above its folder (up to the folder holding `.git`) that
    /// covers it; when none covers it (a subfolder the root's `exclude:` leaves out), the
    /// nearest, as `check` run in the subfolder. A configuration that cannot be read is the
    /// document's if it is the outermost (it is said, and `check` at the root would fail).
    private func configurationPath(of uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL, url.pathExtension == "swift" else { return nil }
        let path = url.standardizedFileURL.path
        let candidates = Self.configurations(above: (path as NSString).deletingLastPathComponent)
        for candidate in candidates.dropLast() {
            guard let project = loadedProject(candidate) else { return candidate }
            if relativePath(path, in: project) != nil { return candidate }
        }
        return candidates.last
    }

    /// The `.swiftmod.yml` files in a folder and the folders above it, up to the top of its git
    /// work tree (the folder holding `.git`), outermost first.
    private static func configurations(above folder: String) -> [String] {
        var found: [String] = []
        var current = URL(fileURLWithPath: folder).standardizedFileURL
        while true {
            let candidate = current.appendingPathComponent(Configuration.fileName).path
            if FileManager.default.fileExists(atPath: candidate) { found.insert(candidate, at: 0) }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path || FileManager.default.fileExists(atPath: current.appendingPathComponent(".git").path) { return found }
            current = parent
        }
    }

    private func analysis(of uri: String) -> (DocumentAnalysis, Project)? {
        guard let text = documents[uri], let (project, relative) = project(of: uri) else { return nil }
        if let known = analyses[uri], known.1 === project { return known }
        // As the command line: a file over the size limit is not looked at.
        let limit = project.configuration.maxFileSize ?? SourceFileReader.defaultMaxFileSize
        guard text.utf8.count <= limit else {
            say("\(relative) is bigger than \(limit) bytes (max-file-size): not checked", once: "size \(uri)")
            return nil
        }
        if let problem = project.baselineProblem {
            say("the baseline cannot be read, so every use shows as new: \(problem)", once: "baseline \(project.configuration.baselinePath) \(problem)")
        }
        do {
            let found = (try DocumentAnalysis(text: text, file: relative, project: project, parser: parser), project)
            analyses[uri] = found
            return found
        } catch {
            log("\(relative): \(error)")
            return nil
        }
    }

    /// Tells the user once (a message in the editor, and stderr).
    private func say(_ text: String, once key: String) {
        guard reported.insert(key).inserted else { return }
        log(text)
        channel.send(["jsonrpc": "2.0", "method": "window/showMessage", "params": ["type": 2, "message": "swiftmod: \(text)"]])
    }

    private func publish(_ uri: String) {
        unpublished.removeAll { $0 == uri }
        var diagnostics: [[String: Any]] = []
        if let (analysis, project) = analysis(of: uri) {
            diagnostics = analysis.items.map { diagnostic($0, analysis: analysis, project: project) }
        }
        channel.send(["jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": ["uri": uri, "diagnostics": diagnostics]])
        // `.swiftmod.yml`, the baseline or the module graph changed: the other open documents of
        // that project are checked again too (their uses may have become new, or baselined).
        while let stale = staleProjects.popFirst() {
            for other in documents.keys.sorted() where other != uri && configurationPath(of: other) == stale {
                analyses[other] = nil
                publish(other)
            }
        }
    }

    private func diagnostic(_ item: DocumentAnalysis.Item, analysis: DocumentAnalysis, project: Project) -> [String: Any] {
        let finding = item.finding
        var diagnostic: [String: Any] = ["range": analysis.range(of: finding), "source": "swiftmod", "code": finding.migration]
        guard finding.kind == .use, let migration = project.migration(finding.migration) else {
            diagnostic["severity"] = 2
            diagnostic["message"] = finding.text
            return diagnostic
        }
        var tags = [migration.settings.priority.rawValue]
        if let deadline = migration.settings.deadline { tags.append("due \(deadline)") }
        if item.baselined {
            diagnostic["severity"] = 4
            diagnostic["tags"] = [2]
            diagnostic["message"] = "deprecated: \(migration.id), \(tags.joined(separator: ", ")) — \(finding.detail ?? migration.summary) (allowed by the baseline)"
        } else {
            diagnostic["severity"] = 1
            diagnostic["message"] = "new use of deprecated pattern '\(migration.id)' (\(tags.joined(separator: ", "))): \(finding.detail ?? migration.summary)"
        }
        return diagnostic
    }

    // MARK: - Hover

    private func hover(_ params: [String: Any]) -> [String: Any]? {
        guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String,
              let position = params["position"] as? [String: Any],
              let (analysis, project) = analysis(of: uri) else { return nil }
        let offset = analysis.byte(of: position)
        let here = analysis.items(at: offset..<offset).filter { $0.finding.kind == .use }
        guard let item = here.first, let migration = project.migration(item.finding.migration) else { return nil }
        var lines = ["**\(migration.id)** (\(migration.settings.priority.rawValue)\(migration.settings.deadline.map { ", due \($0)" } ?? ""))"
                        + (item.baselined ? " — allowed by the baseline" : " — a new use"),
                     "", migration.summary] + (item.finding.detail.map { ["", $0] } ?? []) + (migration.why.isEmpty ? [] : ["", "**Why:** \(migration.why)"])
        if let replacement = migration.replacement { lines.append("**Instead:** \(replacement)") }
        if let docs = migration.docs { lines.append("**Docs:** \(docs)") }
        if let contact = migration.settings.contact { lines.append("**Contact:** \(contact)") }
        if migration.settings.rule == .outletNotGuaranteed {
            lines.append("**Fix:** `swiftmod run iboutlet-optional` makes the outlet optional (`swiftmod outlets` shows every verdict and why)")
        } else if migration.settings.rule == .staleConnection {
            lines.append("**Fix:** remove the connection in Interface Builder, or declare what it names (`swiftmod outlets` lists them)")
        } else if migration.isModuleRule {
            lines.append("**Fix:** by hand (`swiftmod modules` shows the module graph)")
        } else {
            lines.append(migration.fixable ? "**Fix:** the code action, or `swiftmod run \(migration.id)`" : "**Fix:** by hand")
        }
        // Others at the same place (the stale connections of one class, shown at its declaration).
        for other in here.dropFirst() {
            lines += ["", "---", "", "**\(other.finding.migration)**" + (other.baselined ? " — allowed by the baseline" : " — a new use"),
                      "", other.finding.detail ?? project.migration(other.finding.migration)?.summary ?? other.finding.text]
        }
        return ["contents": ["kind": "markdown", "value": lines.joined(separator: "\n")], "range": analysis.range(of: item.finding)]
    }

    // MARK: - Code actions

    private func codeActions(_ params: [String: Any]) -> [[String: Any]] {
        guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String,
              let range = params["range"] as? [String: Any],
              let start = range["start"] as? [String: Any], let end = range["end"] as? [String: Any],
              let (analysis, project) = analysis(of: uri) else { return [] }
        let bytes = analysis.byte(of: start)..<max(analysis.byte(of: start), analysis.byte(of: end))
        var actions: [[String: Any]] = []
        for item in analysis.items(at: bytes) where item.finding.kind == .use {
            guard let migration = project.migration(item.finding.migration) else { continue }
            let diagnostic = diagnostic(item, analysis: analysis, project: project)
            if let codemod = migration.codemod, migration.fixable, let transformation = try? codemod.transform(analysis.tree) {
                // The same edit may come from two uses (an import to add): once each.
                let all = Array(Set(transformation.edits))
                func lines(_ first: Int, _ last: Int) -> Range<Int> {
                    let starts = analysis.source.lineStarts
                    return starts[first - 1]..<(last < starts.count ? starts[last] : analysis.source.bytes.count)
                }
                // Here: the edits on the use's lines, with the lines the file gains (an import to
                // add). Offered only when every other edit is another use's own: a codemod that
                // also changes code around its uses (renaming what a binding rebinds) is applied to
                // the whole file or not at all.
                let mine = lines(item.finding.line, item.finding.endLine)
                let useLines = transformation.uses.map { lines($0.start.line, $0.end.line) }
                func onUseLines(_ edit: Edit) -> Bool { useLines.contains { $0.overlaps(edit.range) || $0.lowerBound == edit.range.lowerBound } }
                func addsLines(_ edit: Edit) -> Bool { edit.range.isEmpty && edit.replacement.hasSuffix("\n") }
                let local = all.filter { $0.range.overlaps(mine) || $0.range.lowerBound == mine.lowerBound || (!onUseLines($0) && addsLines($0)) }
                let separable = all.allSatisfy { onUseLines($0) || addsLines($0) }
                // Uses an allow comment excuses (the codemod's uses the scan left out) are left
                // alone: the edits on their lines are left out, when the codemod's edits are its
                // uses' own; else nothing that would rewrite them is offered.
                let found = Set(analysis.items.filter { $0.finding.kind == .use && $0.finding.migration == migration.id }
                    .map { [$0.finding.line, $0.finding.column] })
                let excused = transformation.uses.filter { !found.contains([$0.start.line, $0.start.column]) }.map { lines($0.start.line, $0.end.line) }
                func onExcusedLines(_ edit: Edit) -> Bool {
                    excused.contains { $0.overlaps(edit.range) || ($0.lowerBound == edit.range.lowerBound && !addsLines(edit)) }
                }
                let rewritten = transformation.uses.filter { use in !excused.contains { $0.overlaps(lines(use.start.line, use.end.line)) } }
                let file = excused.isEmpty ? all : separable ? all.filter { !onExcusedLines($0) } : []
                if separable, !local.isEmpty, !local.contains(where: onExcusedLines), safe(local, in: analysis) {
                    actions.append(action("Apply \(migration.id) here", uri: uri, edits: local, analysis: analysis, diagnostic: diagnostic, preferred: true))
                }
                if file.count > local.count, safe(file, in: analysis), excused.isEmpty || keepsAllowedUses(file, in: analysis, project: project) {
                    actions.append(action("Apply \(migration.id) to this file (\(rewritten.count) uses)", uri: uri,
                                          edits: file, analysis: analysis, diagnostic: diagnostic, preferred: false))
                }
            }
            // Allow: a comment on the line before, indented as the use's line, or else at the end
            // of the use's line (when a comment above allows another use already); offered only
            // when it does allow the use there (not inside a multi-line string or a block comment).
            let lineStart = analysis.source.lineStarts[item.finding.line - 1]
            let indent = analysis.source.bytes[lineStart...].prefix { $0 == 0x20 || $0 == 0x09 }
            let comment = "// swiftmod:allow \(migration.id) -- reason"
            let above = Edit(range: lineStart..<lineStart, replacement: String(decoding: indent, as: UTF8.self) + comment + "\n")
            let lineEnd = analysis.source.bytes[lineStart...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? analysis.source.bytes.count
            let after = Edit(range: lineEnd..<lineEnd, replacement: " " + comment)
            if let allow = [above, after].first(where: { allows($0, migration: migration.id, in: analysis, project: project) }) {
                actions.append(action("Allow this use of \(migration.id) (with a reason)", uri: uri, edits: [allow],
                                      analysis: analysis, diagnostic: diagnostic, preferred: false))
            }
        }
        return actions
    }

    /// Whether inserting an allow comment allows one more use of the migration.
    private func allows(_ edit: Edit, migration: String, in analysis: DocumentAnalysis, project: Project) -> Bool {
        guard let set = try? EditSet([edit], in: analysis.source),
              let after = try? DocumentAnalysis(text: String(decoding: set.apply(to: analysis.source), as: UTF8.self),
                                                file: analysis.file, project: project, parser: parser) else { return false }
        let count = { (items: [DocumentAnalysis.Item]) in items.filter { $0.finding.kind == .use && $0.finding.migration == migration }.count }
        return after.allowed > analysis.allowed && count(after.items) < count(analysis.items)
    }

    /// Whether the allow comments allow as many uses after the edits (none of those uses rewritten).
    private func keepsAllowedUses(_ edits: [Edit], in analysis: DocumentAnalysis, project: Project) -> Bool {
        guard let set = try? EditSet(edits, in: analysis.source),
              let after = try? DocumentAnalysis(text: String(decoding: set.apply(to: analysis.source), as: UTF8.self),
                                                file: analysis.file, project: project, parser: parser) else { return false }
        return after.allowed == analysis.allowed
    }

    /// Whether edits leave no new syntax error (the safety net of `run`).
    private func safe(_ edits: [Edit], in analysis: DocumentAnalysis) -> Bool {
        guard let set = try? EditSet(edits, in: analysis.source) else { return false }
        let after = parser.parse(SourceText(String(decoding: set.apply(to: analysis.source), as: UTF8.self)))
        return ErrorRegionCheck.firstNewRegion(before: analysis.tree.errorRegions.map(\.byteRange),
                                               after: after.errorRegions.map(\.byteRange), edits: set) == nil
    }

    private func action(_ title: String, uri: String, edits: [Edit], analysis: DocumentAnalysis,
                        diagnostic: [String: Any], preferred: Bool) -> [String: Any] {
        // Lines the edits add end as the document's lines do.
        let crlf = analysis.source.dominantLineEnding == "\r\n"
        let textEdits = edits.sorted { $0.range.lowerBound < $1.range.lowerBound }.map { edit -> [String: Any] in
            let text = crlf ? edit.replacement.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n") : edit.replacement
            return ["range": ["start": analysis.position(ofByte: edit.range.lowerBound), "end": analysis.position(ofByte: edit.range.upperBound)],
                    "newText": text]
        }
        return ["title": title, "kind": "quickfix", "isPreferred": preferred, "diagnostics": [diagnostic],
                "edit": ["changes": [uri: textEdits]]]
    }
}
