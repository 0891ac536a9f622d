// barcode-soak: a seeded soak harness over the image loaders (ImageLoader, ImageHeader, ImageSanitizer, the
// libpng/libjpeg shim) and the barcode decoder (every format). Run it through scripts/barcode-soak.sh.
//
// The parent process starts a child that works through inputs 0, 1, 2 … of the run seed; input i is rebuilt from
// inputSeed(run, i) and the corpus alone. The child reports each input before and after it runs, so when the child
// dies (a crash, a trap, a sanitizer report) or stops reporting (a hang), the parent rebuilds the input from its
// seed, saves it, and starts a new child after it.
import BarcodeImage
import BarcodeReader
import Foundation

#if canImport(Glibc)
import Glibc
#endif

struct Options {
    var seed: UInt64 = UInt64(Date().timeIntervalSince1970 * 1000)
    var seconds = 60.0
    var corpus: String? = nil
    var out = NSTemporaryDirectory() + "barcode-soak"
    var hangSeconds = 60.0
    var maxRSSMB = 1024
    var child = false
    var start = 0
    var replay: [String] = []
    var inputSeeds: [UInt64] = []
    var only: InputKind? = nil
}

/// Writes a line to standard output at once (unbuffered: a child's last line must reach the parent before a crash).
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if n <= 0 { return }
        offset += n
    }
}

func parseSeed(_ s: String) -> UInt64? { s.hasPrefix("0x") ? UInt64(s.dropFirst(2), radix: 16) : UInt64(s) }

nonisolated(unsafe) var options = Options()
var args = Array(CommandLine.arguments.dropFirst())
while !args.isEmpty {
    let a = args.removeFirst()
    func value() -> String {
        guard !args.isEmpty else { FileHandle.standardError.write(Data("\(a) needs a value\n".utf8)); exit(64) }
        return args.removeFirst()
    }
    switch a {
    case "--seed": options.seed = parseSeed(value()) ?? options.seed
    case "--seconds": options.seconds = Double(value()) ?? options.seconds
    case "--minutes": options.seconds = (Double(value()) ?? 1) * 60
    case "--corpus": options.corpus = value()
    case "--out": options.out = value()
    case "--hang-seconds": options.hangSeconds = Double(value()) ?? options.hangSeconds
    case "--max-rss-mb": options.maxRSSMB = Int(value()) ?? options.maxRSSMB
    case "--child": options.child = true
    case "--start": options.start = Int(value()) ?? 0
    case "--replay": options.replay.append(value())
    case "--input-seed": if let s = parseSeed(value()) { options.inputSeeds.append(s) }
    case "--only": options.only = InputKind(rawValue: value())
    case "-h", "--help":
        say("""
            barcode-soak [--minutes N | --seconds N] [--seed S] [--corpus DIR] [--out DIR] [--hang-seconds N] [--max-rss-mb N] [--only KIND]
            barcode-soak --input-seed S [--corpus DIR]      run one input, rebuilt from its seed, in this process
            barcode-soak --replay FILE                      run a saved input (.pgm: the decoder; else: the image loader)
            kinds: \(InputKind.allCases.map(\.rawValue).joined(separator: ", "))
            """)
        exit(0)
    default:
        FileHandle.standardError.write(Data("unknown argument \(a)\n".utf8))
        exit(64)
    }
}

let corpus = Corpus(root: options.corpus)
let reader = BarcodeReader()

func maxRSSMB() -> Int {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    return Int(usage.ru_maxrss) / 1024
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// CPU time of this thread: a per-input cost that does not depend on what else the shared machine runs.
func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func save(_ input: SoakInput, name: String) -> String {
    try? FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true)
    switch input {
    case .file(let bytes):
        let ext = ImageHeader.format(of: bytes)?.fileExtension ?? "bin"
        let path = "\(options.out)/\(name).\(ext)"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    case .gray(let image):
        let path = "\(options.out)/\(name).pgm"
        _ = FileManager.default.createFile(atPath: path, contents: Data(pgm(image)))
        return path
    }
}

func describe(_ input: SoakInput) -> String {
    switch input {
    case .file(let bytes): return "\(bytes.count)-byte file"
    case .gray(let image): return "\(image.width)×\(image.height) picture"
    }
}

// MARK: one input in this process (reproduction)

