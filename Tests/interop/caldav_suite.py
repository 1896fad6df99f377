#!/usr/bin/env python3
"""python-caldav's own functional tests (tests/test_caldav.py of its sdist, a
suite tminus was not written against) run against tminus, Radicale and
Xandikos in the same run (issue #62).

Usage: caldav_suite.py TMINUS_DAV_URL LOGIN APP_PASSWORD ARTIFACTS_DIR

The suite runs each of its 67 server tests against every server it is given,
each with the server's compatibility profile: Radicale (Debian's, in-process)
and Xandikos (PyPI) with the profiles the library ships for them, tminus with
`TMINUS_FEATURES` below, which declares only what docs/caldav.md says tminus
does not do. The sdist and its test dependencies go into a venv of their own
(.build/caldav-suite), apart from make interop's caldav-server-tester, which
pins another caldav. Writes the suite's report to ARTIFACTS_DIR, prints each
server's share of passed tests (passed of passed and failed; a test a
profile skips counts for neither), and checks that tminus's share is at least
the better of the other two's. Prints ok:/FAIL: lines.
"""
import json
import os
import subprocess
import sys
import tarfile
from collections import Counter
from xml.etree import ElementTree

URL, LOGIN, PASSWORD, ARTIFACTS = sys.argv[1:5]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOME = os.path.join(ROOT, ".build", "caldav-suite")
VERSION = "3.6.0"
SOURCE = os.path.join(HOME, f"caldav-{VERSION}")
VENV = os.path.join(HOME, "venv")
PYTHON = os.path.join(VENV, "bin", "python")
TEST_PACKAGES = ["pytest", "pytest-asyncio", "tzlocal", "vobject", "manuel", "proxy.py", "pyfakefs", "httpx", "httpxyz", "xandikos==0.4.10"]

# What tminus does not do, as docs/caldav.md says: no scheduling (RFC 6638),
# no journals (a PUT of one is refused with supported-calendar-component), a
# new person has no calendar until they make one, and a principal search finds
# only the person who asks (who else has an account is not an app's to list).
TMINUS_FEATURES = {
    "scheduling": {"support": "unsupported"},
    "save-load.journal": {"support": "unsupported"},
    "get-current-user-principal.has-calendar": {"value": False},
    "principal-search.list-all": {"support": "unsupported"},
}
failures = 0


def check(what, condition, detail=""):
    global failures
    print(f"ok: {what}" if condition else f"FAIL: {what} {detail}")
    failures += 0 if condition else 1


def prepare():
    """The sdist (with its tests) and a venv that sees Debian's Radicale."""
    os.makedirs(HOME, exist_ok=True)
    if not os.path.exists(SOURCE):
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", f"caldav=={VERSION}", "-d", HOME],
                       check=True)
        with tarfile.open(os.path.join(HOME, f"caldav-{VERSION}.tar.gz")) as archive:
            archive.extractall(HOME, filter="data")
    if not os.path.exists(PYTHON):
        # Debian's python3-radicale is the Radicale the embedded server imports: the venv sees the system's packages.
        # Debian's own python3, whose dist-packages hold it (a python3 first on PATH may be another build).
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", VENV], check=True)
    probe = subprocess.run([PYTHON, "-c", "import caldav, pytest, pytest_asyncio, tzlocal, xandikos, radicale; print(caldav.__version__)"],
                           capture_output=True, text=True)
    if probe.returncode != 0 or not probe.stdout.startswith(VERSION):
        subprocess.run([PYTHON, "-m", "pip", "install", "-q", SOURCE] + TEST_PACKAGES, check=True)


def main():
    prepare()
    servers = {"test-servers": {
        "radicale": {"type": "embedded", "enabled": True, "host": "127.0.0.1", "port": 15232, "username": "user1", "password": ""},
        "xandikos": {"type": "embedded", "enabled": True, "host": "127.0.0.1", "port": 18993, "username": "sometestuser", "password": ""},
        "tminus": {"type": "external", "enabled": True, "url": URL, "username": LOGIN, "password": PASSWORD, "features": TMINUS_FEATURES},
    }}
    # JSON is YAML: the loader takes tests/caldav_test_servers.json as it takes the .yaml.
    with open(os.path.join(SOURCE, "tests", "caldav_test_servers.json"), "w") as config:
        json.dump(servers, config)
    report = os.path.join(ARTIFACTS, "caldav-suite.txt")
    junit = os.path.join(ARTIFACTS, "caldav-suite.xml")
    with open(report, "w") as out:
        # The suite's testPrincipals calls its library's own deprecated principals(), which its
        # warnings-as-errors setting fails on any server that finds principals: that warning is let through.
        subprocess.run([PYTHON, "-m", "pytest", "tests/test_caldav.py", "-k", "TestForServer", "-q", "-p", "no:cacheprovider", f"--junitxml={junit}",
                        "-o", "asyncio_default_fixture_loop_scope=function", "-W", "ignore:principals() is deprecated:DeprecationWarning"],
                       cwd=SOURCE, stdout=out, stderr=subprocess.STDOUT, timeout=1800,
                       env=dict(os.environ, PYTHON_CALDAV_TEST_DOCKER="0"))
    outcomes = {}
    for case in ElementTree.parse(junit).iter("testcase"):
        server = case.get("classname", "").rpartition(".TestForServer")[2].lower()
        if not server:
            continue
        kinds = {child.tag for child in case}
        outcome = "FAILED" if kinds & {"failure", "error"} else "SKIPPED" if "skipped" in kinds else "PASSED"
        outcomes.setdefault(server, {})[case.get("name")] = outcome
    shares = {}
    for server, tests in sorted(outcomes.items()):
        counts = Counter(tests.values())
        ran = counts["PASSED"] + counts["FAILED"] + counts["ERROR"]
        shares[server] = counts["PASSED"] / max(1, ran)
        failed = sorted(test for test, outcome in tests.items() if outcome in ("FAILED", "ERROR"))
        print(f"  {server:<9} {counts['PASSED']:3d} of {ran:3d} passed ({shares[server]:.0%}), {counts['SKIPPED']} skipped by its profile"
              + (f"; failed: {', '.join(failed)}" if failed else ""))
    check("the suite ran against tminus, Radicale and Xandikos", set(shares) >= {"tminus", "radicale", "xandikos"}, sorted(shares))
    others = [shares[name] for name in ("radicale", "xandikos") if name in shares]
    check("tminus passes at least as large a share of python-caldav's suite as the better of Radicale and Xandikos",
          "tminus" in shares and len(others) == 2 and shares["tminus"] >= max(others), shares)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
