// Helpers shared by its implementation
// files: sm_core.cpp (admission, fetch, dispatch, write-back, barriers), sm_issue.cpp (the issue
// stage) and sm_memory.cpp (memory instructions: parameters, shared memory, global memory). The
// warp and block slots a mechanism also sees are in sm_state.h.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "isa/warp.h"
#include "model/sm/sm_core.h"
#include "model/sm/sm_state.h"

namespace simtlm::sm {

// Shared-memory loads, stores and atomics (they go to the SM's mem::SharedMemory unit).
inline bool isSharedAccess(const isa::OpInfo& oi) {
  return oi.cls == isa::OpClass::LoadShared || oi.cls == isa::OpClass::StoreShared ||
         oi.cls == isa::OpClass::AtomicShared;
}

constexpr uint64_t kNotYet = ~uint64_t{0};  // WarpSlot::fetchReadyAt of a fetch waiting for its line fill

inline bool isControl(isa::Op op) { return op == isa::Op::BRA || op == isa::Op::EXIT; }

inline bool isGlobal(const isa::OpInfo& oi) {
  return oi.cls == isa::OpClass::LoadGlobal || oi.cls == isa::OpClass::StoreGlobal ||
         oi.cls == isa::OpClass::AtomicGlobal;
}

}  // namespace simtlm::sm