if !options.replay.isEmpty || !options.inputSeeds.isEmpty {
    var failed = false
    var inputs: [(String, SoakInput)] = []
    for path in options.replay {
        let bytes = FileManager.default.contents(atPath: path).map { Array($0) } ?? []
        if path.hasSuffix(".pgm"), let image = readPGM(bytes) { inputs.append((path, .gray(image))) } else { inputs.append((path, .file(bytes))) }
    }
    for seed in options.inputSeeds {
        let (kind, input) = makeInput(seed: seed, corpus: corpus, only: options.only)
        inputs.append((String(format: "input seed 0x%016llx (%@)", seed, kind.rawValue), input))
    }
    for (name, input) in inputs {
        let t0 = cpuNow()
        let (failures, accepted, reads) = exercise(input, reader: reader)
        say("\(name): \(describe(input)), \(String(format: "%.1f", (cpuNow() - t0) * 1000)) ms CPU, \(accepted ? "accepted" : "refused by the loader"), \(reads.count) barcodes \(reads.map { "\($0.format.rawValue) \($0.text.debugDescription)" }), \(failures.isEmpty ? "ok" : failures.joined(separator: "; "))")
        failed = failed || !failures.isEmpty
    }
    exit(failed ? 1 : 0)
}

// MARK: child: inputs from --start until the time is up

if options.child {
    let deadline = now() + options.seconds
    var i = options.start
    while now() < deadline {
        let seed = inputSeed(run: options.seed, iteration: i)
        let (kind, input) = makeInput(seed: seed, corpus: corpus, only: options.only)
        // Announce the input before running it: if it kills this process the parent knows which one it was.
        say("S \(i) \(kind.rawValue)")
        let t0 = cpuNow()
        let (failures, accepted, reads) = exercise(input, reader: reader)
        let micros = Int((cpuNow() - t0) * 1e6)
        let rss = maxRSSMB()
        say("E \(i) \(micros) \(rss) \(accepted ? 1 : 0) \(reads.count)")
        // Reads on pictures drawn without a symbol (noise, textures, stripes, random bars, module grids, drawn PNGs): not a
        // failure (random bars can form a valid symbol), but counted and listed as false-positive candidates.
        if kind == .graySynthetic || kind == .grayDegenerate || kind == .pngSynth {
            for r in reads { say("R \(i) \(r.format.rawValue) \(r.text.debugDescription)") }
        }
        for f in failures { say("F \(i) \(f)") }
        if rss > options.maxRSSMB { say("F \(i) memory: peak resident size \(rss) MB above \(options.maxRSSMB) MB") }
        i += 1
    }
    exit(0)
}

// MARK: parent

final class Shared: @unchecked Sendable {
    let lock = NSLock()
    var current: (index: Int, kind: String, since: Double)? = nil
    var lastIndex = -1
    var done = 0
    var perKind: [String: Int] = [:]
    var slowest: [String: (micros: Int, index: Int)] = [:]  // per kind
    var failures: [(index: Int, text: String)] = []
    var peakRSS = 0
    var lastLine = 0.0
    var accepted: [String: Int] = [:]
    var withReads: [String: Int] = [:]
    var syntheticReads: [(index: Int, text: String)] = []
    var buffer: [UInt8] = []

    func line(_ l: Substring) {
        let parts = l.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let index = Int(parts[1]) else { return }
        self.lock.lock()
        defer { self.lock.unlock() }
        self.lastLine = now()
        switch parts[0] {
        case "S": self.current = (index, parts.count > 2 ? String(parts[2]) : "?", now())
        case "E":
            let rest = parts.count > 2 ? parts[2].split(separator: " ") : []
            let micros = rest.first.flatMap { Int($0) } ?? 0
            if let rss = rest.dropFirst().first.flatMap({ Int($0) }) { self.peakRSS = max(self.peakRSS, rss) }
            let kind = self.current?.kind ?? "?"
            if rest.count > 2, rest[2] == "1" { self.accepted[kind, default: 0] += 1 }
            if rest.count > 3, rest[3] != "0" { self.withReads[kind, default: 0] += 1 }
            self.perKind[kind, default: 0] += 1
            self.done += 1
            self.lastIndex = index
            if micros > (self.slowest[kind]?.micros ?? -1) { self.slowest[kind] = (micros, index) }
            self.current = nil
        case "R": self.syntheticReads.append((index, parts.count > 2 ? String(parts[2]) : ""))
        case "F": self.failures.append((index, parts.count > 2 ? String(parts[2]) : ""))
        default: break
        }
    }
}

