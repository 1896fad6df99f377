# tminus — the two commands a newcomer types are `make run` and `make test`.
# Both install what is missing first (Debian packages via apt-get, Python
# checkers via pip into .build/venv) and skip that step, offline, when all is there.

SHELL := /bin/bash
SYSTEM_PACKAGES := libical-dev libxml2-dev libsqlite3-dev libqrencode-dev libmosquitto-dev pkg-config tzdata
PYTHON_PACKAGES := icalendar recurring-ical-events python-dateutil jinja2 pyyaml convertdate lunardate babel http-ece
VENV := .build/venv
SWIFT_FLAGS ?=
# How release binaries are linked: by lld, functions (each in a section of its
# own, as swiftc emits them) placed by packaging/tminus.order (those a server
# runs, first: `make link-order` regenerates it), relative relocations packed
# (DT_RELR, glibc 2.36 and later: Debian bookworm), and no symbols exported
# from the executable (packaging/no-exports.map). A 10k-countdown server's
# resident size went from 87 to 69-71 MB: its touched code from 26 MB spread
# over all of .text to 15 MB, and the 4 MB of relocations and 6 MB of exported
# symbols that gold and the static standard library gave it, read at every
# start, are gone (docs/development.md, "The binary's own resident size").
RELEASE_FLAGS := -Xswiftc -use-ld=lld \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker --version-script=$(CURDIR)/packaging/no-exports.map \
	-Xlinker --symbol-ordering-file=$(CURDIR)/packaging/tminus.order -Xlinker --no-warn-symbol-ordering

export TMINUS_PYTHON := $(abspath $(VENV))/bin/python3

.PHONY: all deps pydeps clients build release link-order test test-postgres test-mqtt valgrind interop browser bench soak fuzz fuzz-build tsan run clean dist deb image test-package

all: build

# Installs those of the Debian packages $(1) that are missing (apt-get, with sudo
# when not root); says nothing and needs no network when all are there. $(2) names them.
define install-missing
missing=""; for p in $(1); do \
  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
  echo "==> installing $(2):$$missing"; \
  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO="sudo"; \
  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
fi
endef

deps:
	@$(call install-missing,$(SYSTEM_PACKAGES),system packages)

pydeps:
	@if ! $(TMINUS_PYTHON) -c "import icalendar, recurring_ical_events, dateutil, jinja2, yaml, convertdate, lunardate, babel, http_ece" 2>/dev/null; then \
	  echo "==> installing Python checkers into $(VENV): $(PYTHON_PACKAGES)"; \
	  python3 -m venv $(VENV) && $(VENV)/bin/pip install -q $(PYTHON_PACKAGES); \
	fi

# Only the program and what it needs: a bare `swift build` also builds the
# test-support targets (HummingbirdTesting, ServerTestSupport, tminus-bench), in
# another configuration than `swift test` left them, so `make run` after
# `make test` compiled them again (14 s here, 94 s on a newcomer's machine);
# `--product tminus` after `make test` takes about a second (issue #63, 11).
build: deps
	swift build --product tminus $(SWIFT_FLAGS)

release: deps
	swift build -c release $(RELEASE_FLAGS) $(SWIFT_FLAGS)

# Then the deadline tests alone: beside 400 others, any wake-up waits in line
# for Swift's two pool threads (Tests/FeedServerTests/DeadlineTimingTests.swift).
test: deps pydeps
	swift test $(SWIFT_FLAGS)
	TMINUS_QUIET_PASS=1 swift test --skip-build --filter DeadlineTimingTests $(SWIFT_FLAGS)

# The store suite on SQLite and on a real, throwaway PostgreSQL (initdb + pg_ctl
# in a temporary folder, stopped at the end), then two replicas behind a
# round-robin proxy, a replica killed, the database stopped, and `tminus copy`.
test-postgres: deps pydeps
	@$(call install-missing,postgresql,PostgreSQL)
	swift build --product tminus $(SWIFT_FLAGS)
	bash Tests/postgres/run.sh

