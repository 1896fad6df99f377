import Countdowns
import Pages

/// The statistics page's bar chart, drawn on the server as SVG: one group of
/// bars per month, week or day of the span, one colour per category, with the
/// numbers written on the bars so that the chart reads without colour too.
package enum StatisticsChart {
    package static func svg(_ statistics: CategoryStatistics, words: WebWords) -> String {
        let buckets = statistics.span.buckets.map { (label: AppDates.bucketLabel($0.start, period: statistics.span.period, in: words.language, fallback: $0.label),
                                                     start: $0.start) }
        let categories = statistics.categories.filter { $0.occurrences > 0 }
        let maximum = max(1, categories.flatMap(\.perBucket).max() ?? 1)
        let groupWidth = 44, barGap = 2, height = 180, top = 12, bottom = 28
        let barWidth = max(4, (groupWidth - 8) / max(1, categories.count) - barGap)
        let width = max(320, buckets.count * groupWidth + 16)
        var bars = ""
        for (index, bucket) in buckets.enumerated() {
            let x0 = 8 + index * groupWidth
            for (position, category) in categories.enumerated() {
                let value = category.perBucket[index]
                let barHeight = value == 0 ? 0 : max(2, (height - top - bottom) * value / maximum)
                let x = x0 + 4 + position * (barWidth + barGap)
                let y = height - bottom - barHeight
                bars += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(barWidth)\" height=\"\(barHeight)\" fill=\"\(HTMLEscape.text(category.color))\"><title>\(HTMLEscape.text(category.name)), \(HTMLEscape.text(bucket.label)): \(value)</title></rect>"
                if value > 0 { bars += "<text x=\"\(x + barWidth / 2)\" y=\"\(y - 2)\" font-size=\"9\" text-anchor=\"middle\">\(value)</text>" }
            }
            bars += "<text x=\"\(x0 + groupWidth / 2)\" y=\"\(height - 10)\" font-size=\"10\" text-anchor=\"middle\">\(HTMLEscape.text(bucket.label))</text>"
        }
        // A text alternative in the SVG itself (the page's table is the other): a title, and the totals as a description.
        let summary = categories.map { "\($0.name): \($0.occurrences)" }.joined(separator: ", ")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 \(width) \(height)" role="img" aria-labelledby="chart-title chart-desc">\
            <title id="chart-title">\(HTMLEscape.text(words["stats.chartTitle"]))</title><desc id="chart-desc">\(HTMLEscape.text(summary.isEmpty ? words["stats.noOccurrences"] : summary))</desc>\
            <line x1="8" y1="\(height - bottom)" x2="\(width - 8)" y2="\(height - bottom)" stroke="currentColor" stroke-opacity=".3"/>\(bars)</svg>
            """
    }
}