let shared = Shared()
let startTime = now()
let endTime = startTime + options.seconds
var crashes: [(index: Int, reason: String, path: String)] = []
var next = options.start
let me = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
let exe = FileManager.default.isExecutableFile(atPath: me) ? me : "/proc/self/exe"
var lastStatus = startTime
say(String(format: "barcode-soak: run seed 0x%016llx (%llu), %.0f s, corpus %@ (%d PNG, %d JPEG), out %@", options.seed, options.seed, options.seconds, options.corpus ?? "none", corpus.pngs.count, corpus.jpegs.count, options.out))

while now() < endTime - 0.5 {
    var childArgs = ["--child", "--seed", String(options.seed), "--start", String(next), "--seconds", String(format: "%.1f", endTime - now()), "--max-rss-mb", String(options.maxRSSMB)]
    if let c = options.corpus { childArgs += ["--corpus", c] }
    if let only = options.only { childArgs += ["--only", only.rawValue] }
    // posix_spawn and waitpid, not Foundation's Process: a child that dies inside the Swift backtracer or a
    // sanitizer must still be reaped and seen as dead (Process once left such a child a zombie, still "running").
    try? FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true)
    let stderrPath = "\(options.out)/child-\(next).stderr"
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { say("cannot create a pipe"); exit(2) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    posix_spawn_file_actions_addclose(&actions, fds[1])
    // The child's standard error (a crash's backtrace, a sanitizer's report) goes to a file kept with a crash.
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv: [UnsafeMutablePointer<CChar>?] = ([exe] + childArgs).map { strdup($0) } + [nil]
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, exe, &actions, nil, argv, environ)
    posix_spawn_file_actions_destroy(&actions)
    for a in argv { free(a) }
    close(fds[1])
    guard spawned == 0 else { say("cannot start the child: error \(spawned)"); exit(2) }
    let readFD = fds[0]
    let reading = DispatchSemaphore(value: 0)
    shared.lock.lock()
    shared.lastLine = now()
    shared.lock.unlock()
    Thread.detachNewThread {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            pending += buffer[0..<n]
            while let nl = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<nl], as: UTF8.self)
                pending.removeSubrange(...nl)
                shared.line(Substring(line))
            }
        }
        close(readFD)
        reading.signal()
    }
    var hung: (Int, String)? = nil
    var status: Int32 = 0
    while true {
        let r = waitpid(pid, &status, WNOHANG)
        if r == pid || (r < 0 && errno != EINTR) { break }
        usleep(100_000)
        let t = now()
        shared.lock.lock()
        let current = shared.current
        let lastLine = shared.lastLine
        let lastIndex = shared.lastIndex
        shared.lock.unlock()
        // A hang: one input without an answer, or no line at all (stuck between inputs), for hangSeconds.
        if let current, t - current.since > options.hangSeconds {
            hung = (current.index, current.kind)
        } else if current == nil, t - lastLine > options.hangSeconds, t < endTime {
            hung = (lastIndex + 1, "?")
        }
        if hung != nil || t > endTime + options.hangSeconds + 5 {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
            break
        }
        if t - lastStatus >= 60 {
            lastStatus = t
            shared.lock.lock()
            say(String(format: "  %5.0f s: %d inputs, %.1f/s, failures %d, crashes %d, peak RSS %d MB", t - startTime, shared.done, Double(shared.done) / (t - startTime), shared.failures.count, crashes.count, shared.peakRSS))
            shared.lock.unlock()
        }
    }
    reading.wait()
    let signal = status & 0x7F
    let exitCode = (status >> 8) & 0xFF
    let stderrText = (FileManager.default.contents(atPath: stderrPath)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    if stderrText.isEmpty { try? FileManager.default.removeItem(atPath: stderrPath) }
    func firstLines(_ text: String) -> String {
        text.split(separator: "\n").filter { $0.contains("Fatal error") || $0.contains("ERROR: AddressSanitizer") || $0.contains(" in ") }
            .prefix(8).map { "    " + $0 }.joined(separator: "\n")
    }
    shared.lock.lock()
    let current = shared.current
    let lastIndex = shared.lastIndex
    shared.current = nil
    shared.lock.unlock()
    if let (index, kind) = hung {
        let seed = inputSeed(run: options.seed, iteration: index)
        let (_, input) = makeInput(seed: seed, corpus: corpus, only: options.only)
        let path = save(input, name: String(format: "hang-%d-0x%016llx", index, seed))
        crashes.append((index, "hang: no answer in \(options.hangSeconds) s (\(kind), \(describe(input)))", path))
        say(String(format: "HANG at input %d (input seed 0x%016llx, %@): saved %@", index, seed, kind, path))
        next = index + 1
    } else if signal != 0 || exitCode != 0 {
        let index = current?.index ?? lastIndex + 1
        let seed = inputSeed(run: options.seed, iteration: index)
        let (kind, input) = makeInput(seed: seed, corpus: corpus, only: options.only)
        let path = save(input, name: String(format: "crash-%d-0x%016llx", index, seed))
        let how = signal != 0 ? "signal \(signal)" : "exit status \(exitCode)"
        crashes.append((index, "crash: \(how) (\(kind.rawValue), \(describe(input)))", path))
        say(String(format: "CRASH (%@) at input %d (input seed 0x%016llx, %@): saved %@, its standard error in %@", how, index, seed, kind.rawValue, path, stderrPath))
        say(firstLines(stderrText))
        next = index + 1
    } else {
        break
    }
}

