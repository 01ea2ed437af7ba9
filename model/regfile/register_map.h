// The per-warp base + length register mapping (docs/regfile.md): when a threadblock
// is admitted, each of its warps receives a contiguous range of physical vector registers, as
// many as the kernel's registers per thread; named register rN of warp w is base(w) + N.
// Ranges are placed first-fit in a free list that merges neighbours on release, so freed
// space is always reusable by a range that fits in it. Pure C++, no SystemC.
#pragma once

#include <cstdint>
#include <vector>

#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/regfile/types.h"

namespace simtlm::regfile {

class RegisterMap {
 public:
  // physRegs physical vector registers shared by warpSlots warp contexts, in `banks` banks.
  RegisterMap(uint32_t physRegs, uint32_t warpSlots, uint32_t banks,
              BankMapping mapping = kDefaultBankMapping);
  // sm.num_registers / gpu.warp_size registers, sm.num_warps slots, regfile.banks banks.
  static RegisterMap fromConfig(const config::GpuConfig& c,
                                BankMapping mapping = kDefaultBankMapping);

  // All or nothing: gives every listed warp slot numRegs registers, or changes nothing and
  // returns false when they do not all fit (the SM then cannot admit the block).
  // Throws std::invalid_argument for a slot out of range or already holding registers, a slot
  // listed twice, or numRegs outside 1..isa::kMaxRegs.
  bool allocateBlock(const std::vector<uint32_t>& warps, uint32_t numRegs);
  bool allocate(uint32_t warp, uint32_t numRegs) { return allocateBlock({warp}, numRegs); }
  bool canAllocate(uint32_t warps, uint32_t numRegs) const;  // would allocateBlock succeed?
  void free(uint32_t warp);  // returns the warp's range; no-op for a slot holding none

  bool allocated(uint32_t warp) const { return slot(warp).length > 0; }
  uint32_t base(uint32_t warp) const { return slot(warp).base; }
  uint32_t length(uint32_t warp) const { return slot(warp).length; }
  // Physical register of named register r of warp; throws std::out_of_range past its range.
  PhysReg phys(uint32_t warp, uint32_t r) const {
    const Range& s = slot(warp);
    if (r >= s.length) throwOutOfRange(warp, r);
    return PhysReg{s.base + r};
  }
  BankId bank(PhysReg p) const { return bankOf(p, banks_, mapping_); }
  BankId bank(uint32_t warp, uint32_t r) const { return bank(phys(warp, r)); }

  uint32_t physRegs() const { return physRegs_; }
  uint32_t banks() const { return banks_; }
  BankMapping mapping() const { return mapping_; }
  uint32_t freeRegs() const;
  uint32_t largestFreeRange() const;

  // <prefix>.allocations, .alloc_failures (warps/blocks), .peak_used (registers).
  void registerStats(stats::Group g);

 private:
  struct Range {
    uint32_t base = 0, length = 0;
  };
  const Range& slot(uint32_t warp) const;
  [[noreturn]] void throwOutOfRange(uint32_t warp, uint32_t r) const;
  // First fit of `count` ranges of n registers into a copy of the free list; false if any fails.
  static bool place(std::vector<Range>& freeList, uint32_t count, uint32_t n,
                    std::vector<uint32_t>* bases);

  uint32_t physRegs_, banks_;
  BankMapping mapping_;
  std::vector<Range> slots_;     // by warp slot; length 0 = none
  std::vector<Range> freeList_;  // sorted by base, neighbours merged
  uint32_t used_ = 0;
  stats::Counter allocations_, failures_;
  uint64_t peakUsed_ = 0;
};

}  // namespace simtlm::regfile
