#include "model/mechanisms/darsie/launch_marking.h"

#include "isa/cfg.h"
#include "isa/darsie_analysis.h"

namespace simtlm::darsie {

namespace {

bool promoted(isa::Redundancy hint, const isa::RedundancyClass& c, const isa::Dim3& block,
              uint32_t warpSize) {
  if (hint == isa::Redundancy::Vector || c.vector) return false;
  if (hint == isa::Redundancy::Definite) return true;  // trusted, as hardware trusts the compiler
  return isa::depsRepeatPerWarp(c.deps, block, warpSize);
}

}  // namespace

LaunchMarking markForLaunch(const isa::Kernel& k, const isa::Dim3& block, uint32_t warpSize,
                            bool tidYZ) {
  isa::DarsieOptions opt;
  opt.conditionalTidYZ = tidYZ;
  const isa::Cfg cfg(k);
  const isa::DarsieMarking m = isa::markRedundancy(k, cfg, opt);
  LaunchMarking out;
  out.skippable.assign(k.size(), 0);
  out.isLoad.assign(k.size(), 0);
  out.isGlobalLoad.assign(k.size(), 0);
  out.redundantAtBarrier.assign(k.size(), 0);
  for (size_t i = 0; i < k.size(); ++i) {
    const isa::Instr& in = k.instrs[i];
    const isa::OpInfo& oi = isa::info(in.op);
    const bool load = oi.cls == isa::OpClass::LoadGlobal || oi.cls == isa::OpClass::LoadShared ||
                      oi.cls == isa::OpClass::LoadParam;
    out.isLoad[i] = load;
    out.isGlobalLoad[i] = oi.cls == isa::OpClass::LoadGlobal;
    if (isa::writesGpr(oi.format) && promoted(in.darsie, m.instr[i], block, warpSize)) {
      out.skippable[i] = 1;
      out.skippableCount++;
    }
    for (size_t r = 0; r < m.regsAtBarrier[i].size(); ++r) {
      const isa::RedundancyClass& c = m.regsAtBarrier[i][r];
      if (!c.vector && isa::depsRepeatPerWarp(c.deps, block, warpSize))
        out.redundantAtBarrier[i] |= uint64_t{1} << r;
    }
  }
  return out;
}

}  // namespace simtlm::darsie
