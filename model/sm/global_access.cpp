#include "model/sm/global_access.h"

namespace simtlm::sm {

std::ostream& operator<<(std::ostream& os, const GlobalResponse& r) {
  return os << "global response " << r.id << (r.error.empty() ? "" : ": " + r.error);
}

}  // namespace simtlm::sm
