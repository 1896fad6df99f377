#!/usr/bin/env python3
"""Privacy per link, read by parsers nobody here wrote (make interop).

Usage: privacy_check.py BASE ADMIN_TOKEN

Makes a public feed whose events carry secrets (DESCRIPTION, LOCATION, URL,
ATTENDEE, ORGANIZER, X-properties, a VALARM's text, a moved instance with its
own secrets, a CLASS:PRIVATE event), then a token link of each visibility. Every
output of every link is fetched; calendars are parsed with Python's icalendar
and expanded with recurring-ical-events, JSON with json, pages as text. Each
secret contains "secret", so a leak anywhere is one search. Prints ok:/FAIL:.
"""
import datetime as dt
import json
import sys
import urllib.request

import icalendar
import recurring_ical_events

BASE, ADMIN = sys.argv[1], sys.argv[2]
failures = 0


def check(what, condition):
    global failures
    print(("ok: " if condition else "FAIL: ") + what)
    failures += 0 if condition else 1


def request(path, method="GET", body=None, content_type="application/json"):
    headers = {"Authorization": "Bearer " + ADMIN}
    if body is not None:
        headers["Content-Type"] = content_type
    req = urllib.request.Request(BASE + path, data=body, method=method, headers=headers)
    with urllib.request.urlopen(req) as response:
        return response.read()


year = dt.date.today().year + 1
CALENDAR = f"""BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//interop//privacy//EN\r
BEGIN:VEVENT\r
UID:weekly-review@example.com\r
DTSTAMP:20260101T000000Z\r
DTSTART;TZID=Europe/Berlin:{year}0104T093000\r
DTEND;TZID=Europe/Berlin:{year}0104T100000\r
RRULE:FREQ=WEEKLY;COUNT=10\r
SUMMARY:Weekly review\r
DESCRIPTION:secret agenda\r
LOCATION:secret room 4\r
URL:https://example.com/secret-notes\r
ATTENDEE;CN=Secret Person:mailto:secret.person@example.com\r
ORGANIZER;CN=Secret Boss:mailto:secret.boss@example.com\r
X-ZOOM-LINK:https://zoom.example/j/secret\r
BEGIN:VALARM\r
ACTION:DISPLAY\r
TRIGGER:-PT15M\r
DESCRIPTION:secret alarm text\r
END:VALARM\r
END:VEVENT\r
BEGIN:VEVENT\r
UID:weekly-review@example.com\r
DTSTAMP:20260101T000000Z\r
RECURRENCE-ID;TZID=Europe/Berlin:{year}0111T093000\r
DTSTART;TZID=Europe/Berlin:{year}0111T140000\r
DTEND;TZID=Europe/Berlin:{year}0111T143000\r
SUMMARY:Weekly review (afternoon)\r
DESCRIPTION:secret moved agenda\r
ATTENDEE:mailto:secret.guest@example.com\r
END:VEVENT\r
BEGIN:VEVENT\r
UID:clinic@example.com\r
DTSTAMP:20260101T000000Z\r
DTSTART;VALUE=DATE:{year}0210\r
SUMMARY:secret clinic visit\r
CLASS:PRIVATE\r
END:VEVENT\r
END:VCALENDAR\r
"""

request("/api/feeds", "POST", json.dumps({"slug": "privacy", "name": "Privacy", "timeZone": "Europe/Berlin", "public": True}).encode())
request("/api/feeds/privacy/import", "POST", CALENDAR.encode(), "text/calendar")
links = {"public": "/feeds/privacy"}
for visibility in ["full", "titles", "busy"]:
    made = json.loads(request("/api/feeds/privacy/tokens", "POST", json.dumps({"label": visibility, "visibility": visibility}).encode()))
    check(f"a {visibility} token is made with that visibility", made["token"]["visibility"] == visibility)
    links[visibility] = f"/t/{made['secret']}/feeds/privacy"

# Properties an event may carry through a titles or busy link (anything else,
# an X-property included, is a leak); tminus's own X-TMINUS-* describe looks.
ALLOWED = {"UID", "DTSTAMP", "DTSTART", "DTEND", "DUE", "DURATION", "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID", "SEQUENCE",
           "STATUS", "TRANSP", "CREATED", "LAST-MODIFIED", "SUMMARY", "CATEGORIES", "COLOR", "X-TMINUS-DIRECTION", "X-TMINUS-UNIT",
           "X-TMINUS-GRADIENT", "X-TMINUS-TEXT-COLOR", "X-TMINUS-FROM", "ACTION", "TRIGGER", "DESCRIPTION@VALARM"}


def fetch(path):
    with urllib.request.urlopen(BASE + path) as response:
        return response.read().decode()


def events(text):
    return [c for c in icalendar.Calendar.from_ical(text).walk() if c.name in ("VEVENT", "VTODO")]


def properties(text):
    """(component, property) pairs of every event and alarm."""
    pairs = []
    for component in icalendar.Calendar.from_ical(text).walk():
        if component.name in ("VEVENT", "VTODO", "VALARM"):
            pairs += [(component.name, name) for name in component.keys()]
    return pairs


def starts(text):
    window = (dt.date(year, 1, 1), dt.date(year + 1, 1, 1))
    return sorted(str(e["DTSTART"].dt) for e in recurring_ical_events.of(icalendar.Calendar.from_ical(text)).between(*window))


outputs = {}
for link, base in links.items():
    texts = {suffix: fetch(base + suffix) for suffix in [".ics", "/countdown.ics", ".json", ""]}
    for row in json.loads(texts[".json"])["countdowns"]:
        texts[f"/{row['id']}.svg"] = fetch(f"{base}/{row['id']}.svg")
    outputs[link] = texts

full_starts = starts(outputs["full"][".ics"])
check("the full link shows every secret", all(s in outputs["full"][".ics"] for s in ["secret agenda", "secret clinic visit", "X-ZOOM-LINK"]))
check("the full link expands to 11 occurrences (10 weekly, one moved, and the clinic)", len(full_starts) == 11)

for link in ["titles", "busy"]:
    for suffix, text in outputs[link].items():
        check(f"{link} link, {suffix or 'page'}: no secret in the bytes", "secret" not in text.lower())
        check(f"{link} link, {suffix or 'page'}: no source UID", "@example.com" not in text)
    for suffix in [".ics", "/countdown.ics"]:
        leaked = sorted({f"{c}:{n}" for c, n in properties(outputs[link][suffix])
                         if n not in ALLOWED and f"{n}@{c}" not in ALLOWED})
        check(f"{link} link, {suffix}: icalendar finds only allowed properties (extra: {leaked})", not leaked)
    check(f"{link} link: recurring-ical-events gives the same times as the full link", starts(outputs[link][".ics"]) == full_starts)

titles = {str(e["SUMMARY"]) for e in events(outputs["titles"][".ics"])}
check(f"titles link: titles kept, the private event busy ({sorted(titles)})", titles == {"Weekly review", "Weekly review (afternoon)", "Busy"})
busy = {str(e["SUMMARY"]) for e in events(outputs["busy"][".ics"])}
check(f"busy link: every event is Busy ({sorted(busy)})", busy == {"Busy"})
countdown_titles = " ".join(str(e["SUMMARY"]) for e in events(outputs["busy"]["/countdown.ics"]))
check("busy link: the countdown calendar's titles name no event", "review" not in countdown_titles.lower())

for suffix, text in outputs["public"].items():
    check(f"public link, {suffix or 'page'}: the CLASS:PRIVATE event is busy", "clinic" not in text)
check("public link: the other events are shown in full", "secret agenda" in outputs["public"][".ics"])

sys.exit(1 if failures else 0)