# Notices over MQTT against a real broker: Debian's mosquitto, started by the
# tests on loopback (the package's own service is not used), and mosquitto_sub
# reading what Home Assistant would read. The suite takes seconds; one that has
# not ended after 10 minutes is a hang: its threads' stacks are printed and it fails.
MQTT_PACKAGES := mosquitto mosquitto-clients
test-mqtt: deps
	@$(call install-missing,$(MQTT_PACKAGES),MQTT broker and clients)
	swift build --build-tests $(SWIFT_FLAGS)
	bash Tests/tools/time-limit.sh 600 swift test --skip-build $(SWIFT_FLAGS) --filter 'MQTTSensorTests|NoticeTests'

# Real clients for `make interop`, from Debian's packages when missing.
CLIENT_PACKAGES := vdirsyncer khal calcurse chromium fonts-noto-color-emoji curl radicale nginx-light python3-venv
clients:
	@$(call install-missing,$(CLIENT_PACKAGES),interop clients)

# vdirsyncer + khal, calcurse, python readers, a polling client and headless
# Chromium against a live server; screenshots land in artifacts/interop/.
# CalDAV's clients and peers: the caldav library, its compatibility tester, Xandikos (PyPI).
INTEROP_PYTHON_PACKAGES := caldav caldav-server-tester xandikos vobject
interop: build pydeps clients
	@$(TMINUS_PYTHON) -c "import caldav, caldav_server_tester, xandikos, vobject" 2>/dev/null || $(VENV)/bin/pip install -q $(INTEROP_PYTHON_PACKAGES)
	TMINUS_PYTHON=$(TMINUS_PYTHON) bash Tests/interop/run.sh

# The web app in headless Chromium (Selenium): sign in, feeds, countdowns with
# a gradient and an image, edit, a broken import, token links, tasks, the timeline
# and the statistics, with axe-core on every page (serious or critical fails) and
# no console error allowed; then the app in German, Arabic and Japanese.
# Screenshots at 1280 and 360 px, light and dark, land in artifacts/browser/.
# Debian's chromium and chromium-driver are installed when missing, with a font
# for Chinese and Japanese (fonts-droid-fallback, 3 MB) so that those screenshots
# show text; selenium and axe-selenium-python go into .build/venv.
BROWSER_PACKAGES := chromium chromium-driver fonts-noto-color-emoji fonts-droid-fallback
browser: build pydeps
	@$(call install-missing,$(BROWSER_PACKAGES),browser test packages)
	@$(TMINUS_PYTHON) -c "import selenium, axe_selenium_python" 2>/dev/null || $(VENV)/bin/pip install -q selenium axe-selenium-python
	$(TMINUS_PYTHON) Tests/browser/walk.py .

# Speed, measured against references in the same run (release build): format,
# import and expansion against libical doing the same work in C
# (../shared/bench/*.c, built with gcc), the iCalendar core against python and a
# full walk, the permission check with 1,000 people against a store read, then
# serving against a bare Hummingbird app and nginx (wrk drives the load; gcc,
# nginx and wrk are installed when missing), a feed beside 1,000 people against
# the feed alone, CalDAV on a 10,000-event calendar beside Radicale (Debian) and
# Xandikos (PyPI) holding the same events, then replicas:
# SQLite against PostgreSQL, one replica against two behind nginx.
BENCH_PACKAGES := nginx-light wrk gcc radicale git
bench: deps pydeps dist
	@$(call install-missing,$(BENCH_PACKAGES),benchmark tools)
	@$(TMINUS_PYTHON) -c "import xandikos" 2>/dev/null || $(VENV)/bin/pip install -q xandikos==0.4.10
	swift build -c release --product tminus-bench $(RELEASE_FLAGS) $(SWIFT_FLAGS)
	swift build -c release --product tminus $(RELEASE_FLAGS) $(SWIFT_FLAGS)
	$(TMINUS_PYTHON) bench/core.py .
	.build/release/tminus-bench
	$(TMINUS_PYTHON) bench/serving.py .
	TMINUS_SIZE_BINARY=$(DIST)/release/tminus $(TMINUS_PYTHON) bench/size.py .
	$(TMINUS_PYTHON) bench/people.py .
	$(TMINUS_PYTHON) bench/caldav.py .
	@$(call install-missing,postgresql,PostgreSQL)
	bash Tests/postgres/cluster.sh $(TMINUS_PYTHON) bench/replicas.py .

