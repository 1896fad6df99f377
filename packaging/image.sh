#!/usr/bin/env bash
# `make image`: an OCI image of the Debian package, made without a registry or
# a container engine: a minimal bookworm root from Debian's archive
# (mmdebstrap), the package installed into it with apt, then packed as an OCI
# archive (oci_image.py) that `podman load -i` reads.
#   packaging/image.sh DEB VERSION OUT.oci.tar
set -euo pipefail
deb=$(realpath "$1") version=$2 out=$3
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/tminus-image-XXXXXX)
trap 'rm -rf "$work"' EXIT
mmdebstrap --quiet --variant=apt --include=ca-certificates bookworm "$work/root.tar" \
    --customize-hook="copy-in $deb /tmp" \
    --customize-hook="chroot \"\$1\" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/$(basename "$deb") >/dev/null" \
    --customize-hook='rm -f "$1"/tmp/*.deb; rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin'
python3 packaging/oci_image.py "$work/root.tar" "$version" "$out"
