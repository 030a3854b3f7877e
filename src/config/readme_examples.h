#pragma once

// Test-only: the configuration examples of the product README
// (shared/reference/higgins-readme.txt), as written there, for configuration_test.cc and
// topography_test.cc.

#include <string_view>

namespace higgins::config::testing {

inline constexpr std::string_view kQuickStart = R"toml([storage.memory]
type = "memory"
[schema.amount]
id = "string"
data = "int32"
[streams.amount]
schema = "amount"
partition_key = "id"
)toml";

inline constexpr std::string_view kMapExample = R"toml([storage.memory]
type = "memory"

[schema.amount]
id = "string"
data = "int32"

[streams.amount]
schema = "amount"
partition_key = "id"

[streams.result]
base = "amount"
type = "map"
partition_key = "id"
schema = "amount"
fn = "double" # name of the UDF, should be uploaded before this configuration is uploaded.
)toml";

/// The README shows only the derived block; the quick start declares what it refers to.
inline constexpr std::string_view kReduceExample = R"toml([streams.result]
base = "amount"
type = "reduce"
partition_key = "id"
schema = "amount"
fn = "sum" # UDF to be used.
)toml";

/// No storage block in the README: the storage comes from an earlier upload.
inline constexpr std::string_view kJoinExample = R"toml([schema.customer]
id = "string"
first_name = "string"
last_name = "string"
age = "int32"

[schema.address]
customer_id = "string"
address_line_1 = "string"
city = "string"
province = "string"

[schema.customer_address]
customer_id = "string"
customer_first_name = "string"
age = "int32"
address_line_1 = "string"
city = "string"

[streams.customer]
schema = "customer"
partition_key = "id"

[streams.address]
schema = "address"
partition_key = "customer_id"

[streams.customer_address]
type = "join"
schema = "customer_address"
partition_key = "customer_id"
base = "customer"
join = ["address"]
# How the derivative stream is constructed.
map = {
customer_id = "customer.id",
customer_first_name = "customer.first_name",
age = "customer.age",
address_line_1 = "address.address_line_1",
city = "address.city",
}
)toml";

/// Also without a storage block in the README.
inline constexpr std::string_view kWindowExample = R"toml([schema.value]
id = "string"
some_data = "string"
other_data = "string"
i = "int32"

[streams.value]
schema = "value"
partition_key = "id"

[streams.value_windowed]
base = "value"
type = "window"
partition_key = "id"
schema = "value"
window = { type = "count", interval = "5" } # grouped into 5 records each
)toml";

}  // namespace higgins::config::testing
