#include "isa/semantics.h"

#include <array>

namespace simtlm::isa {
namespace {

#define OP(id, name, fmt, cls, unit, expr)                                      \
  [[maybe_unused]] inline uint32_t lane_##id([[maybe_unused]] uint32_t a,        \
                                             [[maybe_unused]] uint32_t b,        \
                                             [[maybe_unused]] uint32_t c) {      \
    return static_cast<uint32_t>(expr);                                          \
  }                                                                              \
  void warp_##id(const uint32_t* a, int sa, const uint32_t* b, int sb,           \
                 const uint32_t* c, int sc, uint32_t* d, uint32_t mask, int n) { \
    if (mask == (n == 32 ? 0xFFFFFFFFu : ((1u << n) - 1)) && sa == 1 && sb <= 1 && sc <= 1) { \
      for (int l = 0; l < n; ++l) d[l] = lane_##id(a[l], b[l * sb], c[l * sc]); \
      return;                                                                    \
    }                                                                            \
    for (int l = 0; l < n; ++l)                                                  \
      if (mask >> l & 1u) d[l] = lane_##id(a[l * sa], b[l * sb], c[l * sc]);     \
  }
#include "isa/opcodes.def"
#undef OP

constexpr std::array<WarpAluFn, kNumOps> kWarpFns = {{
#define OP(id, name, fmt, cls, unit, expr) &warp_##id,
#include "isa/opcodes.def"
#undef OP
}};

}  // namespace

uint32_t evalLane(Op op, uint32_t a, uint32_t b, uint32_t c) {
  switch (op) {
#define OP(id, name, fmt, cls, unit, expr) \
  case Op::id:                             \
    return lane_##id(a, b, c);
#include "isa/opcodes.def"
#undef OP
    default:
      return 0;
  }
}

WarpAluFn warpAlu(Op op) { return kWarpFns[static_cast<size_t>(op)]; }

}  // namespace simtlm::isa