// MARK: report

let elapsed = now() - startTime
shared.lock.lock()
say(String(format: "barcode-soak: run seed 0x%016llx: %d inputs in %.0f s (%.1f inputs/s), peak RSS %d MB", options.seed, shared.done, elapsed, Double(shared.done) / elapsed, shared.peakRSS))
for kind in InputKind.allCases {
    let n = shared.perKind[kind.rawValue] ?? 0
    let slow = shared.slowest[kind.rawValue]
    let name = kind.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0)
    let loaded = kind.isFile ? String(format: "%8d loaded", shared.accepted[kind.rawValue] ?? 0) : "      (picture)"
    say("  \(name)" + String(format: " %8d inputs, %@, %6d with a read, slowest %8.1f ms CPU (input %d)", n, loaded, shared.withReads[kind.rawValue] ?? 0, Double(slow?.micros ?? 0) / 1000, slow?.index ?? -1))
}
if let (kind, slow) = shared.slowest.max(by: { $0.value.micros < $1.value.micros }) {
    let seed = inputSeed(run: options.seed, iteration: slow.index)
    let (_, input) = makeInput(seed: seed, corpus: corpus, only: options.only)
    let path = save(input, name: String(format: "slowest-%d-0x%016llx", slow.index, seed))
    say(String(format: "  slowest input: %.1f ms CPU, input %d (input seed 0x%016llx, %@, %@), saved %@", Double(slow.micros) / 1000, slow.index, seed, kind, describe(input), path))
}
if !shared.syntheticReads.isEmpty {
    var byFormat: [String: Int] = [:]
    for r in shared.syntheticReads { byFormat[String(r.text.split(separator: " ").first ?? ""), default: 0] += 1 }
    say("  reads on drawn pictures without a symbol (false-positive candidates, not failures): \(shared.syntheticReads.count), " + byFormat.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    for r in shared.syntheticReads.prefix(20) {
        let seed = inputSeed(run: options.seed, iteration: r.index)
        let (_, input) = makeInput(seed: seed, corpus: corpus, only: options.only)
        let path = save(input, name: String(format: "read-%d-0x%016llx", r.index, seed))
        say("    input \(r.index): \(r.text), saved \(path)")
    }
}
var failedIndexes = Set<Int>()
for f in shared.failures.prefix(50) {
    let seed = inputSeed(run: options.seed, iteration: f.index)
    var path = ""
    if !failedIndexes.contains(f.index) {
        failedIndexes.insert(f.index)
        let (_, input) = makeInput(seed: seed, corpus: corpus, only: options.only)
        path = save(input, name: String(format: "failure-%d-0x%016llx", f.index, seed))
    }
    say(String(format: "FAILURE at input %d (input seed 0x%016llx): %@ %@", f.index, seed, f.text, path))
}
for c in crashes { say("CRASH at input \(c.index): \(c.reason), saved \(c.path)") }
let clean = crashes.isEmpty && shared.failures.isEmpty
say(clean ? "barcode-soak: clean (no crash, no hang, no failed check)" : "barcode-soak: \(crashes.count) crashes/hangs, \(shared.failures.count) failed checks; reproduce with --input-seed or --replay")
shared.lock.unlock()
exit(clean ? 0 : 1)
