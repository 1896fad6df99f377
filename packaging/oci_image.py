#!/usr/bin/env python3
"""Turns a root file system tarball into an OCI image archive, without a
container engine (none runs on the build machine): one gzip layer, a config
that starts `tminus serve` as the package's user, and an OCI layout
(oci-layout, index.json, blobs/sha256/...) packed as one tar, which
`podman load -i`, `skopeo copy oci-archive:` and `docker load` (25+) read.

    oci_image.py ROOT.tar VERSION OUT.oci.tar
"""
import gzip
import hashlib
import io
import json
import os
import sys
import tarfile
import time

root_tar, version, out = sys.argv[1], sys.argv[2], sys.argv[3]
created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(int(os.environ.get("SOURCE_DATE_EPOCH", time.time()))))
blobs = {}


def blob(data, media_type):
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    blobs[digest] = data
    return {"mediaType": media_type, "digest": digest, "size": len(data)}


with open(root_tar, "rb") as handle:
    layer = handle.read()
diff_id = "sha256:" + hashlib.sha256(layer).hexdigest()
compressed = gzip.compress(layer, compresslevel=6, mtime=0)
layer_descriptor = blob(compressed, "application/vnd.oci.image.layer.v1.tar+gzip")

config = {
    "created": created,
    "architecture": "amd64",
    "os": "linux",
    "config": {
        "User": "tminus",
        "Env": [
            "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "TMINUS_HOST=0.0.0.0", "TMINUS_PORT=8080",
            "TMINUS_DB=/var/lib/tminus/tminus.sqlite", "TMINUS_FEEDS=/etc/tminus/feeds",
        ],
        "Entrypoint": ["/usr/bin/tminus", "serve"],
        "WorkingDir": "/var/lib/tminus",
        "ExposedPorts": {"8080/tcp": {}},
        "Volumes": {"/var/lib/tminus": {}},
        "Labels": {"org.opencontainers.image.title": "tminus", "org.opencontainers.image.version": version},
    },
    "rootfs": {"type": "layers", "diff_ids": [diff_id]},
    "history": [{"created": created, "created_by": "mmdebstrap bookworm + apt install tminus_%s.deb" % version}],
}
config_descriptor = blob(json.dumps(config, sort_keys=True).encode(), "application/vnd.oci.image.config.v1+json")
manifest = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "config": config_descriptor, "layers": [layer_descriptor]}
manifest_descriptor = blob(json.dumps(manifest, sort_keys=True).encode(), "application/vnd.oci.image.manifest.v1+json")
manifest_descriptor["annotations"] = {"org.opencontainers.image.ref.name": version}
index = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json", "manifests": [manifest_descriptor]}

with tarfile.open(out, "w") as archive:
    def add(name, data):
        info = tarfile.TarInfo(name)
        info.size = len(data)
        info.mtime = 0
        archive.addfile(info, io.BytesIO(data))
    add("oci-layout", json.dumps({"imageLayoutVersion": "1.0.0"}).encode())
    add("index.json", json.dumps(index, sort_keys=True).encode())
    for digest, data in sorted(blobs.items()):
        add("blobs/sha256/" + digest.split(":")[1], data)
print(f"image: {out} ({os.path.getsize(out) >> 20} MB, layer {len(layer) >> 20} MB unpacked), tminus:{version}")
