#pragma once

#include <flatbuffers/flatbuffers.h>

#include "higgins/arrow/ipc/options.h"
#include "higgins/arrow/schema.h"
#include "higgins/result.h"
#include "format_generated.h"

/// Schema <-> FlatBuffers conversion shared by metadata.cc (messages and footers). Private to
/// src/arrow/ipc: only .cc files of this folder may include it, so the generated types never
/// reach the rest of the code base.
namespace higgins::arrow::ipc::internal {

/// Serialises `schema` (fields, types, nullability, custom metadata) into `fbb`. Must be called
/// while no table is under construction.
flatbuffers::Offset<fbs::Schema> BuildSchema(flatbuffers::FlatBufferBuilder& fbb,
                                             const Schema& schema);

/// Converts a verified Schema table. Errors: NotSupported naming the field and type for types
/// outside higgins/arrow/type.h (and for dictionaries, child fields, big-endian data), Corruption for
/// invalid parameters and for strings (field names, custom metadata keys and values, time zones)
/// that are not valid UTF-8, ResourceExhausted for more than limits.max_fields fields.
Result<SchemaPtr> ParseSchema(const fbs::Schema& schema, const IpcLimits& limits);

}  // namespace higgins::arrow::ipc::internal
