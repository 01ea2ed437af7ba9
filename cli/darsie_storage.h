// `simtlm darsie-storage`: DARSIE's storage per SM (DARSIE Sec. 6.3) for a machine configuration.
#pragma once

#include <string>
#include <vector>

namespace simtlm::cli {

// `darsie-storage [--config FILE.ini] [--set key=value]... [--pc-bits N] [--named-reg-bits N]
// [--tag-bits N] [--version-bits N] [--warps-per-tb N] [--json OUT]`. Throws on bad input.
int cmdDarsieStorage(const std::vector<std::string>& args);

}  // namespace simtlm::cli
