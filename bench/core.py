#!/usr/bin/env python3
"""`make bench`, first part: tminus's iCalendar work against libical doing the
same work in C, whole processes timed in one run on the same files.

    python3 bench/core.py [REPO]      (after `swift build -c release --product tminus`)

The C twins are ../shared/bench/libical_parse.c (parse, walk every VEVENT,
serialize) and libical_expand.c (expand a year), built here with gcc -O2. The
calendars come from ../shared/bench/gen_calendar.py, the generator the issue's
figures were measured on. Each figure is the median of RUNS runs (TMINUS_BENCH_RUNS,
3); the machine is shared, so read the ratios, not the absolutes. Prints one table
and, per target, a line ending in "ok" or "MISSED".
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
SHARED = (REPO / ".." / "shared").resolve()
WORK = REPO / ".build" / "bench"
TMINUS = REPO / ".build" / "release" / "tminus"
RUNS = int(os.environ.get("TMINUS_BENCH_RUNS", "3"))


def run(command):
    """Runs one process; returns (seconds, peak resident MiB, stdout). Output goes
    through a file, so a large one cannot block the process on a full pipe."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            raise SystemExit(f"bench: {' '.join(map(str, command))} failed ({code}): {err.read().decode()[-500:]}")
        return elapsed, usage.ru_maxrss / 1024, out.read().decode()


def median(command_factory):
    samples = [run(command_factory()) for _ in range(RUNS)]
    seconds = statistics.median(s[0] for s in samples)
    return seconds, max(s[1] for s in samples), samples[-1][2]


def build_c(name):
    source = SHARED / "bench" / f"{name}.c"
    binary = WORK / name
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libical"], capture_output=True, text=True, check=True).stdout.split()
        subprocess.run(["gcc", "-O2", "-o", str(binary), str(source)] + flags, check=True)
    return binary


def calendar(events):
    path = WORK / f"gen-{events}.ics"
    if not path.exists():
        subprocess.run([sys.executable, str(SHARED / "bench" / "gen_calendar.py"), str(events), str(path)],
                       check=True, stdout=subprocess.DEVNULL)
    return path


def main():
    if not (SHARED / "bench" / "gen_calendar.py").exists():
        print("bench: ../shared/bench is not beside the clone; the libical comparison needs it (skipped)")
        return 0
    if not TMINUS.exists():
        raise SystemExit(f"bench: {TMINUS} is missing; run `swift build -c release --product tminus` first")
    WORK.mkdir(parents=True, exist_ok=True)
    parse_c, expand_c = build_c("libical_parse"), build_c("libical_expand")
    rows, verdicts = [], []

    def fresh_db():
        folder = tempfile.mkdtemp(dir=WORK)
        return str(Path(folder) / "bench.sqlite")

    def compare(label, ours, theirs, target=None, note=""):
        ratio = ours[0] / theirs[0]
        rows.append((label, ours[0], ours[1], theirs[0], theirs[1], ratio))
        if target is not None:
            verdicts.append(f"{label}: {ratio:.2f}x libical (target at most {target}x) {'ok' if ratio <= target else 'MISSED'}{note}")

    for events in (10_000, 50_000):
        ics = calendar(events)
        c_parse = median(lambda: [str(parse_c), str(ics)])
        fmt = median(lambda: [str(TMINUS), "format", str(ics), "-o", os.devnull])
        compare(f"format {events // 1000}k events", fmt, c_parse, 1.5)
        imported = median(lambda: [str(TMINUS), "import", str(ics), "--feed", "bench", "--db", fresh_db()])
        compare(f"import {events // 1000}k events (new database)", imported, c_parse, 2.0)

    ics = calendar(10_000)
    c_expand = median(lambda: [str(expand_c), str(ics), "20260101", "20270101"])
    ours = median(lambda: [str(TMINUS), "occurrences", str(ics), "--from", "2026-01-01", "--to", "2027-01-01",
                           "--format", "json", "--limit", "10000000"])
    count = ours[2].count('"uid"')
    theirs_count = re.search(r"occurrences=(\d+)", c_expand[2])
    compare("expand 2026, 10k events", ours, c_expand, 1.0,
            f" ({count} occurrences; libical {theirs_count.group(1) if theirs_count else '?'})")

    big = calendar(100_000)
    c_big = median(lambda: [str(parse_c), str(big)])
    imported = median(lambda: [str(TMINUS), "import", str(big), "--feed", "bench", "--db", fresh_db(), "--max-bytes", "128M", "--max-items", "200000"])
    compare(f"import 100k events ({big.stat().st_size >> 20} MiB)", imported, c_big, 2.0)
    verdicts.append(f"import 100k events: peak {imported[1]:.0f} MiB resident (target under 400) {'ok' if imported[1] < 400 else 'MISSED'}")

    print(f"\n{'work':44} {'tminus s':>9} {'MiB':>6} {'libical s':>10} {'MiB':>6} {'ratio':>6}")
    for label, ours_s, ours_mb, c_s, c_mb, ratio in rows:
        print(f"{label:44} {ours_s:9.3f} {ours_mb:6.0f} {c_s:10.3f} {c_mb:6.0f} {ratio:6.2f}")
    print()
    for line in verdicts:
        print("core:", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