# A release build under load, abuse and a SIGKILL (Tests/soak/soak.py): 256
# readers, a writer and a flaky URL source for 60 s, then 10,000 idle and
# half-sent connections, then a kill mid-import and a restart. It drives the
# package's binary (`make dist`), which test-package then reuses: one release build.
soak: dist
	TMINUS_SOAK_BINARY=$(DIST)/release/tminus python3 Tests/soak/soak.py .

# libFuzzer harnesses (Fuzz/, a package of their own): the content-line parser,
# the RRULE parser with a bounded expansion, parse → expand → write → parse, the
# feeds/*.yaml loader and the admin JSON documents. FUZZ_RUNS executions each
# (default 20000), or FUZZ_SECONDS seconds each.
# FUZZ_CONFIG=release builds them optimized, for long runs; FUZZ_ONLY picks harnesses.
FUZZ_CONFIG ?= debug
fuzz: fuzz-build
	FUZZ_CONFIG=$(FUZZ_CONFIG) bash Fuzz/run.sh

# The harnesses alone (.ci/run builds them in the background while other suites run).
fuzz-build: deps
	swift build -c $(FUZZ_CONFIG) --package-path Fuzz --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address $(SWIFT_FLAGS)

# The whole suite under ThreadSanitizer; a report fails the run (exit code 66).
# Tests/tsan/suppressions.txt holds the known false positives (Mutex), with the proof;
# tests that measure wall-clock time skip themselves there (TMINUS_TSAN, TestSupport/Timing).
tsan: deps pydeps
	TMINUS_TSAN=1 TSAN_OPTIONS="suppressions=$(abspath Tests/tsan/suppressions.txt) exitcode=66" swift test --sanitize=thread --scratch-path .build-tsan $(SWIFT_FLAGS)

# parse → expand → write under valgrind; fails on memory errors and on real leaks
# (Swift's runtime keeps metadata caches that valgrind calls "possibly lost").
VALGRIND := valgrind -q --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --error-exitcode=3
# valgrind 3.19 cannot read the DWARF 5 some dependencies emit, so it runs on a
# copy without debug sections (the symbol table stays, so traces keep names).
MEMCHECK_BIN := .build/tminus-memcheck
valgrind: build
	@command -v valgrind >/dev/null || { SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO="sudo"; $$SUDO apt-get install -y -qq valgrind; }
	strip --strip-debug -o $(MEMCHECK_BIN) .build/debug/tminus
	$(VALGRIND) $(MEMCHECK_BIN) occurrences Tests/ICalendarTests/Fixtures/custom-zone.ics --from 2026-01-01 --to 2028-01-01 --format json >/dev/null
	$(VALGRIND) $(MEMCHECK_BIN) format Tests/ICalendarTests/Fixtures/interop/windows.ics >/dev/null
	$(VALGRIND) $(MEMCHECK_BIN) format examples/google-export.ics >/dev/null
	$(VALGRIND) $(MEMCHECK_BIN) validate Tests/ICalendarTests/Fixtures/custom-zone.ics >/dev/null
	$(VALGRIND) $(MEMCHECK_BIN) occurrences Tests/ICalendarTests/Fixtures/fuzz/rscale-leak.ics --from 2026-01-01 --to 2028-01-01 >/dev/null
	$(VALGRIND) $(MEMCHECK_BIN) occurrences Tests/ICalendarTests/Fixtures/fuzz/vtimezone-without-readable-tzid.ics --from 2026-01-01 --to 2028-01-01 >/dev/null
	rm -f .build/memcheck.sqlite*
	$(VALGRIND) $(MEMCHECK_BIN) import examples/google-export.ics --feed kids --db .build/memcheck.sqlite >/dev/null
	$(VALGRIND) $(MEMCHECK_BIN) list --feed kids --db .build/memcheck.sqlite >/dev/null
	$(VALGRIND) $(MEMCHECK_BIN) list --feed kids --db .build/memcheck.sqlite --lang ar >/dev/null
	$(VALGRIND) $(MEMCHECK_BIN) list --db .build/memcheck.sqlite >/dev/null
	$(VALGRIND) $(MEMCHECK_BIN) format examples/google-export.ics -o .build/memcheck-out.ics
	$(VALGRIND) $(MEMCHECK_BIN) validate Tests/ICalendarTests/Fixtures/realworld/duplicate-masters.ics >/dev/null
	@echo "valgrind: no memory errors, no leaks"

