// DARSIE's compiler marking (Sec. 4.2) and launch-time promotion (DESIGN.md rule 3).
//
// Every register value and instruction is classified as definitely redundant (the same vector
// in every warp of the thread block), conditionally redundant (redundant when the launched
// block shape makes the thread-index components it depends on repeat in every warp), or vector.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/cfg.h"
#include "isa/interpreter.h"
#include "isa/kernel.h"

namespace simtlm::isa {

// Thread-index components a conditionally redundant value depends on.
enum TidDep : uint8_t { kDepX = 1, kDepY = 2, kDepZ = 4 };

struct RedundancyClass {
  bool vector = false;
  uint8_t deps = 0;  // TidDep bits; meaningful when !vector
  bool isTop = false;  // dataflow only: no information yet

  Redundancy hint() const {
    return vector ? Redundancy::Vector : deps ? Redundancy::Conditional : Redundancy::Definite;
  }
  static RedundancyClass top() { return {false, 0, true}; }
  static RedundancyClass meet(RedundancyClass a, RedundancyClass b);
  bool operator==(const RedundancyClass& o) const {
    return vector == o.vector && deps == o.deps && isTop == o.isTop;
  }
};

struct DarsieOptions {
  // The paper limits conditional redundancy to threadIdx.x (Sec. 4.2); DESIGN.md rule 3 extends
  // it to tid.y and tid.z. With false, values derived from tid.y/z are vector, as in Fig. 6.
  bool conditionalTidYZ = true;
};

struct DarsieMarking {
  // Per instruction: the class of the value it writes; vector for instructions DARSIE never
  // skips (stores, atomics, branches, barriers, fences, exit).
  std::vector<RedundancyClass> instr;
  // Per instruction, for bar.sync only (empty otherwise): the class of every general register
  // before it. A warp rejoining the majority path there adopts the majority's versions of the
  // registers that are redundant (DESIGN.md rule 2).
  std::vector<std::vector<RedundancyClass>> regsAtBarrier;
};

DarsieMarking markRedundancy(const Kernel& k, const Cfg& cfg, const DarsieOptions& opt = {});

// Whether the thread-index components in `deps` repeat identically in every warp of a block
// of shape `block` with warps of `warpSize` threads.
bool depsRepeatPerWarp(uint8_t deps, const Dim3& block, uint32_t warpSize);

// Writes the static marking into the hint bits (V / CR / DR), as the compiler would.
void applyStaticHints(Kernel& k, const DarsieMarking& m);
// Launch-time promotion: CR becomes DR where the block shape makes it redundant, V otherwise.
// Works from the analysis, so that hint-free binaries are promoted too.
void promoteForLaunch(Kernel& k, const DarsieMarking& m, const Dim3& block, uint32_t warpSize);

}  // namespace simtlm::isa
