// StorageDecl and the option tables of storage_options.h.
#include <array>

#include "config/config_internal.h"
#include "config/storage_options.h"

namespace higgins::config {

std::string_view StorageKindName(StorageKind kind) {
  switch (kind) {
    case StorageKind::kMemory: return "memory";
    case StorageKind::kFile: return "file";
    case StorageKind::kS3: return "s3";
  }
  return "unknown";
}

bool StorageDecl::syncs() const {
  if (const FileStorageSettings* settings = file()) return settings->fsync.value_or(true);
  return kind() == StorageKind::kS3;
}

namespace internal {
namespace {

/// Where an option lives in its kind's settings struct.
template <typename Settings>
using Member = std::variant<std::optional<std::string> Settings::*, std::optional<bool> Settings::*,
                            std::optional<uint64_t> Settings::*,
                            std::optional<std::chrono::milliseconds> Settings::*>;

template <typename Settings>
struct Field {
  StorageOption option;
  Member<Settings> member;
};

using File = FileStorageSettings;
using S3 = S3StorageSettings;
constexpr auto kMaxAgeMs = static_cast<uint64_t>(kMaxSegmentMaxAge.count());

const std::array<Field<File>, 2> kFileFields = {{
    {{"segment_bytes", OptionKind::kInteger, kMinSegmentBytes, kMaxSegmentBytes},
     &File::segment_bytes},
    {{"fsync", OptionKind::kBool}, &File::fsync},
}};

const std::array<Field<S3>, 13> kS3Fields = {{
    {{"aws_access_key_id", OptionKind::kString, 0, 0, true}, &S3::aws_access_key_id},
    {{"aws_secret_access_key", OptionKind::kString, 0, 0, true}, &S3::aws_secret_access_key},
    {{"aws_region", OptionKind::kString}, &S3::aws_region},
    {{"aws_endpoint", OptionKind::kString}, &S3::aws_endpoint},
    {{"bucket", OptionKind::kString}, &S3::bucket},
    {{"prefix", OptionKind::kString}, &S3::prefix},
    {{"path_style", OptionKind::kBool}, &S3::path_style},
    {{"segment_bytes", OptionKind::kInteger, kMinSegmentBytes, kMaxSegmentBytes},
     &S3::segment_bytes},
    {{"segment_max_age_ms", OptionKind::kInteger, 1, kMaxAgeMs}, &S3::segment_max_age},
    {{"local_limit_bytes", OptionKind::kInteger, 1, kNoMax}, &S3::local_limit_bytes},
    {{"ack_after_upload", OptionKind::kBool}, &S3::ack_after_upload},
    {{"read_cache_bytes", OptionKind::kInteger, 0, kNoMax}, &S3::read_cache_bytes},
    {{"multipart_threshold_bytes", OptionKind::kInteger, kMinMultipartThresholdBytes,
      kMaxMultipartThresholdBytes},
     &S3::multipart_threshold_bytes},
}};

template <typename Settings, size_t N>
std::vector<StorageOption> OptionsOf(const std::array<Field<Settings>, N>& fields) {
  std::vector<StorageOption> options;
  options.reserve(N);
  for (const Field<Settings>& field : fields) options.push_back(field.option);
  return options;
}

/// The fields of a settings struct (none for memory).
std::span<const Field<File>> FieldsOf(const File*) {
  return kFileFields;
}
std::span<const Field<S3>> FieldsOf(const S3*) {
  return kS3Fields;
}
std::span<const Field<MemoryStorageSettings>> FieldsOf(const MemoryStorageSettings*) {
  return {};
}

template <typename Settings>
void Set(const Field<Settings>& field, OptionValue value, Settings* settings) {
  std::visit(
      [&](auto member) {
        using Value = typename std::remove_reference_t<decltype(settings->*member)>::value_type;
        if constexpr (std::is_same_v<Value, std::chrono::milliseconds>) {
          settings->*member = std::chrono::milliseconds(std::get<uint64_t>(value));
        } else {
          settings->*member = std::get<Value>(std::move(value));
        }
      },
      field.member);
}

/// Appends the field's value to `set` when it is set.
template <typename Settings>
void AppendIfSet(const Field<Settings>& field, const StorageOption* option,
                 const Settings& settings,
                 std::vector<std::pair<const StorageOption*, OptionValue>>* set) {
  std::visit(
      [&](auto member) {
        const auto& value = settings.*member;
        if (!value) return;
        using Value = typename std::remove_cvref_t<decltype(value)>::value_type;
        if constexpr (std::is_same_v<Value, std::chrono::milliseconds>) {
          set->emplace_back(option, OptionValue(std::in_place_type<uint64_t>,
                                                static_cast<uint64_t>(value->count())));
        } else {
          set->emplace_back(option, OptionValue(std::in_place_type<Value>, *value));
        }
      },
      field.member);
}

}  // namespace

std::optional<StorageKind> ParseStorageKind(std::string_view type) {
  for (StorageKind kind : {StorageKind::kMemory, StorageKind::kFile, StorageKind::kS3}) {
    if (StorageKindName(kind) == type) return kind;
  }
  return std::nullopt;
}

std::span<const StorageOption> StorageOptions(StorageKind kind) {
  static const std::vector<StorageOption> file = OptionsOf(kFileFields);
  static const std::vector<StorageOption> s3 = OptionsOf(kS3Fields);
  switch (kind) {
    case StorageKind::kMemory: return {};
    case StorageKind::kFile: return file;
    case StorageKind::kS3: return s3;
  }
  return {};
}

const StorageOption* FindStorageOption(StorageKind kind, std::string_view key) {
  for (const StorageOption& option : StorageOptions(kind)) {
    if (option.key == key) return &option;
  }
  return nullptr;
}

StorageDecl EmptyStorageDecl(std::string name, StorageKind kind) {
  StorageDecl decl{std::move(name), MemoryStorageSettings{}};
  if (kind == StorageKind::kFile) decl.settings = FileStorageSettings{};
  if (kind == StorageKind::kS3) decl.settings = S3StorageSettings{};
  return decl;
}

void SetStorageOption(const StorageOption& option, OptionValue value, StorageDecl* decl) {
  std::visit(
      [&](auto& settings) {
        for (const auto& field : FieldsOf(&settings)) {
          if (field.option.key == option.key) {
            Set(field, std::move(value), &settings);
            return;  // keys are unique: `value` is used once
          }
        }
      },
      decl->settings);
}

std::vector<std::pair<const StorageOption*, OptionValue>> SetStorageOptions(
    const StorageDecl& decl) {
  std::vector<std::pair<const StorageOption*, OptionValue>> set;
  std::visit(
      [&](const auto& settings) {
        for (const auto& field : FieldsOf(&settings)) {
          AppendIfSet(field, FindStorageOption(decl.kind(), field.option.key), settings, &set);
        }
      },
      decl.settings);
  return set;
}

bool IntegerInRange(const StorageOption& option, int64_t value) {
  return value >= 0 && static_cast<uint64_t>(value) >= option.min &&
         static_cast<uint64_t>(value) <= option.max;
}

std::string IntegerRule(const StorageOption& option) {
  if (option.max == kNoMax) return "an integer of at least " + std::to_string(option.min);
  return "an integer from " + std::to_string(option.min) + " to " + std::to_string(option.max);
}

std::string StorageProblem(const StorageDecl& decl) {
  for (const auto& [option, value] : SetStorageOptions(decl)) {
    const uint64_t* number = std::get_if<uint64_t>(&value);
    if (number != nullptr && (*number < option->min || *number > option->max)) {
      return "'" + std::string(option->key) + "' must be " + IntegerRule(*option) + " (got " +
             std::to_string(*number) + ")";
    }
  }
  return "";
}

std::string OptionValueToToml(const OptionValue& value) {
  if (const std::string* text = std::get_if<std::string>(&value)) return TomlString(*text);
  if (const bool* flag = std::get_if<bool>(&value)) return *flag ? "true" : "false";
  return std::to_string(std::get<uint64_t>(value));
}

}  // namespace internal
}  // namespace higgins::config
