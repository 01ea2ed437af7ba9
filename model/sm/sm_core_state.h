// The private state of SmCore (warp contexts, block slots, results in flight), shared by its
// implementation files: sm_core.cpp (admission, fetch, dispatch, write-back, barriers),
// sm_issue.cpp (the issue stage), sm_memory.cpp (memory instructions: parameters, shared memory,
// global memory) and the DARSIE hooks (sm_darsie.cpp, sm_darsie_registers.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "isa/warp.h"
#include "model/sm/sm_core.h"

namespace simtlm::sm {

// Shared-memory loads, stores and atomics (they go to the SM's mem::SharedMemory unit).
inline bool isSharedAccess(const isa::OpInfo& oi) {
  return oi.cls == isa::OpClass::LoadShared || oi.cls == isa::OpClass::StoreShared ||
         oi.cls == isa::OpClass::AtomicShared;
}

inline bool isControl(isa::Op op) { return op == isa::Op::BRA || op == isa::Op::EXIT; }

inline bool isGlobal(const isa::OpInfo& oi) {
  return oi.cls == isa::OpClass::LoadGlobal || oi.cls == isa::OpClass::StoreGlobal ||
         oi.cls == isa::OpClass::AtomicGlobal;
}

struct SmCore::Warp {
  bool active = false;  // holds a warp of a resident block
  int block = -1;
  uint32_t indexInBlock = 0;
  std::optional<isa::WarpContext> ctx;
  IBuffer ibuf;
  uint32_t fetchPc = 0;
  bool fetchInFlight = false, fetchBlocked = false;
  uint64_t fetchReadyAt = 0;  // kNotYet while an I-cache miss waits for its fill
  uint32_t fetchingPc = 0, epoch = 0, fetchEpoch = 0;
  uint32_t fetchId = 0;                        // this fetch's I-cache tag (with the slot)
  unsigned icacheWay = frontend::ICache::kNoWay;  // way of the last I-cache hit (a lookup hint)
  bool atBarrier = false, done = false;
  uint32_t barrierId = 0, barrierPc = 0;
  int pendingMem = 0;
};

struct SmCore::Block {
  bool used = false;
  uint32_t linear = 0;
  std::vector<int> warps;
  int warpsDone = 0;
  int warpsAtBarrier = 0;  // (kept by count, so that a release check need not walk the warps)
};

struct SmCore::InFlight {
  uint64_t at;
  int slot;
  isa::Instr instr;
  std::optional<regfile::PhysReg> dest;  // its register-file write (OperandStage::dest)
};

}  // namespace simtlm::sm
