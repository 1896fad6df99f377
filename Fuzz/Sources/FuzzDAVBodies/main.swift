import CFuzzer
import Foundation

// libFuzzer runs `fuzzDAVBodies` (Harness.swift) on every input.
var argc = CommandLine.argc
var argv = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, count in
    guard let data else { return 0 }
    return fuzzDAVBodies(data, count)
})
