#!/usr/bin/env python3
"""The CalDAV section of `make bench` (issue #38), release build, on loopback.

A 10,000-event calendar (../shared/bench/gen_calendar.py) in a feed a person
reads with an app password. Medians of 5, each a whole request and its body:
  - PROPFIND depth 1 (getetag) on the calendar: every object's ETag (goal < 1 s);
  - calendar-query, VEVENT over one week: repeats expanded (goal < 1 s);
  - calendar-multiget of 100 objects with their data;
  - sync-collection with nothing new, with wrk: what clients poll, beside the
    cached `.ics` of a 50-event feed on the same server.

Usage: caldav.py ROOT   (release binaries must be built; `make bench` does that)
"""
import base64
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.request

from serving import bench_main, GENERATOR, TMINUS, free_port, start, wait_ready, wrk

PROPFIND = '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>'
QUERY = ('<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter>'
         '<c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="20270104T000000Z" end="20270111T000000Z"/>'
         '</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>')
SYNC = ('<d:sync-collection xmlns:d="DAV:"><d:sync-token>{token}</d:sync-token><d:sync-level>1</d:sync-level>'
        '<d:prop><d:getetag/></d:prop></d:sync-collection>')


def dav(url, method, body, auth, depth="1"):
    request = urllib.request.Request(url, data=body.encode(), method=method, headers={
        "Authorization": auth, "Depth": depth, "Content-Type": "application/xml; charset=utf-8"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as response:
        data = response.read()
    return time.perf_counter() - started, data


def median(url, method, body, auth):
    runs = [dav(url, method, body, auth) for _ in range(5)]
    return statistics.median(seconds for seconds, _ in runs), runs[-1][1]


def main():
    return bench_main("caldav", run)


def run(work):
    db = os.path.join(work, "caldav.sqlite")
    for count, slug in [(10000, "f10k"), (50, "f50")]:
        path = os.path.join(work, f"{slug}.ics")
        subprocess.run([sys.executable, GENERATOR, str(count), path], check=True)
        subprocess.run([TMINUS, "import", path, "--feed", slug, "--db", db], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([TMINUS, "users", "add", "anna", "--admin", "--password-stdin", "--db", db], input=b"a long enough password\n",
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    password = subprocess.run([TMINUS, "users", "app-password", "anna", "--label", "bench", "--db", db], check=True,
                              capture_output=True, text=True).stdout.strip()
    auth = "Basic " + base64.b64encode(f"anna:{password}".encode()).decode()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start([TMINUS, "serve", "--port", str(port), "--db", db, "--log-level", "warning"], os.path.join(work, "tminus.log"))
    wait_ready(base + "/healthz", server)
    calendar = base + "/dav/calendars/anna/f10k/"

    propfind, listing = median(calendar, "PROPFIND", PROPFIND, auth)
    objects = listing.count(b"<d:response>") - 1
    query, found = median(calendar, "REPORT", QUERY, auth)
    hrefs = re.findall(rb"<d:href>(/dav/calendars/anna/f10k/[^<]+)</d:href>", listing)[:100]
    multiget_body = ('<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>'
                     + "".join(f"<d:href>{h.decode()}</d:href>" for h in hrefs) + "</c:calendar-multiget>")
    multiget, _ = median(calendar, "REPORT", multiget_body, auth)
    _, first = dav(calendar, "REPORT", SYNC.format(token=""), auth)
    token = re.search(rb"<d:sync-token>([^<]+)</d:sync-token>", first).group(1).decode()

    script = os.path.join(work, "sync.lua")
    with open(script, "w") as handle:
        body = SYNC.format(token=token).replace('"', '\\"')
        handle.write(f'wrk.method = "REPORT"\nwrk.body = "{body}"\nwrk.headers["Authorization"] = "{auth}"\n'
                     'wrk.headers["Depth"] = "1"\nwrk.headers["Content-Type"] = "application/xml"\n')
    sync = subprocess.run(["wrk", "-t2", "-c16", "-d5s", "-s", script, calendar], capture_output=True, text=True).stdout
    sync_rate = float(re.search(r"Requests/sec:\s+([\d.]+)", sync).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", sync)
    ics_rate = wrk(base + "/feeds/f50.ics")["rps"]

    print(f"\ncaldav, release build, a 10,000-event calendar ({objects} objects), medians of 5")
    print(f"  PROPFIND depth 1, every ETag          {propfind * 1000:8.0f} ms  {len(listing) / 1e6:5.1f} MB  (target < 1000 ms)  "
          f"{'ok' if propfind < 1 else 'MISSED'}")
    print(f"  calendar-query, a week of VEVENTs     {query * 1000:8.0f} ms  {found.count(b'<d:response>')} found  (target < 1000 ms)  "
          f"{'ok' if query < 1 else 'MISSED'}")
    print(f"  calendar-multiget, 100 with data      {multiget * 1000:8.0f} ms")
    print(f"  sync-collection, nothing new (wrk -c16) {sync_rate:8.0f} req/s{' with errors: ' + errors.group(1) if errors else ''}; "
          f"cached f50.ics (-c64) {ics_rate:.0f} req/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
