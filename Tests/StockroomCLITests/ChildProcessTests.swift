import ChildProcess
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The tests' own way of starting programs (``ChildProcess``), which replaced Foundation's `Process` after that one
/// read past a buffer in a CI run.
@Suite struct ChildProcessTests {
    @Test func aProgramsExitCodeAndWhatItWroteAreAnswered() throws {
        let ran = try ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(ran.status == 3)
        #expect(ran.output == "out\n")
        #expect(ran.errors == "err\n")

        let merged = try ChildProcess.run("/bin/sh", ["-c", "echo one; echo two >&2; echo three"], mergingErrors: true)
        #expect(merged.status == 0)
        #expect(merged.output == "one\ntwo\nthree\n")
        #expect(merged.errors == "")
    }

    @Test func theEnvironmentAndTheFolderAreTheOnesGiven() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ran = try ChildProcess.run("/bin/sh", ["-c", "pwd; echo \"[$GREETING][$HOME]\""], environment: ["GREETING": "hello"], directory: folder.path)
        #expect(ran.output == "\(folder.resolvingSymlinksInPath().path)\n[hello][]\n")
    }

    @Test func theChildHoldsNoDescriptorOfOursBeyondTheStandardThree() throws {
        // A descriptor without close-on-exec, as a careless library might leave one.
        let held = open("/dev/null", O_RDONLY)
        #expect(held > 2)
        defer { close(held) }
        let ran = try ChildProcess.run("/bin/sh", ["-c", "ls /proc/self/fd"])
        // The shell's own: 0, 1, 2 and the listing's descriptor (ls opens one to read the folder).
        let descriptors = ran.output.split(separator: "\n").compactMap { Int32($0) }
        #expect(!descriptors.contains(held), "\(descriptors)")
        #expect(descriptors.filter { $0 > 2 }.count <= 1, "\(descriptors)")
    }

    @Test func aChildStartsWhileThisProcessHoldsThousandsOfDescriptors() throws {
        // Where Foundation's Process read past its listing of /proc/self/fd (about 1,350 descriptors and more).
        let held = (0..<1_500).map { _ in open("/dev/null", O_RDONLY | O_CLOEXEC) }
        defer { for descriptor in held where descriptor >= 0 { close(descriptor) } }
        #expect(held.allSatisfy { $0 >= 0 })
        for _ in 0..<20 {
            let ran = try ChildProcess.run("/bin/sh", ["-c", "echo started"])
            #expect(ran.status == 0 && ran.output == "started\n")
        }
    }

    @Test func aSignalEndsTheChildAndIsReported() throws {
        let child = try ChildProcess("/bin/sleep", ["30"])
        #expect(child.isRunning)
        #expect(child.exited == nil)
        child.terminate()
        #expect(child.wait() == 128 + SIGTERM)
        #expect(child.exited == false)
        #expect(!child.isRunning)
        child.signal(SIGKILL)  // collected: sends nothing
        #expect(child.wait() == 128 + SIGTERM)
    }

    @Test func aProgramThatCannotBeStartedIsAnError() {
        #expect(throws: POSIXError.self) { try ChildProcess("/nonexistent/program", []) }
    }
}
