#pragma once

namespace higgins::test {

/// The product README's quick-start configuration: stream `amount` (id: string, data: int32)
/// on memory storage.
inline constexpr char kQuickStart[] = R"([storage.memory]
type = "memory"
[schema.amount]
id = "string"
data = "int32"
[streams.amount]
schema = "amount"
partition_key = "id"
)";

/// The same stream on file storage (fsynced).
inline constexpr char kFileConfig[] = R"([storage.disk]
type = "file"
[schema.amount]
id = "string"
data = "int32"
[streams.amount]
schema = "amount"
partition_key = "id"
)";

}  // namespace higgins::test
