#!/usr/bin/env python3
"""Reference timings for `make bench`: PyPI's icalendar and recurring-ical-events
on the same files tminus is timed on, measured in-process (no interpreter start-up).

Usage: reference.py parse FILE RUNS | expand FILE FROM TO RUNS  -> prints median seconds and a count
"""
import datetime as dt
import statistics
import sys
import time

import icalendar
import recurring_ical_events


def timed(function, runs):
    samples, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), result


def main():
    mode, path = sys.argv[1], sys.argv[2]
    with open(path, "rb") as handle:
        data = handle.read()
    if mode == "parse":
        seconds, calendar = timed(lambda: icalendar.Calendar.from_ical(data), int(sys.argv[3]))
        print(f"{seconds:.6f} {len(calendar.walk('VEVENT'))}")
    else:
        calendar = icalendar.Calendar.from_ical(data)
        start = dt.datetime.fromisoformat(sys.argv[3]).replace(tzinfo=dt.timezone.utc)
        end = dt.datetime.fromisoformat(sys.argv[4]).replace(tzinfo=dt.timezone.utc)
        seconds, events = timed(lambda: recurring_ical_events.of(calendar).between(start, end), int(sys.argv[5]))
        print(f"{seconds:.6f} {len(events)}")


if __name__ == "__main__":
    main()
