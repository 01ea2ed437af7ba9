#include "model/sm/cpi_stack.h"

namespace simtlm::sm {

const CpiCategoryInfo& cpiInfo(CpiCategory c) {
  static const CpiCategoryInfo table[kCpiCategories] = {
      {"issued", "scheduler cycles that issued at least one warp instruction"},
      {"dep_alu", "nothing issued: the oldest warp waited for a result of the SP or control units"},
      {"dep_sfu", "nothing issued: the oldest warp waited for a result of the SFUs"},
      {"dep_shared", "nothing issued: the oldest warp waited for a shared-memory load or atomic"},
      {"dep_global",
       "nothing issued: the oldest warp waited for a global, local, constant or parameter load or "
       "atomic, or for its memory instructions before bar.sync/membar"},
      {"barrier", "nothing issued: the oldest warp waited at bar.sync"},
      {"fetch",
       "nothing issued: the oldest warp's I-buffer was empty (fetch, I-cache, redirect), or the "
       "front end's clock did not tick (frontend.clock_divider)"},
      {"operands",
       "nothing issued: no free operand collector, none of them waiting for an execution unit "
       "(register bank reads)"},
      {"unit_busy",
       "nothing issued: no free operand collector while collected instructions waited for their "
       "execution unit, or the memory port was full"},
      {"mechanism",
       "nothing issued: the oldest warp waited for the mechanism (it held the warp's issue or "
       "fetch, a skip taking effect, or a register it holds)"},
      {"idle", "no live warp in the scheduler's partition, or no resident block"},
  };
  return table[static_cast<int>(c)];
}

CpiCategory dependenceCategory(isa::Op op) {
  const isa::OpInfo& i = isa::info(op);
  switch (i.unit) {
    case isa::Unit::Sfu: return CpiCategory::DepSfu;
    case isa::Unit::LdSt:
      return i.cls == isa::OpClass::LoadShared || i.cls == isa::OpClass::AtomicShared ? CpiCategory::DepShared
                                                                                       : CpiCategory::DepGlobal;
    default: return CpiCategory::DepAlu;
  }
}

}  // namespace simtlm::sm
