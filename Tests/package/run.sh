#!/usr/bin/env bash
# `make test-package`: the Debian package on a fresh Debian bookworm root, as a
# new machine would have it (issue #24).
#   1. mmdebstrap makes a minimal bookworm root; apt installs the package into
#      it, its dependencies coming from Debian's archive;
#   2. ldd of the installed binary names only Debian libraries (nothing from
#      the Swift toolchain);
#   3. the installed `tminus serve` runs in that root (chroot) as the package's
#      user, with the unit's environment file: /healthz, a feed's .ics, the
#      web app's setup link (printed on its terminal), /metrics;
#   4. systemd-analyze verifies the unit and scores its exposure;
#   5. remove keeps the data, a reinstall serves the same bytes, purge deletes it;
#      an install over a database of the oldest schema (v1) migrates and serves it;
#   6. given the OCI image, its layer is unpacked and started as its config says.
# Every process it starts is stopped by its PID; the mounts are undone.
#   Tests/package/run.sh PATH/TO/tminus_VERSION_ARCH.deb [PATH/TO/tminus-VERSION.oci.tar]
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
    # mmdebstrap, chroot and mount need root.
    command -v sudo >/dev/null && exec sudo -E bash "$0" "$@"
    echo "test-package: run as root (mmdebstrap, chroot and mount need it)" >&2; exit 1
fi
deb=$(realpath "$1")
cd "$(dirname "$0")/../.."
work=$(mktemp -d /tmp/tminus-package-XXXXXX)
root="$work/root"
server=""
passed=0 failed=0
started=$(date +%s)

cleanup() {
    [ -n "$server" ] && stop_server
    for mount in "$root/dev/pts" "$root/dev" "$root/proc"; do mountpoint -q "$mount" 2>/dev/null && umount -l "$mount"; done
    rm -rf "$work"
}
trap cleanup EXIT

