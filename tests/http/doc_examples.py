#!/usr/bin/env python3
"""Runs every shell example of docs/http.md, in order, against a running broker, and checks each
answer against the JSON block that follows it in the page (commit_time values aside: they are
the time of the run).

Usage: doc_examples.py DOC PORT [--show]
  DOC    docs/http.md
  PORT   the broker's HTTP port (the examples say localhost:8080)
  --show print what each example answered, to update the page after a deliberate change

The broker must hold what scripts/demo leaves in it (run with --keep), and nothing since: the
examples produce records, and the offsets they show follow from the demo's.
"""
import json
import re
import subprocess
import sys
import tempfile


def blocks(text):
    """(language, body) of each fenced block, in order."""
    return re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M)


def normalise(value):
    if isinstance(value, dict):
        return {k: ("<time>" if k == "commit_time" else normalise(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise(v) for v in value]
    return value


def main():
    doc, port = sys.argv[1], sys.argv[2]
    show = "--show" in sys.argv[3:]
    found = blocks(open(doc, encoding="utf-8").read())
    failures = 0
    ran = 0
    with tempfile.TemporaryDirectory() as work:
        for i, (language, body) in enumerate(found):
            if language != "sh" or "localhost:8080" not in body:
                continue  # the demo's own command, or not an HTTP example
            command = body.replace("localhost:8080", f"127.0.0.1:{port}")
            result = subprocess.run(["bash", "-c", "set -o pipefail\n" + command], cwd=work,
                                    capture_output=True, text=True, timeout=60)
            ran += 1
            if show:
                print(f"$ {body.strip()}\n{result.stdout}\n")
            if result.returncode != 0:
                print(f"FAIL: exit {result.returncode}: {body.strip()}\n{result.stderr}")
                failures += 1
                continue
            if i + 1 < len(found) and found[i + 1][0] == "json":
                expected = normalise(json.loads(found[i + 1][1]))
                try:
                    actual = normalise(json.loads(result.stdout))
                except json.JSONDecodeError as e:
                    print(f"FAIL: not JSON ({e}): {body.strip()}\n{result.stdout[:2000]}")
                    failures += 1
                    continue
                if actual != expected:
                    print(f"FAIL: {body.strip()}\n  expected {json.dumps(expected)[:2000]}\n"
                          f"  answered {json.dumps(actual)[:2000]}")
                    failures += 1
    print(f"doc_examples: {ran} examples run, {failures} failed")
    if ran == 0:
        print("FAIL: no example found")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
