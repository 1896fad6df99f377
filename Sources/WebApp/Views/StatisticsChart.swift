import Countdowns
import ICalendar
import Pages
import StrictXML

/// The statistics pages' bar chart, drawn on the server as SVG: one group of
/// bars per month, week or day of the span, one colour per series (a
/// category's occurrences, a focus tag's minutes), with the numbers written
/// on the bars so that the chart reads without colour too.
package enum StatisticsChart {
    package struct Series {
        package var name: String
        package var color: String
        package var values: [Int]
    }

    /// The occurrences of each category (`/app/stats`).
    package static func svg(_ statistics: CategoryStatistics, words: WebWords) -> String {
        let series = statistics.categories.filter { $0.occurrences > 0 }.map { Series(name: $0.name, color: $0.color, values: $0.perBucket) }
        return svg(span: statistics.span, series: series, title: words["stats.chartTitle"],
                   summary: statistics.categories.filter { $0.occurrences > 0 }.map { "\($0.name): \($0.occurrences)" }.joined(separator: ", "), words: words)
    }

    package static func svg(span: CategoryStatistics.Span, series: [Series], title: String, summary: String, words: WebWords) -> String {
        let buckets = span.buckets.map { (label: AppDates.bucketLabel($0.start, period: span.period, in: words.language, fallback: $0.label), start: $0.start) }
        let maximum = max(1, series.flatMap(\.values).max() ?? 1)
        let groupWidth = 44, barGap = 2, height = 180, top = 12, bottom = 28
        let barWidth = max(4, (groupWidth - 8) / max(1, series.count) - barGap)
        let width = max(320, buckets.count * groupWidth + 16)
        var bars = ""
        for (index, bucket) in buckets.enumerated() {
            let x0 = 8 + index * groupWidth
            for (position, one) in series.enumerated() where one.values.indices.contains(index) {
                let value = one.values[index]
                let barHeight = value == 0 ? 0 : max(2, (height - top - bottom) * min(value, maximum) / maximum)
                let x = x0 + 4 + position * (barWidth + barGap)
                let y = height - bottom - barHeight
                bars += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(barWidth)\" height=\"\(barHeight)\" fill=\"\(MarkupEscape.text(one.color))\"><title>\(MarkupEscape.text(one.name)), \(MarkupEscape.text(bucket.label)): \(value)</title></rect>"
                if value > 0 { bars += "<text x=\"\(x + barWidth / 2)\" y=\"\(y - 2)\" font-size=\"9\" text-anchor=\"middle\">\(value)</text>" }
            }
            bars += "<text x=\"\(x0 + groupWidth / 2)\" y=\"\(height - 10)\" font-size=\"10\" text-anchor=\"middle\">\(MarkupEscape.text(bucket.label))</text>"
        }
        // A text alternative in the SVG itself (the page's table is the other): a title, and the totals as a description.
        return """
            <svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 \(width) \(height)" role="img" aria-labelledby="chart-title chart-desc">\
            <title id="chart-title">\(MarkupEscape.text(title))</title><desc id="chart-desc">\(MarkupEscape.text(summary.isEmpty ? words["stats.noOccurrences"] : summary))</desc>\
            <line x1="8" y1="\(height - bottom)" x2="\(width - 8)" y2="\(height - bottom)" stroke="currentColor" stroke-opacity=".3"/>\(bars)</svg>
            """
    }
}
