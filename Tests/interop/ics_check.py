#!/usr/bin/env python3
"""Independent checks of tminus output with PyPI's icalendar and recurring-ical-events.

Reads one JSON request on stdin and prints one JSON answer:
  {"parse": [paths]}                        -> {"path": {"ok": bool, "errors": [...], "events": n}}
  {"read": [paths], "from": "...", "to": "..."}
                                            -> {"path": ["what icalendar or recurring-ical-events raised or reported", ...]}
  {"expand": [paths], "from": "...", "to": "...", "tz": "Europe/Budapest"}
                                            -> {"path": [occurrence, ...]}
  {"matches": path, "windows": [["YYYY-MM-DDTHH:MM:SSZ", "..."], ...]}
                                            -> [[uid, ...] for each window]: the UIDs of the
                                               events with an occurrence overlapping the window
                                               (RFC 4791's time-range match), sorted
  add "status": true to list cancelled occurrences too, each with "status" (the
  lower-cased STATUS, or null), as `tminus occurrences` does.
Occurrences use tminus's JSON shape: uid, summary, start, end, allDay, with timed
values in UTC ("YYYY-MM-DDTHH:MM:SSZ") and floating times read in "tz".
"""
import datetime as dt
import json
import sys
import zoneinfo

import icalendar
import recurring_ical_events


def stamp(value, zone):
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=zone)
        return value.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.isoformat()


def parse(path):
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        calendar = icalendar.Calendar.from_ical(data)
    except Exception as error:  # noqa: BLE001 - report every failure
        return {"ok": False, "errors": [repr(error)], "events": 0}
    errors = [f"{c.name}: {e}" for c in calendar.walk() for e in getattr(c, "errors", [])]
    return {"ok": not errors, "errors": errors, "events": len(calendar.walk("VEVENT"))}


def read(path, start, end):
    """Everything either library says about a file: an exception, a property
    icalendar could not read, an exception while expanding every occurrence."""
    problems = []
    try:
        with open(path, "rb") as handle:
            calendar = icalendar.Calendar.from_ical(handle.read())
    except Exception as error:  # noqa: BLE001 - report every failure
        return [f"icalendar: {error!r}"[:300]]
    problems += [f"icalendar: {c.name}: {e}"[:300] for c in calendar.walk() for e in getattr(c, "errors", [])]
    try:
        for _ in recurring_ical_events.of(calendar, components=["VEVENT", "VTODO", "VJOURNAL"]).between(start, end):
            pass
    except Exception as error:  # noqa: BLE001 - report every failure
        problems.append(f"recurring-ical-events: {error!r}"[:300])
    return problems


def expand(path, start, end, zone, with_status=False):
    with open(path, "rb") as handle:
        calendar = icalendar.Calendar.from_ical(handle.read())
    rows = []
    for event in recurring_ical_events.of(calendar, components=["VEVENT"]).between(start, end):
        status = str(event["STATUS"]).lower() if "STATUS" in event else None
        if status == "cancelled" and not with_status:
            continue  # calendar clients hide cancelled instances, and so do tminus's feeds
        if "DTSTART" not in event:
            continue  # nothing to place in time (tminus reports these at validation)
        begin = event["DTSTART"].dt
        finish = event["DTEND"].dt if "DTEND" in event else None
        row = {
            "uid": str(event.get("UID", "")),
            "summary": str(event.get("SUMMARY", "")),
            "start": stamp(begin, zone),
            "end": stamp(finish, zone) if finish is not None else None,
            "allDay": not isinstance(begin, dt.datetime),
        }
        if with_status:
            row["status"] = status
        rows.append(row)
    rows.sort(key=lambda r: (r["start"], r["uid"], r["summary"]))
    return rows


def matches(path, windows):
    with open(path, "rb") as handle:
        calendar = icalendar.Calendar.from_ical(handle.read())
    query = recurring_ical_events.of(calendar, components=["VEVENT"])
    answer = []
    for start, end in windows:
        begin = dt.datetime.fromisoformat(start.replace("Z", "+00:00"))
        finish = dt.datetime.fromisoformat(end.replace("Z", "+00:00"))
        answer.append(sorted({str(event["UID"]) for event in query.between(begin, finish)}))
    return answer


def main():
    request = json.load(sys.stdin)
    if "matches" in request:
        print(json.dumps({"windows": matches(request["matches"], request["windows"])}))
        return
    if "parse" in request:
        print(json.dumps({path: parse(path) for path in request["parse"]}))
        return
    zone = zoneinfo.ZoneInfo(request.get("tz", "UTC"))
    start = dt.datetime.fromisoformat(request["from"]).replace(tzinfo=zone)
    end = dt.datetime.fromisoformat(request["to"]).replace(tzinfo=zone)
    if "read" in request:
        print(json.dumps({path: read(path, start, end) for path in request["read"]}))
        return
    with_status = bool(request.get("status"))
    answer = {}
    for path in request["expand"]:
        try:
            answer[path] = expand(path, start, end, zone, with_status)
        except Exception as error:  # noqa: BLE001 - a file the reference cannot read
            answer[path] = {"error": repr(error)[:300]}
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
