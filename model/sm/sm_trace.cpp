// The units' trace messages (logger gpu.sm<N>.<unit>, level trace), out of line: the hot paths
// only test whether the logger is on.
#include "isa/disassembler.h"
#include "model/sm/sm_core.h"

namespace simtlm::sm {

void SmCore::traceIssue(int slot, const IBufferEntry& e, uint32_t exec, uint64_t cycle) const {
  issueLog_.trace("cycle {}: warp {} (block {}) issues PC {}: {} (lanes 0x{:08x})", cycle - kernelStart_, slot,
                  warps_[static_cast<size_t>(slot)].block, e.pc, isa::disassemble(e.instr, image_.kernel), exec);
}

void SmCore::traceFetch(int slot, uint32_t pc, bool hit, uint64_t cycle) const {
  fetchLog_.trace("cycle {}: warp {} fetches PC {}: I-cache {}", cycle - kernelStart_, slot, pc,
                  hit ? "hit" : "miss, waiting for the line");
}

void SmCore::traceExecute(int slot, const CollectedInstr& c, uint64_t cycle, uint64_t done) const {
  static const char* const units[] = {"SP", "SFU", "LD/ST", "CTRL"};
  executeLog_.trace("cycle {}: warp {} PC {}: {} dispatched to {} (result due at cycle {})", cycle - kernelStart_,
                    slot, c.pc, isa::disassemble(c.instr, image_.kernel),
                    units[static_cast<int>(isa::info(c.instr.op).unit)], done - kernelStart_);
}

void SmCore::traceAnswer(int slot, const char* what, const isa::Instr& in, int64_t pc, uint64_t cycle) const {
  if (pc >= 0)
    answersLog_.trace("cycle {}: warp {} PC {}: {} answered ({} memory)", cycle - kernelStart_, slot, pc,
                      isa::disassemble(in, image_.kernel), what);
  else
    answersLog_.trace("cycle {}: warp {}: {} answered ({} memory)", cycle - kernelStart_, slot,
                      isa::disassemble(in, image_.kernel), what);
}

}  // namespace simtlm::sm
