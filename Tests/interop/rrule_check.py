#!/usr/bin/env python3
"""Instances of RRULEs from python-dateutil, the second implementation tminus's
expander is compared with (Tests/ICalendarTests/RuleAgreementTests.swift).

Reads {"cases": [case, ...], "limit": 51, "years": 10} on stdin; a case is
  {"rule": "FREQ=...", "start": "19970902T090000", "zone": "Europe/Berlin" | null, "date": false}
and prints {"answers": [answer, ...]}, one per case, in order:
  {"instances": ["19970902T080000Z", ...]}  at most `limit`, within `years` of DTSTART:
      UTC instants for a zoned start, wall times (as if UTC) for a floating one,
      dates (YYYYMMDD) for an all-day one
  {"error": "..."}   dateutil refuses the rule (an empty set, a bad value)
  {"timeout": [...]} dateutil searched for longer than the per-case bound (a
                     SECONDLY rule whose BYSETPOS skips every one-second set);
                     what it had found
"""
import datetime
import json
import os
import signal
import sys
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr

UTC = datetime.timezone.utc


class Slow(Exception):
    pass


def on_alarm(signum, frame):
    raise Slow()


def answer(case, limit, years):
    text = case["start"]
    start = datetime.datetime.strptime(text[:8] + (text[8:] if len(text) > 8 else "T000000"), "%Y%m%dT%H%M%S")
    zone = ZoneInfo(case["zone"]) if case.get("zone") else None
    if zone is not None:
        start = start.replace(tzinfo=zone)
    horizon = start.replace(year=start.year + years) if not (start.month == 2 and start.day == 29) else start.replace(year=start.year + years, day=28)
    found = []

    def shown(value):
        if case.get("date"):
            return value.strftime("%Y%m%d")
        if zone is not None:
            return value.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
        return value.strftime("%Y%m%dT%H%M%SZ")

    # dateutil walks to datetime.MAXYEAR looking for a rule's next instance, which
    # it reads at run time: a year past the horizon is as far as is wanted here.
    datetime.MAXYEAR = horizon.year + 1
    try:
        rule = rrulestr(case["rule"], dtstart=start)
    except Exception as error:  # dateutil's refusal, reported as such
        return {"error": str(error)}
    signal.setitimer(signal.ITIMER_REAL, 3.0)
    try:
        for value in rule:
            if value >= horizon or len(found) >= limit:
                break
            found.append(shown(value))
    except Slow:
        return {"timeout": found}
    except Exception as error:
        return {"error": str(error)}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return {"instances": found}


def main():
    request = json.load(sys.stdin)
    signal.signal(signal.SIGALRM, on_alarm)
    limit, years = request.get("limit", 51), request.get("years", 10)
    if os.environ.get("TMINUS_RULE_REQUEST"):  # a copy of the request, to rerun a seed by hand
        with open(os.environ["TMINUS_RULE_REQUEST"] + "." + str(os.getpid()), "w") as copy:
            json.dump(request, copy)
    print(json.dumps({"answers": [answer(case, limit, years) for case in request["cases"]]}))


if __name__ == "__main__":
    main()
