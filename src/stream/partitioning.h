#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/ids.h"
#include "higgins/arrow/array.h"
#include "higgins/status.h"

namespace higgins::stream {

/// Kafka's murmur2 hash of `bytes` (org.apache.kafka.common.utils.Utils.murmur2: MurmurHash2,
/// 32-bit, seed 0x9747b28c, little-endian 4-byte blocks), so that buckets agree with Kafka's
/// default partitioner (docs/architecture.md, "Storage: bucket logs").
int32_t Murmur2(std::string_view bytes);

/// The bucket of a partition key: (Murmur2(key) & 0x7fffffff) % buckets, as Kafka's default
/// partitioner computes a partition from key bytes. `buckets` must be at least 1.
BucketId BucketOf(std::string_view key, uint32_t buckets);

/// Whether a column of this type can be a partition key: utf8, large_utf8 or an integer.
bool IsPartitionKeyType(const arrow::DataType& type);

/// Writes the partition key of row `row` of `column` to `*key`: the UTF-8 bytes of a string,
/// the decimal text of an integer ("-12", "42"). Errors: InvalidArgument for a null, an empty
/// string, a string with a zero byte or over kMaxPartitionKeyBytes; the message names
/// neither row nor field (the caller adds them).
Status PartitionKeyOf(const arrow::Array& column, int64_t row, std::string* key);

/// Whether `out` holds exactly the values of `in`, found by comparing their buffers (the
/// offsets, rebased when they start apart, and one memcmp of the data or values; no key is
/// looked at on its own): the fast path of the check that a UDF returned its input's partition
/// keys unchanged. Only for key columns of the same type (string, binary with int32 offsets, or
/// integer) and length without nulls; false otherwise, and for any difference: then
/// CheckSameKeys decides, and names the row.
bool SameKeyColumn(const arrow::Array& out, const arrow::Array& in);

/// Checks that row r of `column` holds the partition key *keys[r], for every r < keys.size()
/// (the column has at least that many rows): how the broker checks that a UDF kept each
/// record's key. The keys were checked when produced, so equal bytes suffice for a string key.
/// Errors: InvalidArgument naming the row and `field`: an invalid key (PartitionKeyOf's
/// reason), or "the module changed the partition key from 'a' to 'b'".
Status CheckSameKeys(const arrow::Array& column, std::span<const std::string* const> keys,
                     std::string_view field);

/// Checks a partition key a query names against the key column's type. For an integer key
/// column the text must be the key's canonical decimal form, as PartitionKeyOf writes it ("42",
/// "-7"; not "042", "+7" or "abc"), or no partition could ever match it. Errors: InvalidArgument
/// saying so; strings are always OK (a missing partition is the query's NotFound).
Status CheckQueryKey(const arrow::DataType& key_type, std::string_view key);

}  // namespace higgins::stream