check() {   # check NAME CONDITION FIGURE
    if [ "$2" = 0 ]; then echo "ok   $1: $3"; passed=$((passed + 1)); else echo "FAIL $1: $3"; failed=$((failed + 1)); fi
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

echo "package: making a bookworm root and installing $(basename "$deb") with apt"
mmdebstrap --quiet --variant=apt --include=ca-certificates,systemd bookworm "$root" \
    --customize-hook="copy-in $deb /tmp" \
    --customize-hook="chroot \"\$1\" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/$(basename "$deb") >/dev/null"
check "the package installs with apt on bookworm" "$([ -x "$root/usr/bin/tminus" ]; echo $?)" "$(du -sh "$root/usr/bin/tminus" | cut -f1) binary, $(( $(date +%s) - started )) s"
installed=$(chroot "$root" dpkg-query -W -f='${Installed-Size}' tminus)
check "installed size" 0 "$installed KiB"

libraries=$(chroot "$root" ldd /usr/bin/tminus)
bad=$(echo "$libraries" | grep -E "not found|swift|/opt/" || true)
check "ldd names only Debian libraries" "$([ -z "$bad" ]; echo $?)" "$(echo "$libraries" | awk '{print $1}' | tr '\n' ' ')${bad:+ BAD: $bad}"
owners="" orphans=""
for library in $(echo "$libraries" | awk '$3 ~ /^\// {print $3}'); do
    # bookworm is merged-/usr: dpkg may know a library under /usr/lib or under /lib.
    real=$(chroot "$root" realpath "$library")
    owner=$( (chroot "$root" dpkg -S "$real" 2>/dev/null || chroot "$root" dpkg -S "${real#/usr}" 2>/dev/null || true) | head -1 | cut -d: -f1)
    if [ -n "$owner" ]; then owners="$owners $owner"; else orphans="$orphans $library"; fi
done
owners=$(echo $owners | tr ' ' '\n' | sort -u | tr '\n' ' ')
check "every library belongs to a Debian package" "$([ -z "$orphans" ] && [ -n "$owners" ]; echo $?)" "$owners${orphans:+ NONE FOR:$orphans}"
check "the man page is installed" "$([ -f "$root/usr/share/man/man1/tminus.1.gz" ]; echo $?)" "/usr/share/man/man1/tminus.1.gz"
# Not `zcat | grep -q`: grep leaving at its first match makes zcat die of SIGPIPE, which pipefail counts a failure.
man_text=$(zcat "$root/usr/share/man/man1/tminus.1.gz")
check "the man page lists the exit statuses" "$(grep -q '66.*missing' <<<"$man_text"; echo $?)" "Exit status table"
check "the guide is installed beside the README" "$([ -f "$root/usr/share/doc/tminus/docs/command-line.md.gz" ] && [ -f "$root/usr/share/doc/tminus/README.md.gz" ]; echo $?)" "/usr/share/doc/tminus/docs"
user=$(chroot "$root" getent passwd tminus || true)
check "the package made its system user" "$([ -n "$user" ]; echo $?)" "$user"

mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
# (with /proc mounted: the Swift runtime reads its arguments from /proc/self/cmdline)
version=$(chroot "$root" /usr/bin/tminus --version 2>&1 | head -1)
check "tminus --version" "$(grep -qE '^[0-9]+\.[0-9]+\.[0-9]+ \(([0-9a-f]{12}(-dirty)?|unknown)\)$' <<<"$version"; echo $?)" "$version"
# The README's steps after the install, as written (issue #63, 10): the example feeds copied from
# where the package put them; the first administrator's password follows the setup link's check.
chroot "$root" sh -c 'cp /usr/share/tminus/examples/feeds/*.yaml /etc/tminus/feeds/'

run_server() {   # starts the installed server as the unit would; sets $server and $port
    port=$(free_port)
    # `script` gives it a terminal, where it prints the one-time setup link.
    setsid chroot --userspec=tminus:tminus "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/var/lib/tminus \
        /bin/sh -c "cd /var/lib/tminus && set -a && . /etc/tminus/tminus.env && set +a && exec script -qfec 'echo \$\$ > /tmp/tminus-serve.pid; exec /usr/bin/tminus serve --port $port' /dev/null" \
        > "$work/serve-$1.log" 2>&1 &
    server=$!
    for _ in $(seq 1 100); do
        curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return 0
        kill -0 "$server" 2>/dev/null || break
        sleep 0.2
    done
    echo "package: the server did not come up:"; cat "$work/serve-$1.log"; return 1
}

stop_server() {   # the server by its PID (under `script` it has a session of its own), then its wrapper
    local pid
    pid=$(cat "$root/tmp/tminus-serve.pid" 2>/dev/null || true)
    if [ -n "$pid" ]; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        rm -f "$root/tmp/tminus-serve.pid"
    fi
    kill -TERM -- "-$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
}

run_server first
health=$(curl -fs "http://127.0.0.1:$port/healthz")
check "/healthz of the installed service" "$([ "$health" = '{"status":"ok"}' ]; echo $?)" "$health"
headers=$(curl -fsS -D - -o "$work/birthdays.ics" "http://127.0.0.1:$port/feeds/birthdays.ics")
etag=$(echo "$headers" | tr -d '\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')
check "a copied example feed's .ics is served with its events" "$(grep -q 'BEGIN:VEVENT' "$work/birthdays.ics"; echo $?)" "$(wc -c < "$work/birthdays.ics") bytes, ETag $etag"
link=$(tr -d '\r' < "$work/serve-first.log" | grep -o "http://[^ ]*/app/setup/[A-Za-z0-9_-]*" | head -1 || true)
setup=$(curl -s -o /dev/null -w '%{http_code}' "${link/8080/$port}")
check "the web app's setup link, printed on the terminal, opens" "$([ -n "$link" ] && [ "$setup" = 200 ]; echo $?)" "${link:-no link} -> $setup"
# The README's `sudo -u tminus tminus password anna --db …` (--stdin: no terminal here), beside the running service.
status=0
password=$(printf '%s\n' 'a long enough password' | chroot --userspec=tminus:tminus "$root" /usr/bin/tminus password anna --stdin --db /var/lib/tminus/tminus.sqlite 2>&1) || status=$?
check "the README's first administrator: tminus password anna" "$status" "$password"
token=$(cat "$root/var/lib/tminus/tminus-admin-token" 2>/dev/null || true)
metrics=$(curl -s -H "Authorization: Bearer $token" "http://127.0.0.1:$port/metrics" || true)
requests=$(echo "$metrics" | grep -F 'tminus_http_requests_total{route="/feeds/{slug}.ics",method="GET",status="200"}' | awk '{print $2}')
check "/metrics answers with the admin token, and counted the .ics request" "$([ "$requests" = 1 ] && [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics")" = 401 ]; echo $?)" \
    "$(echo "$metrics" | grep -c '^tminus_') series, .ics requests: ${requests:-none}"
contract=$(curl -fs "http://127.0.0.1:$port/api/openapi.json" || true)
check "the API's contract is installed and served without the token" "$(grep -q '"openapi": "3.1.0"' <<<"$contract"; echo $?)" \
    "$(echo "$contract" | wc -c) bytes"
data=$(chroot "$root" sh -c 'stat -c "%U %a %n" /var/lib/tminus /var/lib/tminus/*')
check "the data is the service user's, owner-only" "$(grep -qv '^tminus [67]00 ' <<<"$data"; [ $? = 1 ] && grep -q 'tminus.sqlite$' <<<"$data"; echo $?)" "$(echo "$data" | tr '\n' ';')"
stop_server

verify=$(systemd-analyze verify --root="$root" tminus.service 2>&1 | grep -v "^$" || true)
check "systemd-analyze verify" "$([ -z "$verify" ]; echo $?)" "${verify:-clean}"
score=$(systemd-analyze security --offline=yes --root="$root" tminus.service 2>/dev/null | tail -1 || true)
check "systemd-analyze security" "$([ -n "$score" ]; echo $?)" "$score"

chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq tminus >/dev/null
check "remove keeps the data" "$([ ! -e "$root/usr/bin/tminus" ] && [ -f "$root/var/lib/tminus/tminus.sqlite" ] && [ -f "$root/etc/tminus/tminus.env" ]; echo $?)" \
    "$(ls "$root/var/lib/tminus" | tr '\n' ' ')"
cp "$deb" "$root/tmp/"
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "/tmp/$(basename "$deb")" >/dev/null
run_server again
again=$(curl -fsS -D - -o /dev/null "http://127.0.0.1:$port/feeds/birthdays.ics" | tr -d '\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')
check "a reinstall serves the kept data unchanged" "$([ -n "$etag" ] && [ "$again" = "$etag" ]; echo $?)" "ETag $again"
stop_server

chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq tminus >/dev/null
left=""
[ -e "$root/var/lib/tminus" ] && left="$left /var/lib/tminus"
[ -e "$root/etc/tminus" ] && left="$left /etc/tminus"
chroot "$root" getent passwd tminus >/dev/null && left="$left the user"
check "purge deletes the data, the settings and the user" "$([ -z "$left" ]; echo $?)" "${left:+left:}${left:-all gone}"

# An upgrade from the oldest schema: the package installed over the data a v1
# database left (Tests/CountdownStoreTests/Fixtures/schemas/v1.sqlite), which
# the service migrates at start and serves.
oldest=Tests/CountdownStoreTests/Fixtures/schemas/v1.sqlite
install -d "$root/var/lib/tminus"
cp "$oldest" "$root/var/lib/tminus/tminus.sqlite"
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "/tmp/$(basename "$deb")" >/dev/null
chroot "$root" chown -R tminus:tminus /var/lib/tminus
run_server upgrade
upgraded=$(curl -fs "http://127.0.0.1:$port/feeds/family.ics" || true)
stop_server
migrations=$(chroot --userspec=tminus:tminus "$root" /usr/bin/tminus migrate --db /var/lib/tminus/tminus.sqlite | tail -1)
check "an install over a v1 database migrates it and serves its feed" \
    "$(grep -q 'SUMMARY:Maths final' <<<"$upgraded" && grep -q 'up to date' <<<"$migrations"; echo $?)" "$migrations"

# The OCI image (`make image`): its layer unpacked and started as its config
# says (user, environment, entry point), since no container engine runs here.
image=${2:-}
if [ -n "$image" ]; then
    for mount in "$root/dev/pts" "$root/dev" "$root/proc"; do mountpoint -q "$mount" 2>/dev/null && umount -l "$mount"; done
    root="$work/image-root"
    mkdir -p "$work/oci" "$root"
    tar -xf "$image" -C "$work/oci"
    eval "$(python3 - "$work/oci" <<'PY'
import json, shlex, sys
oci = sys.argv[1]
blob = lambda digest: f"{oci}/blobs/sha256/{digest.split(':')[1]}"
index = json.load(open(f"{oci}/index.json"))
manifest = json.load(open(blob(index["manifests"][0]["digest"])))
config = json.load(open(blob(manifest["config"]["digest"])))["config"]
print("layer=" + shlex.quote(blob(manifest["layers"][0]["digest"])))
print("image_user=" + shlex.quote(config["User"]))
print("image_env=" + shlex.quote(" ".join(config["Env"])))
print("image_entrypoint=" + shlex.quote(" ".join(config["Entrypoint"])))
print("image_workdir=" + shlex.quote(config["WorkingDir"]))
PY
)"
    tar -xzf "$layer" -C "$root"
    check "the image unpacks as its config says" "$([ -x "$root/usr/bin/tminus" ] && [ "$image_user" = tminus ]; echo $?)" \
        "$(du -h "$image" | cut -f1) archive; user $image_user; entry point $image_entrypoint"
    mount -t proc proc "$root/proc"
    mount --bind /dev "$root/dev"
    chroot "$root" sh -c 'cp /usr/share/tminus/examples/feeds/*.yaml /etc/tminus/feeds/'
    port=$(free_port)
    setsid chroot --userspec="$image_user:$image_user" "$root" /usr/bin/env -i $image_env TMINUS_PORT="$port" TMINUS_HOST=127.0.0.1 \
        /bin/sh -c "cd $image_workdir && echo \$\$ > /tmp/tminus-serve.pid && exec $image_entrypoint" > "$work/serve-image.log" 2>&1 &
    server=$!
    up=""
    for _ in $(seq 1 100); do
        up=$(curl -fs "http://127.0.0.1:$port/healthz" 2>/dev/null || true)
        [ -n "$up" ] && break
        sleep 0.2
    done
    ics=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/feeds/birthdays.ics")
    check "the image's root file system serves, as its entry point starts it" "$([ "$up" = '{"status":"ok"}' ] && [ "$ics" = 200 ]; echo $?)" \
        "/healthz $up, a feed .ics $ics"
    stop_server
fi

echo "package: $passed passed, $failed failed in $(( $(date +%s) - started )) s"
[ "$failed" = 0 ]
