import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program the tests start (`stockroom serve`, zint, python), through `posix_spawn` rather than Foundation's
/// `Process`.
///
/// Foundation's `Process.run()` on Linux lists `/proc/self/fd` before it spawns, and copies each entry's whole
/// 256-byte name field where the entry is a few bytes long (swift-corelibs-foundation pull request 5472, fixed after
/// the toolchain used here). When the test process holds about 1,350 descriptors or more — the store suites keep a
/// hundred and more shops open at once, eight descriptors each — an entry can sit at the end of the listing's buffer
/// and the copy reads past it: a CI run ended on signal 11 there, and AddressSanitizer names it as a heap buffer
/// overflow in `findMaximumOpenFromProcSelfFD`. `posix_spawn` reads no such listing; the child closes every descriptor
/// above standard error before it runs, as `Process` does.
public final class ChildProcess: Sendable {
    /// Where a child's standard output or error goes.
    public enum Output: Sendable {
        /// Thrown away (`/dev/null`).
        case discarded
        /// Written to the file at this path (created or emptied).
        case file(String)
        /// For standard error: wherever standard output goes, interleaved as written.
        case standardOutput
    }

    public let pid: pid_t
    /// The child's end, once it has been collected: its exit code, or 128 + the signal that ended it.
    private let ending = Mutex<(status: Int32, signaled: Bool)?>(nil)

    /// Starts `executable` (a path) with `arguments`; `environment` nil keeps this process's.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
                output: Output = .discarded, errors: Output = .discarded) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (descriptor, target) in [(Int32(1), output), (Int32(2), errors)] {
            switch target {
            case .discarded: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .standardOutput: posix_spawn_file_actions_adddup2(&actions, 1, descriptor)
            }
        }
        Self.closeFrom?(&actions, 3)
        if let directory {
            guard let changeDirectory = Self.changeDirectory else { throw POSIXError(.ENOSYS) }
            changeDirectory(&actions, directory)
        }

        // The child starts with no signal blocked and every signal's default action: this process's threads block
        // some (the test runner's, the dispatch library's), and a mask is inherited across exec.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            if let envp {
                return (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                    posix_spawn(&pid, executable, &actions, &attributes, argvBuffer.baseAddress!, envpBuffer.baseAddress!)
                }
            }
            return posix_spawn(&pid, executable, &actions, &attributes, argvBuffer.baseAddress!, environ)
        }
        guard spawned == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL)
        }
        self.pid = pid
    }

    // glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34) and `…_addchdir_np` (2.29), which its headers declare
    // only for GNU sources, looked up by name.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let closeFrom: CloseFrom? = ChildProcess.function("posix_spawn_file_actions_addclosefrom_np")
    private static let changeDirectory: ChangeDirectory? = ChildProcess.function("posix_spawn_file_actions_addchdir_np")

    private static func function<T>(_ name: String) -> T? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: T.self)
    }

    /// Whether the child still runs (it is collected as soon as it has ended).
    public var isRunning: Bool { self.collect(blocking: false) == nil }

    /// Waits for the child to end and answers its exit code (128 + the signal when a signal ended it).
    @discardableResult
    public func wait() -> Int32 {
        while true {
            if let ending = self.collect(blocking: true) { return ending.status }
        }
    }

    /// Whether the child ended by calling `exit` (rather than on a signal); nil while it runs.
    public var exited: Bool? { self.ending.withLock { $0.map { !$0.signaled } } }

    /// Sends the child `SIGTERM`.
    public func terminate() { self.signal(SIGTERM) }

    /// Sends the child `signal` (nothing once it has been collected: its process id may belong to another by then).
    public func signal(_ signal: Int32) {
        self.ending.withLock { ending in
            if ending == nil { _ = kill(self.pid, signal) }
        }
    }

    private func collect(blocking: Bool) -> (status: Int32, signaled: Bool)? {
        if let ending = self.ending.withLock({ $0 }) { return ending }
        var raw: Int32 = 0
        let reaped = waitpid(self.pid, &raw, blocking ? 0 : WNOHANG)
        if reaped == 0 || (reaped < 0 && errno == EINTR) { return nil }
        return self.ending.withLock { ending in
            // Another thread may have collected it first (waitpid then fails with ECHILD).
            if let ending { return ending }
            guard reaped == self.pid else { return (-1, false) }
            let signaled = (raw & 0x7f) != 0
            let result = (status: signaled ? 128 + (raw & 0x7f) : (raw >> 8) & 0xff, signaled: signaled)
            ending = result
            return result
        }
    }

    deinit {
        if self.ending.withLock({ $0 }) == nil {
            _ = kill(self.pid, SIGKILL)
            var raw: Int32 = 0
            _ = waitpid(self.pid, &raw, 0)
        }
    }

    /// Runs a program to its end and answers its exit code and what it wrote to standard output and to standard error
    /// (with `mergingErrors`, both in `output` as written, and `errors` empty).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           directory: String? = nil, mergingErrors: Bool = false) throws -> (status: Int32, output: String, errors: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out").path, errors = folder.appendingPathComponent("err").path
        let child = try ChildProcess(executable, arguments, environment: environment, directory: directory,
                                     output: .file(output), errors: mergingErrors ? .standardOutput : .file(errors))
        let status = child.wait()
        func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return (status, read(output), read(errors))
    }
}
