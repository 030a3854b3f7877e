#include "udf/module_info.h"

#include <string>

namespace higgins::udf {

std::string_view RunKindName(RunKind kind) {
  switch (kind) {
    case RunKind::kMap: return "map";
    case RunKind::kReduce: return "reduce";
  }
  return "unknown";
}

size_t RunArity(RunKind kind) { return kind == RunKind::kMap ? 1 : 2; }

Status CheckInputCount(const ModuleInfo& info, size_t inputs) {
  const size_t arity = RunArity(info.run_kind);
  if (inputs == arity) return Status::OK();
  return Status::InvalidArgument("the module's 'run' is a " +
                                 std::string(RunKindName(info.run_kind)) + " and takes " +
                                 std::to_string(arity) + " input(s); " + std::to_string(inputs) +
                                 " given");
}

}  // namespace higgins::udf
