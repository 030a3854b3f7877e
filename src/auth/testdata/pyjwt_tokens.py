#!/usr/bin/python3
"""Signs tokens with PyJWT, an implementation of JWT independent of libjwt.

The reference signer of jwt_verifier_test.cc (PyJwtTokens...). Needs Debian's python3-jwt and
python3-cryptography (run with /usr/bin/python3).

Usage: pyjwt_tokens.py SPEC.json, where SPEC is a list of tokens to make, each an object with
  alg       "HS256", "RS256", "ES256", ... or "none"
  secret    the HMAC secret (HS*), as text
  key_file  the PEM private key (RS*, ES*)
  claims    the payload, a JSON object (numbers stay as written: 1.5 is a float)
  headers   extra header parameters (optional)
Prints each token on its own line, in the order of SPEC. "--version" prints PyJWT's version.
"""
import json
import sys

import jwt


def token(spec):
    alg = spec["alg"]
    if alg.startswith("HS"):
        key = spec["secret"]
    elif alg == "none":
        key = None
    else:
        with open(spec["key_file"], "rb") as f:
            key = f.read()
    return jwt.encode(spec["claims"], key, algorithm=alg, headers=spec.get("headers"))


def main():
    if sys.argv[1:] == ["--version"]:
        print(jwt.__version__)
        return
    with open(sys.argv[1], encoding="utf-8") as f:
        specs = json.load(f)
    for spec in specs:
        print(token(spec))


if __name__ == "__main__":
    main()
