#pragma once

#include <flatbuffers/flatbuffers.h>

#include <span>

#include "arrow/ipc/metadata.h"
#include "format_generated.h"
#include "higgins/arrow/ipc/options.h"
#include "higgins/arrow/schema.h"
#include "higgins/result.h"

/// Schema <-> FlatBuffers conversion shared by metadata.cc (messages and footers). Private to
/// src/arrow/ipc: only .cc files of this folder may include it, so the generated types never
/// reach the rest of the code base.
namespace higgins::arrow::ipc::internal {

/// Serialises `schema` (fields, types, nullability, custom metadata) into `fbb`. Must be called
/// while no table is under construction.
/// The fields listed in `dictionary_fields` are written dictionary-encoded.
flatbuffers::Offset<fbs::Schema> BuildSchema(
    flatbuffers::FlatBufferBuilder& fbb, const Schema& schema,
    std::span<const DictionaryField> dictionary_fields = {});

/// Converts a verified Schema table. A dictionary-encoded field gets its value type in the schema
/// and an entry in `*dictionary_fields` (cleared first) with its id and index type. Errors:
/// NotSupported naming the field and type for types outside higgins/arrow/type.h (dictionary
/// values included, hence nested dictionaries too), child fields and big-endian data; Corruption
/// for invalid parameters (an index type that is not an Int of 8/16/32/64 bits, fields sharing a
/// dictionary id with different value types) and for strings (field names, custom metadata keys
/// and values, time zones) that are not valid UTF-8; ResourceExhausted for more than
/// limits.max_fields fields.
Result<SchemaPtr> ParseSchema(const fbs::Schema& schema, const IpcLimits& limits,
                              std::vector<DictionaryField>* dictionary_fields);

}  // namespace higgins::arrow::ipc::internal
