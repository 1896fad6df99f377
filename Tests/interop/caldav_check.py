#!/usr/bin/env python3
"""CalDAV with Python's `caldav` library (PyPI), as a calendar app does it.

Usage: caldav_check.py URL LOGIN PASSWORD [--label NAME] [--viewer-of FEED]

Against a server with the person's app password (tminus) or password
(Radicale): discovery from the root URL, the calendars, a time-range search
over a repeating event, sync-collection after changes, a task completed from
the client, a conflicting PUT refused with 412. Prints ok:/FAIL: lines.
"""
import sys
import uuid
from datetime import datetime, timedelta, timezone

import base64
import urllib.error
import urllib.request

import caldav

URL, LOGIN, PASSWORD = sys.argv[1:4]
LABEL = sys.argv[sys.argv.index("--label") + 1] if "--label" in sys.argv else URL
failures = 0


def check(what, condition, detail=""):
    global failures
    if condition:
        print(f"ok: [{LABEL}] {what}")
    else:
        failures += 1
        print(f"FAIL: [{LABEL}] {what} {detail}")


def event(uid, summary, start, rrule=None):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tminus interop//caldav//EN", "BEGIN:VEVENT", f"UID:{uid}",
             "DTSTAMP:20260101T000000Z", f"DTSTART:{start}", f"SUMMARY:{summary}"]
    if rrule:
        lines.append(f"RRULE:{rrule}")
    lines += ["END:VEVENT", "END:VCALENDAR"]
    return "\r\n".join(lines) + "\r\n"


def todo(uid, summary, status=None):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tminus interop//caldav//EN", "BEGIN:VTODO", f"UID:{uid}",
             "DTSTAMP:20260101T000000Z", "DUE;VALUE=DATE:20270301", f"SUMMARY:{summary}"]
    if status:
        lines.append(f"STATUS:{status}")
    lines += ["END:VTODO", "END:VCALENDAR"]
    return "\r\n".join(lines) + "\r\n"


def main():
    client = caldav.DAVClient(url=URL, username=LOGIN, password=PASSWORD)
    principal = client.principal()
    check("discovery from the root URL finds the principal", principal is not None and str(principal.url).rstrip("/").endswith(LOGIN))
    name = f"interop-{uuid.uuid4().hex[:8]}"
    calendar = principal.make_calendar(name=f"Interop {name}", cal_id=name.upper())
    calendars = principal.calendars()
    check("a calendar made by the client is listed", any(str(c.url).rstrip("/").lower().endswith(name) for c in calendars),
          [str(c.url) for c in calendars])
    check("its display name is the client's", calendar.get_display_name() == f"Interop {name}", calendar.get_display_name())

    weekly = calendar.save_event(event(f"weekly-{name}@interop", "Weekly standup", "20270104T090000Z", "FREQ=WEEKLY;COUNT=10"))
    calendar.save_event(event(f"once-{name}@interop", "Once in June", "20270610T120000Z"))
    found = calendar.search(start=datetime(2027, 2, 1, tzinfo=timezone.utc), end=datetime(2027, 2, 8, tzinfo=timezone.utc), event=True)
    summaries = [str(e.icalendar_component.get("summary")) for e in found]
    check("a time-range search finds a repeating event by a later occurrence", summaries == ["Weekly standup"], summaries)
    found = calendar.search(start=datetime(2027, 4, 1, tzinfo=timezone.utc), end=datetime(2027, 4, 8, tzinfo=timezone.utc), event=True)
    check("and not after its last one", [str(e.icalendar_component.get("summary")) for e in found] == [])
    expanded = calendar.search(start=datetime(2027, 1, 1, tzinfo=timezone.utc), end=datetime(2027, 1, 20, tzinfo=timezone.utc), event=True, expand=True)
    check("expand spells out the occurrences in the range", len(expanded) == 3, len(expanded))

    synced = calendar.objects_by_sync_token(load_objects=False)
    token = synced.sync_token
    check("a first sync lists every object", len(list(synced)) == 2, len(list(synced)))
    weekly.load()
    weekly.icalendar_component["summary"] = "Weekly standup (moved)"
    weekly.save()
    calendar.save_event(event(f"new-{name}@interop", "Added later", "20270701T080000Z"))
    changed = calendar.objects_by_sync_token(sync_token=token, load_objects=True)
    check("a sync after changes lists only what changed", sorted(str(o.icalendar_component.get("summary")) for o in changed)
          == ["Added later", "Weekly standup (moved)"], [str(o.url) for o in changed])
    token = changed.sync_token
    once = [e for e in calendar.events() if "June" in str(e.icalendar_component.get("summary"))][0]
    once.delete()
    gone = calendar.objects_by_sync_token(sync_token=token, load_objects=False)
    check("a deletion reaches the next sync", len(list(gone)) == 1, [str(o.url) for o in gone])
    again = calendar.objects_by_sync_token(sync_token=gone.sync_token, load_objects=False)
    check("and nothing after that", len(list(again)) == 0, [str(o.url) for o in again])
    body = ('<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>http://example.org/not-a-token-of-this-server</d:sync-token>'
            '<d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>')
    request = urllib.request.Request(str(calendar.url), data=body.encode(), method="REPORT", headers={
        "Depth": "1", "Content-Type": "application/xml; charset=utf-8",
        "Authorization": "Basic " + base64.b64encode(f"{LOGIN}:{PASSWORD}".encode()).decode()})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as refused:
        status, text = refused.code, refused.read().decode()
    check("an unknown sync token is refused with valid-sync-token", status in (403, 409) and "valid-sync-token" in text, (status, text[:200]))

    task = calendar.save_todo(todo(f"task-{name}@interop", "Hand in the essay"))
    task.complete()
    reread = calendar.todos(include_completed=True)
    statuses = [str(t.icalendar_component.get("status")) for t in reread]
    check("a task completed from the client is completed", statuses == ["COMPLETED"], statuses)

    weekly.load()
    stale_etag = weekly.props.get("{DAV:}getetag")
    weekly.icalendar_component["summary"] = "Weekly standup (again)"
    weekly.save()
    response = client.put(str(weekly.url), event(f"weekly-{name}@interop", "Conflicting edit", "20270104T090000Z"),
                          {"Content-Type": "text/calendar; charset=utf-8", "If-Match": stale_etag or '"stale"'})
    check("a PUT against a stale ETag is refused with 412", response.status == 412, response.status)
    response = client.put(str(weekly.url), event(f"weekly-{name}@interop", "Duplicate", "20270104T090000Z"),
                          {"Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"})
    check("a PUT with If-None-Match: * onto an object is refused with 412", response.status == 412, response.status)
    calendar.delete()
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as failure:  # noqa: BLE001 - a crash is a failure with its reason
        print(f"FAIL: [{LABEL}] {type(failure).__name__}: {failure}")
        sys.exit(1)
