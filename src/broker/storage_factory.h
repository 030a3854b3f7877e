#pragma once

#include <memory>
#include <string>

#include "config/configuration.h"
#include "higgins/result.h"
#include "storage/storage.h"

namespace higgins {

/// Opens the backend of one `[storage.<name>]` declaration (docs/configuration.md, "Storage"):
/// memory, file (under `<dir>/storage/<name>`) or s3 (local log under the same folder, objects
/// in the declared bucket). s3 credentials come from `aws_access_key_id` and
/// `aws_secret_access_key`, else from the broker's AWS_ACCESS_KEY_ID and
/// AWS_SECRET_ACCESS_KEY environment variables. Errors: InvalidArgument naming the storage (no
/// bucket, no credentials), IOError.
Result<std::unique_ptr<storage::Storage>> OpenStorage(const std::string& name,
                                                      const config::StorageDecl& decl,
                                                      const std::string& dir);

}  // namespace higgins
