#pragma once

#include <string>
#include <string_view>

#include "higgins/arrow/type.h"
#include "higgins/result.h"

namespace higgins::testing {

/// Canonical type tags of the interop tests (docs/conformance.md), shared with
/// tools/interop/lib/types.mjs: int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16
/// float32 float64 bool utf8 large_utf8 binary large_binary fixed_size_binary(N) date32 date64
/// decimal128(P,S) timestamp(U) timestamp(U,TZ) time32(U) time64(U) duration(U) null, where U is
/// s, ms, us or ns. No spaces anywhere.
std::string CanonicalTypeName(const arrow::DataType& type);

/// The inverse of CanonicalTypeName. Errors: InvalidArgument quoting the tag.
Result<arrow::DataType> ParseCanonicalTypeName(std::string_view tag);

}  // namespace higgins::testing
