#pragma once

#include <cstdint>
#include <string>

namespace higgins::bench {

/// `higgins-bench s3`: the s3 storage against a local S3 server (docs/performance.md, "S3
/// storage"). Starts `s3rver` and a broker of its own.
struct S3BenchOptions {
  /// The s3rver program (npm s3rver; tools/interop/node_modules/.bin/s3rver of the source
  /// tree by default).
  std::string s3rver_path;
  /// The broker binary (empty: next to this program, or in the build tree).
  std::string broker_path;
  /// Seconds of each produce measurement (file, s3, file, s3).
  double seconds = 5;
  /// Closed-loop produce connections.
  int concurrency = 4;
  /// Records per produce request (about 100 bytes of NDJSON each).
  uint32_t batch = 100;
  /// Partition keys k0..k{keys-1}, round-robin; the query measurements read them.
  uint32_t keys = 100;
  /// The s3 storage's segment_max_age_ms: the age at which a segment is uploaded.
  uint32_t segment_max_age_ms = 200;
  /// Probes of the acknowledgement-to-object time: single-record produces, `probe_interval_ms`
  /// apart.
  uint32_t probes = 200;
  uint32_t probe_interval_ms = 20;
  /// Point queries of each read measurement (cold, warm, file).
  uint32_t queries = 300;
  bool json = false;
};

/// Runs, against one broker (`--entry-cache-mb=0`, so that reads reach the storage) and one
/// s3rver:
///   - produce: closed loop into a file stream and an s3 stream (fsync before acknowledging on
///     both), alternating file, s3, file, s3: records/s and latency; the ratio s3 / file;
///   - visibility: single-record produces to an s3 stream of its own; a poller lists its
///     objects every 5 ms and reads each new object's footer: for each record the time from
///     its acknowledgement to the first listing that shows an object holding it (p50/p99);
///   - reads: point queries (QueryAt) of distinct entries of the s3 stream after every segment
///     was uploaded: cold (each entry's first read: a ranged GET), warm (the same queries
///     again: the read cache), and the same queries on the file stream (page cache).
/// Returns the exit code: 0; 1 on a setup error; 3 when requests failed or answers were wrong.
int RunS3Bench(const S3BenchOptions& options);

}  // namespace higgins::bench