# `make run`: the feed server on http://127.0.0.1:8080 with the example feeds
# (feeds/*.yaml, built on examples/) on ./tminus.sqlite. Ctrl-C stops it;
# `kill -HUP` reloads feeds/. HOST, PORT and DB can be overridden
# (`make run PORT=9000`), as the README says.
HOST ?= 127.0.0.1
PORT ?= 8080
DB ?= tminus.sqlite
# A self-contained release build: the Swift runtime linked in (-static-stdlib),
# so the binary needs only Debian's libraries (libical, SQLite, libqrencode);
# its templates and language tables beside it in $(DIST)/release.
DIST := .build-dist
VERSION := $(shell sed -n 's/.*static let release = "\(.*\)"/\1/p' Sources/tminus/Version.swift)
dist: deps
	swift build -c release --static-swift-stdlib --product tminus --scratch-path $(DIST) $(RELEASE_FLAGS) $(SWIFT_FLAGS)
	@$(DIST)/release/tminus --version

# Regenerates packaging/tminus.order from the release build (packaging/link-order.sh:
# a server and an import under callgrind, minutes; needs ../shared beside the clone).
link-order: dist pydeps
	@$(call install-missing,valgrind,valgrind)
	bash packaging/link-order.sh $(DIST) packaging/tminus.order

# The Debian package (dpkg-deb, dpkg-shlibdeps, lintian): /usr/bin/tminus, its
# resources in /usr/share/tminus, a man page, a hardened systemd unit.
PACKAGE_TOOLS := dpkg-dev lintian
deb: dist
	@$(call install-missing,$(PACKAGE_TOOLS),packaging tools)
	bash packaging/build.sh $(DIST) $(VERSION)

# An OCI image of the package (a bookworm root made by mmdebstrap, the package
# installed with apt, packed by packaging/oci_image.py): `podman load -i` it.
IMAGE := $(DIST)/tminus-$(VERSION).oci.tar
image: deb
	@$(call install-missing,mmdebstrap,image tools)
	bash packaging/image.sh $(DIST)/tminus_$(VERSION)_$$(dpkg --print-architecture).deb $(VERSION) $(IMAGE)

# Installs the package into a fresh Debian bookworm root (mmdebstrap), runs the
# service there as its own user, removes and purges it: Tests/package/run.sh.
PACKAGE_TEST_TOOLS := mmdebstrap systemd
test-package: image
	@$(call install-missing,$(PACKAGE_TEST_TOOLS),package test tools)
	bash Tests/package/run.sh $(DIST)/tminus_$(VERSION)_$$(dpkg --print-architecture).deb $(IMAGE)

run: build
	.build/debug/tminus serve --host $(HOST) --port $(PORT) --db $(DB) --feeds feeds

clean:
	rm -rf .build
