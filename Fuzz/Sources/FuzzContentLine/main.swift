import CFuzzer
import Foundation

// libFuzzer runs `fuzzContentLine` (Harness.swift) on every input.
var argc = CommandLine.argc
var argv = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, count in
    guard let data else { return 0 }
    return fuzzContentLine(data, count)
})
