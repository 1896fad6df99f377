#!/usr/bin/env python3
"""HTTP-level interop checks for `make interop`, against a running tminus server.

  clients.py readers BASE TOKEN_URL       icalendar + recurring-ical-events read every served calendar;
                                          occurrences over 400 days match `tminus occurrences`
  clients.py poll BASE ADMIN_TOKEN        a polite subscriber: If-None-Match / If-Modified-Since
  clients.py json BASE FEED               prints the feed's JSON (for expectations in run.sh)
Prints one "ok: …" or "FAIL: …" line per check; exits 1 if anything failed.
"""
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

import icalendar
import recurring_ical_events

FAILED = []


def check(condition, message):
    print(("ok: " if condition else "FAIL: ") + message, flush=True)
    if not condition:
        FAILED.append(message)


def fetch(url, headers=None, method="GET", body=None):
    request = urllib.request.Request(url, headers=headers or {}, method=method, data=body)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def stamp(value):
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.isoformat()


def readers(base, token_url):
    feeds = ["birthdays", "holidays", "exams", "tasks"]
    urls = [f"{base}/feeds/{f}.ics" for f in feeds] + [f"{base}/feeds/{f}/countdown.ics" for f in feeds] + [token_url]
    today = dt.date.today()
    start = dt.datetime.combine(today, dt.time(), dt.timezone.utc)
    end = start + dt.timedelta(days=400)
    tminus = os.environ.get("TMINUS", ".build/debug/tminus")
    for url in urls:
        status, headers, body = fetch(url)
        check(status == 200 and headers.get("Content-Type", "").startswith("text/calendar"), f"{url} is served as text/calendar")
        try:
            calendar = icalendar.Calendar.from_ical(body)
        except Exception as error:  # noqa: BLE001
            check(False, f"icalendar parses {url}: {error!r}")
            continue
        errors = [f"{c.name}: {e}" for c in calendar.walk() for e in getattr(c, "errors", [])]
        check(not errors, f"icalendar reads {url} without errors {errors[:3]}")
        check(body.endswith(b"END:VCALENDAR\r\n") and b"\n" not in body.replace(b"\r\n", b""), f"{url} uses CRLF everywhere")
        check(all(len(line) <= 75 for line in body.split(b"\r\n")), f"{url} folds at 75 octets")
        theirs = sorted(
            (str(e.get("UID")), stamp(e["DTSTART"].dt))
            for e in recurring_ical_events.of(calendar, components=["VEVENT"]).between(start, end)
            if str(e.get("STATUS", "")).upper() != "CANCELLED")
        with tempfile.NamedTemporaryFile(suffix=".ics", delete=False) as handle:
            handle.write(body)
        out = subprocess.run([tminus, "occurrences", handle.name, "--from", today.isoformat(), "--to", (today + dt.timedelta(days=400)).isoformat(),
                              "--format", "json", "--tz", "UTC"], capture_output=True, text=True, check=False)
        os.unlink(handle.name)
        ours = sorted((row["uid"], row["start"]) for row in json.loads(out.stdout or "[]") if row["component"] == "VEVENT")
        check(out.returncode == 0 and ours == theirs,
              f"{url}: recurring-ical-events and `tminus occurrences` agree over 400 days ({len(theirs)} occurrences)"
              + ("" if ours == theirs else f"; only python: {sorted(set(theirs) - set(ours))[:3]} only tminus: {sorted(set(ours) - set(theirs))[:3]}"))


def poll(base, admin_token):
    url = f"{base}/feeds/birthdays.ics"
    admin = {"Authorization": f"Bearer {admin_token}", "Content-Type": "application/json"}
    status, headers, _ = fetch(url)
    etag, modified = headers.get("ETag"), headers.get("Last-Modified")
    check(status == 200 and etag and modified, "first poll: 200 with ETag and Last-Modified")
    status, again, _ = fetch(url, {"If-None-Match": etag})
    check(status == 304 and again.get("ETag") == etag, "If-None-Match while nothing changed: 304 with the same ETag")
    status, _, _ = fetch(url, {"If-Modified-Since": modified})
    check(status == 304, "If-Modified-Since while nothing changed: 304")
    status, _, body = fetch(f"{base}/api/feeds/birthdays/countdowns", admin)
    countdowns = json.loads(body)["countdowns"]
    victim = countdowns[-1]
    status, _, _ = fetch(f"{base}/api/countdowns/{victim['id']}", admin, "PATCH", json.dumps({"notes": "changed by the polling check"}).encode())
    check(status == 200, "a change through the admin API")
    status, changed, _ = fetch(url, {"If-None-Match": etag, "If-Modified-Since": modified})
    check(status == 200 and changed.get("ETag") != etag, "after the change: 200 with new bytes and a new ETag")
    status, _, _ = fetch(url, {"If-None-Match": changed.get("ETag")})
    check(status == 304, "and 304 again after that")
    before = changed.get("Last-Modified")
    status, _, _ = fetch(f"{base}/api/countdowns/{victim['id']}", admin, "DELETE")
    status, after, _ = fetch(url)
    parse = lambda value: dt.datetime.strptime(value, "%a, %d %b %Y %H:%M:%S GMT")  # noqa: E731
    check(status == 200 and parse(after["Last-Modified"]) >= parse(before), "a deletion never moves Last-Modified backwards")


def main():
    command = sys.argv[1]
    if command == "readers":
        readers(sys.argv[2], sys.argv[3])
    elif command == "poll":
        poll(sys.argv[2], sys.argv[3])
    elif command == "json":
        print(fetch(f"{sys.argv[2]}/feeds/{sys.argv[3]}.json")[2].decode())
        return
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
