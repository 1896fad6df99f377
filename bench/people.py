#!/usr/bin/env python3
"""The people section of `make bench` (issue #37), over HTTP, in one run.

Two stores hold the same 50-event feed: one as before people (the feed alone),
one with 1,000 people in 1,000 spaces with 10 feeds each (`tminus-bench
people-store`), the feed in a space person 0 views. With wrk on loopback,
alternating the two servers three times (the median counts):
  - the cached public `.ics` of the feed on each store (goal: within 5%);
  - the feed's JSON through the API, with the operator's token and with a
    viewer's personal token (what the person's token and permission check add);
  - the CPU each server spends idle (its once-a-second poll of the store).
The in-process costs (µs per check, cached and not) are `tminus-bench`'s.

Usage: people.py ROOT   (release binaries must be built; `make bench` does that)
"""
import os
import statistics
import subprocess
import sys
import time

from serving import bench_main, BENCH, GENERATOR, TMINUS, fetch, free_port, start, wait_ready, wrk

ADMIN = "bench-admin-token-0123456789abcdef"
VIEWER = "tmp_bench_person_0"   # PeopleBench.token(0): a viewer of space s2, where the feed is


def serve(work, name, db):
    token_file = os.path.join(work, f"{name}-admin-token")
    with open(token_file, "w") as handle:
        handle.write(ADMIN)
    os.chmod(token_file, 0o600)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start([TMINUS, "serve", "--port", str(port), "--db", db, "--admin-token-file", token_file,
                    "--log-level", "warning"], os.path.join(work, f"{name}.log"))
    wait_ready(base + "/healthz", server)
    return base, server


def cpu_seconds(pid):
    """User and system time a process has used so far (/proc/PID/stat, in clock ticks)."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    return bench_main("people", run)


def run(work):
    calendar = os.path.join(work, "f50.ics")
    subprocess.run([sys.executable, GENERATOR, "50", calendar], check=True)
    stores = {}
    for name in ["before", "people"]:
        stores[name] = os.path.join(work, f"{name}.sqlite")
        subprocess.run([TMINUS, "import", calendar, "--feed", "f50", "--db", stores[name]], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([BENCH, "people-store", stores["people"], "f50"], check=True)
    servers = {name: serve(work, name, db) for name, db in stores.items()}
    bases = {name: base for name, (base, _) in servers.items()}

    viewer = {"Authorization": f"Bearer {VIEWER}"}
    admin = {"Authorization": f"Bearer {ADMIN}"}
    people = bases["people"]
    for base, headers, path in [(bases["before"], {}, "/feeds/f50.ics"), (people, {}, "/feeds/f50.ics"),
                                (people, admin, "/api/feeds/f50"), (people, viewer, "/api/feeds/f50")]:
        status, _, body = fetch(base + path, headers=headers)
        if status != 200:
            raise SystemExit(f"people bench: {path} answered {status}: {body[:200]!r}")
    status, _, _ = fetch(people + "/api/feeds/s3-f0", headers=viewer)
    if status != 404:
        raise SystemExit(f"people bench: a feed of a space person 0 is not in answered {status}, not 404")

    # What an idle server spends on its once-a-second poll of the store, with 10,010 feeds and with one.
    idle_seconds = 5
    started = {name: cpu_seconds(process.pid) for name, (_, process) in servers.items()}
    time.sleep(idle_seconds)
    idle = {name: (cpu_seconds(process.pid) - started[name]) / idle_seconds * 100 for name, (_, process) in servers.items()}

    runs = {"ics before": [], "ics people": [], "api admin": [], "api viewer": []}
    # The .ics first, alternating, on servers that served nothing else; then the API.
    for _ in range(3):
        runs["ics before"].append(wrk(bases["before"] + "/feeds/f50.ics"))
        runs["ics people"].append(wrk(people + "/feeds/f50.ics"))
    for _ in range(3):
        runs["api admin"].append(wrk(people + "/api/feeds/f50", headers=admin))
        runs["api viewer"].append(wrk(people + "/api/feeds/f50", headers=viewer))
    rate = {name: statistics.median(r["rps"] for r in results) for name, results in runs.items()}
    bad = sum(r["bad"] for results in runs.values() for r in results)

    print("\npeople, release build, 1,000 people in 1,000 spaces × 10 feeds, wrk median of 3 (req/s)")
    print(f"  cached f50.ics, the feed alone                 {rate['ics before']:10.0f}")
    print(f"  cached f50.ics, beside 1,000 people            {rate['ics people']:10.0f}")
    print(f"  /api/feeds/f50, the operator's token           {rate['api admin']:10.0f}")
    print(f"  /api/feeds/f50, a viewer's personal token      {rate['api viewer']:10.0f}")
    ics = rate["ics people"] / rate["ics before"]
    api = rate["api viewer"] / rate["api admin"]
    print(f"  idle CPU, the feed alone / beside 1,000 people  {idle['before']:5.1f}% / {idle['people']:.1f}% of a core"
          f"  (target < 1%)  {'ok' if idle['people'] < 1 else 'MISSED'}")
    print(f"  .ics beside people / alone                     {ics:10.2f}  (target ≥ 0.95)  {'ok' if ics >= 0.95 else 'MISSED'}")
    print(f"  viewer's token / operator's token              {api:10.2f}  (the person and permission check, cached)")
    if bad:
        print(f"  non-2xx answers under load: {bad}  MISSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
