import Testing
@testable import ICalendar

/// `concurrentMap` spreads work over the cores; its answer must be `map`'s.
struct ConcurrentMapTests {
    @Test(arguments: [0, 1, 1_023, 1_024, 10_007])
    func givesMapsAnswerInOrder(_ count: Int) {
        let input = Array(0..<count)
        #expect(input.concurrentMap { "\($0 * 3)" } == input.map { "\($0 * 3)" })
    }
}
