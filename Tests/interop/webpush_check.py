"""A second implementation for tminus's web push (Tests/WebPushTests): the
messages it encrypted, decrypted by http_ece (the aes128gcm content encoding,
RFC 8188/8291, as pywebpush uses it), and its VAPID tokens verified with
cryptography's ES256 (RFC 8292). One JSON request on stdin, one answer out."""
import base64, json, sys

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def decrypt(case, auth):
    key = ec.derive_private_key(int.from_bytes(b64(case["browserPrivate"]), "big"), ec.SECP256R1())
    try:
        plain = http_ece.decrypt(b64(case["body"]), private_key=key, auth_secret=auth, version="aes128gcm")
        return {"plaintext": base64.urlsafe_b64encode(plain).decode().rstrip("=")}
    except Exception as error:  # a message it cannot read is the answer, not a crash
        return {"error": f"{type(error).__name__}: {error}"}


def verify(token, public):
    header, claims, signature = token.split(".")
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64(public))
    raw = b64(signature)
    try:
        key.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                   f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return {"valid": False}
    return {"valid": len(raw) == 64, "header": json.loads(b64(header)), "claims": json.loads(b64(claims))}


request = json.load(sys.stdin)
answer = {}
if "messages" in request:
    auth = b64(request["auth"])
    answer["messages"] = [decrypt(case, auth) for case in request["messages"]]
if "token" in request:
    answer["token"] = verify(request["token"], request["publicKey"])
json.dump(answer, sys.stdout)
