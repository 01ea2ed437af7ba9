#include "model/sm/global_access.h"
#include "model/sm/pending_result.h"

namespace simtlm::sm {

std::ostream& operator<<(std::ostream& os, const GlobalResponse& r) {
  return os << "global response " << r.id << (r.error.empty() ? "" : ": " + r.error);
}

std::ostream& operator<<(std::ostream& os, const PendingResult& r) {
  return os << "result of warp " << r.slot << " due at cycle " << r.at;
}

}  // namespace simtlm::sm
