import Crypto
import Foundation
import Hummingbird
import Mustache

/// The web app's files: mustache templates and static assets (CSS, JavaScript modules, icons, the manifest).
///
/// They ship inside the module's resource bundle and are read once at start-up. For work on the web app, set
/// `STOCKROOM_WEB_DIR` to the source folder (`Sources/InventoryServer/Resources/web`): every request then reads
/// the files afresh, so an edited template or script shows on reload without rebuilding the server.
struct WebAssets: Sendable {
    /// One static file, with its validator.
    struct File: Sendable {
        var bytes: [UInt8]
        var contentType: String
        var etag: String
    }

    private let root: URL
    private let live: Bool
    private let library: MustacheLibrary
    private let files: [String: File]

    /// Loads the assets from `root` (a folder holding `templates/` and `static/`), or from the bundle.
    init(root: URL? = nil, live: Bool = false) throws {
        let environment = ProcessInfo.processInfo.environment["STOCKROOM_WEB_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        guard let folder = root ?? environment.map({ URL(fileURLWithPath: $0) }) ?? Bundle.module.url(forResource: "web", withExtension: nil) else {
            throw WebAssetError.missing("the web app's files are not in the bundle")
        }
        self.root = folder
        self.live = live || (root == nil && environment != nil)
        self.library = try Self.loadLibrary(folder)
        self.files = self.live ? [:] : try Self.loadFiles(folder.appendingPathComponent("static"))
    }

    /// Renders a template (`pages/home`, `layout` …) with a context.
    func render(_ context: Any, template: String) throws -> String {
        let library = self.live ? try Self.loadLibrary(self.root) : self.library
        guard let text = library.render(context, withTemplate: template) else { throw WebAssetError.missing("no template named \(template)") }
        return text
    }

    /// Whether a page template exists.
    func hasTemplate(_ name: String) -> Bool {
        if self.live { return FileManager.default.fileExists(atPath: self.root.appendingPathComponent("templates/\(name).mustache").path) }
        return self.library.getTemplate(named: name) != nil
    }

    /// A static file by its path under `static/` (`css/app.css`), or nil.
    func file(_ path: String) -> File? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.hasPrefix(".") }) else { return nil }
        if !self.live { return self.files[path] }
        let url = self.root.appendingPathComponent("static").appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return Self.file(data, name: path)
    }

    private static func loadLibrary(_ folder: URL) throws -> MustacheLibrary {
        // swift-mustache reads the folder synchronously; its async initialiser only wraps that.
        try MustacheLibrary(templates: MustacheLibrary.loadTemplatesFrom(folder.appendingPathComponent("templates").path))
    }

    private static func loadFiles(_ folder: URL) throws -> [String: File] {
        var files: [String: File] = [:]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return files }
        let prefix = folder.standardizedFileURL.path + "/"
        for case let url as URL in walker {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(prefix) else { continue }
            let name = String(path.dropFirst(prefix.count))
            files[name] = Self.file(try Data(contentsOf: url), name: name)
        }
        return files
    }

    private static func file(_ data: Data, name: String) -> File {
        let digest = SHA256.hash(data: data).prefix(12).lowercaseHex
        return File(bytes: [UInt8](data), contentType: Self.contentType(name), etag: "\"\(digest)\"")
    }

    static func contentType(_ name: String) -> String {
        switch name.split(separator: ".").last.map({ $0.lowercased() }) ?? "" {
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "webmanifest", "json": "application/manifest+json"
        case "html": "text/html; charset=utf-8"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }
}

/// A web asset that cannot be found or read.
enum WebAssetError: Error, CustomStringConvertible {
    case missing(String)
    var description: String {
        switch self {
        case .missing(let what): what
        }
    }
}

extension MustacheLibrary {
    /// Loads every `.mustache` file under a folder, named by its relative path without the extension.
    static func loadTemplatesFrom(_ folder: String) throws -> [String: MustacheTemplate] {
        var templates: [String: MustacheTemplate] = [:]
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        guard let walker = FileManager.default.enumerator(atPath: base) else { throw WebAssetError.missing("no template folder at \(folder)") }
        for case let path as String in walker where path.hasSuffix(".mustache") {
            guard let data = FileManager.default.contents(atPath: base + path), let text = String(data: data, encoding: .utf8) else {
                throw WebAssetError.missing("cannot read \(path)")
            }
            templates[String(path.dropLast(".mustache".count))] = try MustacheTemplate(string: text)
        }
        return templates
    }
}
