// The mask of a warp's lanes 0 .. lanes-1 (all 32 bits for a 32-lane warp).
#pragma once

#include <cstdint>

namespace simtlm::isa {

constexpr uint32_t fullLaneMask(int lanes) { return lanes >= 32 ? ~0u : (1u << lanes) - 1; }

}  // namespace simtlm::isa
