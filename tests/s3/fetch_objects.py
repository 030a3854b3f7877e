#!/usr/bin/python3
"""Lists the objects under a prefix with boto3 (Debian's python3-boto3, not Higgins' code) and
downloads them into a folder, keeping their keys as paths.

Usage: fetch_objects.py ENDPOINT BUCKET PREFIX OUT_DIR
Prints one line per object: "<key> <size>". Credentials: s3rver's defaults (S3RVER/S3RVER).
"""
import os
import sys

import boto3
from botocore.config import Config


def main():
    endpoint, bucket, prefix, out_dir = sys.argv[1:5]
    s3 = boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id="S3RVER",
        aws_secret_access_key="S3RVER",
        region_name="us-east-1",
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
    )
    paginator = s3.get_paginator("list_objects_v2")
    for page in paginator.paginate(Bucket=bucket, Prefix=prefix):
        for item in page.get("Contents", []):
            key = item["Key"]
            path = os.path.join(out_dir, key)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            s3.download_file(bucket, key, path)
            print(key, item["Size"])


if __name__ == "__main__":
    main()
