#!/usr/bin/env bash
# `make deb`: stages the self-contained release build (`make dist`) as a Debian
# root and builds tminus_VERSION_ARCH.deb with dpkg-deb, its library
# dependencies found by dpkg-shlibdeps, then runs lintian (errors fail).
#   packaging/build.sh SCRATCH VERSION
set -euo pipefail
scratch=$1 version=$2
cd "$(dirname "$0")/.."
arch=$(dpkg --print-architecture)
bin="$scratch/release/tminus"
stage="$scratch/stage"
deb="$scratch/tminus_${version}_${arch}.deb"
[ -x "$bin" ] || { echo "build.sh: $bin is missing (make dist builds it)" >&2; exit 1; }

rm -rf "$stage"
install -d "$stage/DEBIAN" "$stage/usr/bin" "$stage/usr/share/tminus" "$stage/usr/share/man/man1" \
    "$stage/usr/share/doc/tminus" "$stage/usr/share/tminus/examples" "$stage/lib/systemd/system" "$stage/etc/tminus/feeds"
install -m 0755 "$bin" "$stage/usr/bin/tminus"
strip --strip-unneeded "$stage/usr/bin/tminus"
for bundle in tminus_Pages.resources tminus_Countdowns.resources tminus_FeedServer.resources; do
    cp -r "$scratch/release/$bundle" "$stage/usr/share/tminus/"
done
find "$stage/usr/share/tminus" -type d -exec chmod 0755 {} + ; find "$stage/usr/share/tminus" -type f -exec chmod 0644 {} +
install -m 0644 packaging/tminus.service "$stage/lib/systemd/system/tminus.service"
install -m 0640 packaging/tminus.env "$stage/etc/tminus/tminus.env"
install -m 0644 packaging/feeds-README "$stage/etc/tminus/feeds/README"
install -m 0644 packaging/debian/copyright "$stage/usr/share/doc/tminus/copyright"
install -m 0644 README.md "$stage/usr/share/doc/tminus/README.md"
cp -r docs "$stage/usr/share/doc/tminus/docs"
# The example feeds and their calendars, where a program may read them (/usr/share/doc may be left
# out of a minimal install): each feed names its calendar by its installed path, so a copy of
# the feeds into /etc/tminus/feeds works as it is (the README's step).
cp -r examples "$stage/usr/share/tminus/examples/calendars"
mkdir -p "$stage/usr/share/tminus/examples/feeds"
for feed in feeds/*.yaml; do
    sed 's|file: \.\./examples/|file: /usr/share/tminus/examples/calendars/|' "$feed" > "$stage/usr/share/tminus/examples/feeds/$(basename "$feed")"
done
find "$stage/usr/share/tminus/examples" -type d -exec chmod 0755 {} + ; find "$stage/usr/share/tminus/examples" -type f -exec chmod 0644 {} +
find "$stage/usr/share/tminus/examples" -name '*.sh' -exec chmod 0755 {} +   # a recipe to run as it is
find "$stage/usr/share/doc" -type d -exec chmod 0755 {} + ; find "$stage/usr/share/doc" -type f -exec chmod 0644 {} +
gzip -9n "$stage/usr/share/doc/tminus/README.md" "$stage/usr/share/doc/tminus/docs/"*.md
printf 'tminus (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- tminus maintainers <tminus@example.org>  %s\n' \
    "$version" "$version" "$(date -R -u -d @"${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")" \
    | gzip -9n > "$stage/usr/share/doc/tminus/changelog.gz"
# The man page, from the commands' own --help: ArgumentParser's generate-manual tool (what its
# plugin runs), built alone (ArgumentParser and the tool, seconds) and run on the binary above.
# The plugin itself first builds every product of the package again in release mode: a fourth
# build, a quarter of an hour of CI's 2 cores, for the same page.
man="$scratch/man"
rm -rf "$man" && mkdir -p "$man"
built=$(date -u -d @"${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}" +%Y-%m-%d)
parser="$scratch/checkouts/swift-argument-parser"
[ -f "$parser/Package.swift" ] || { echo "build.sh: $parser is missing (make dist fetches it)" >&2; exit 1; }
tool=$(realpath -m "$scratch/manual-tool")   # one spelling of the path: the module cache inside keeps it
swift build --package-path "$(realpath "$parser")" --scratch-path "$tool" --product generate-manual >/dev/null
"$tool/debug/generate-manual" "$bin" --output-directory "$man" --date "$built" --authors "tminus maintainers<tminus@example.org>"
[ -s "$man/tminus.1" ] || { echo "build.sh: generate-manual wrote no $man/tminus.1" >&2; exit 1; }
install -m 0644 "$man/tminus.1" "$stage/usr/share/man/man1/tminus.1"
gzip -9n "$stage/usr/share/man/man1/tminus.1"
install -m 0755 packaging/debian/postinst packaging/debian/prerm packaging/debian/postrm "$stage/DEBIAN/"
install -d "$stage/usr/share/lintian/overrides"
install -m 0644 packaging/debian/lintian-overrides "$stage/usr/share/lintian/overrides/tminus"
echo /etc/tminus/tminus.env > "$stage/DEBIAN/conffiles"

# The shared libraries the binary needs, as Debian packages (dpkg-shlibdeps reads debian/control).
shlib=$(mktemp -d)
mkdir -p "$shlib/debian"
printf 'Source: tminus\n\nPackage: tminus\nArchitecture: any\n' > "$shlib/debian/control"
depends=$(cd "$shlib" && dpkg-shlibdeps -O "$OLDPWD/$stage/usr/bin/tminus" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
rm -rf "$shlib"
[ -n "$depends" ] || { echo "build.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# Packed relative relocations (the Makefile's RELEASE_FLAGS) need glibc 2.36's
# loader; dpkg-shlibdeps reads only symbol versions, not this one without symbols.
# Raised to 2.36 only when what it found is older.
libc=$(echo "$depends" | sed -nE 's/.*libc6 \(>= ([^)]+)\).*/\1/p')
if readelf -V "$stage/usr/bin/tminus" | grep -q GLIBC_ABI_DT_RELR && [ -n "$libc" ] && dpkg --compare-versions "$libc" lt 2.36; then
    depends=$(echo "$depends" | sed -E "s/libc6 \(>= [^)]+\)/libc6 (>= 2.36)/")
fi
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
    packaging/debian/control.in > "$stage/DEBIAN/control"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "deb: $deb ($(du -h "$deb" | cut -f1), installed $size KiB); Depends: $depends"
if command -v lintian >/dev/null; then
    lintian --fail-on error "$deb" || { echo "build.sh: lintian reports errors" >&2; exit 1; }
    echo "lintian: no error"
fi
