#!/usr/bin/python3
"""Signs one S3 request with botocore's S3SigV4Auth and prints its Authorization header.

The independent reference for s3_signature_test.cc: the request is described logically (bucket,
unencoded key, unencoded query parameters, body) and botocore builds and canonicalises it the
way the AWS SDK does. Needs Debian's python3-botocore (run with /usr/bin/python3).

Usage: sign_request.py SPEC.json, where SPEC is a request, or a list of them, each holding
  host        "127.0.0.1:4568" (the endpoint's authority)
  bucket      the bucket; "" when the host already names it (virtual-hosted style)
  key         the object key, or null for a request to the bucket itself
  params      [[name, value], ...] unencoded ("uploads" is ["uploads", ""])
  method, headers {name: value} (beyond host, x-amz-date, x-amz-content-sha256),
  body_hex, date ("20130524T000000Z"), access_key, secret_key, region.
Prints the Authorization value of each request on its own line. "--self-test" checks the
script against the GET example of AWS's SigV4 documentation for S3 instead.
"""
import datetime
import json
import sys
from unittest import mock

import botocore.auth
from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.utils import percent_encode


def authorization(spec):
    path = ""
    if spec["bucket"]:
        path += "/" + spec["bucket"]
    if spec["key"] is not None:
        # botocore's rest-xml serializer encodes a greedy {Key+} label with safe='/~'.
        path += "/" + percent_encode(spec["key"], safe="/~")
    if not path:
        path = "/"
    request = AWSRequest(
        method=spec["method"],
        url="http://" + spec["host"] + path,
        params=[(name, value) for name, value in spec["params"]],
        headers=dict(spec["headers"]),
        data=bytes.fromhex(spec["body_hex"]),
    )
    signed_at = datetime.datetime.strptime(spec["date"], "%Y%m%dT%H%M%SZ")
    auth = S3SigV4Auth(
        Credentials(spec["access_key"], spec["secret_key"]), "s3", spec["region"]
    )
    # add_auth reads the clock; pin it to the request's date.
    with mock.patch.object(botocore.auth.datetime, "datetime") as clock:
        clock.utcnow.return_value = signed_at
        auth.add_auth(request)
    return request.headers["Authorization"]


def self_test():
    spec = {
        "host": "examplebucket.s3.amazonaws.com",
        "bucket": "",
        "key": "test.txt",
        "params": [],
        "method": "GET",
        "headers": {"Range": "bytes=0-9"},
        "body_hex": "",
        "date": "20130524T000000Z",
        "access_key": "AKIAIOSFODNN7EXAMPLE",
        "secret_key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "region": "us-east-1",
    }
    expected = (
        "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
        "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
    )
    got = authorization(spec)
    print(got)
    return 0 if got == expected else 1


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    for one in spec if isinstance(spec, list) else [spec]:
        print(authorization(one))
    return 0


if __name__ == "__main__":
    sys.exit(main())
