#include "model/regfile/register_map.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "isa/instruction.h"

namespace simtlm::regfile {

std::optional<BankMapping> bankMappingByName(std::string_view name) {
  if (name == "interleaved") return BankMapping::Interleaved;
  if (name == "skewed") return BankMapping::Skewed;
  return std::nullopt;
}

std::string_view bankMappingName(BankMapping m) {
  return m == BankMapping::Interleaved ? "interleaved" : "skewed";
}

RegisterMap::RegisterMap(uint32_t physRegs, uint32_t warpSlots, uint32_t banks,
                         BankMapping mapping)
    : physRegs_(physRegs), banks_(banks), mapping_(mapping), slots_(warpSlots) {
  if (banks == 0) throw std::invalid_argument("register map: zero banks");
  if (physRegs > 0) freeList_.push_back({0, physRegs});
}

RegisterMap RegisterMap::fromConfig(const config::GpuConfig& c, BankMapping mapping) {
  return RegisterMap(static_cast<uint32_t>(c.sm.num_registers / c.gpu.warp_size),
                     static_cast<uint32_t>(c.sm.num_warps), static_cast<uint32_t>(c.regfile.banks),
                     mapping);
}

const RegisterMap::Range& RegisterMap::slot(uint32_t warp) const {
  if (warp >= slots_.size())
    throw std::out_of_range("register map: warp slot " + std::to_string(warp) + " of " +
                            std::to_string(slots_.size()));
  return slots_[warp];
}

void RegisterMap::throwOutOfRange(uint32_t warp, uint32_t r) const {
  throw std::out_of_range("register map: r" + std::to_string(r) + " of warp slot " +
                          std::to_string(warp) + " holding " +
                          std::to_string(slots_[warp].length) + " registers");
}

bool RegisterMap::place(std::vector<Range>& freeList, uint32_t count, uint32_t n,
                        std::vector<uint32_t>* bases) {
  for (uint32_t k = 0; k < count; ++k) {
    auto it = std::find_if(freeList.begin(), freeList.end(),
                           [n](const Range& f) { return f.length >= n; });
    if (it == freeList.end()) return false;
    if (bases) bases->push_back(it->base);
    it->base += n;
    it->length -= n;
    if (it->length == 0) freeList.erase(it);
  }
  return true;
}

bool RegisterMap::canAllocate(uint32_t warps, uint32_t numRegs) const {
  std::vector<Range> copy = freeList_;
  return numRegs > 0 && place(copy, warps, numRegs, nullptr);
}

bool RegisterMap::allocateBlock(const std::vector<uint32_t>& warps, uint32_t numRegs) {
  if (numRegs == 0 || numRegs > static_cast<uint32_t>(isa::kMaxRegs))
    throw std::invalid_argument("register map: " + std::to_string(numRegs) +
                                " registers per thread (allowed 1.." +
                                std::to_string(isa::kMaxRegs) + ")");
  for (size_t i = 0; i < warps.size(); ++i) {
    if (allocated(warps[i]))
      throw std::invalid_argument("register map: warp slot " + std::to_string(warps[i]) +
                                  " already holds registers");
    if (std::find(warps.begin(), warps.begin() + i, warps[i]) != warps.begin() + i)
      throw std::invalid_argument("register map: warp slot " + std::to_string(warps[i]) +
                                  " listed twice");
  }
  std::vector<Range> next = freeList_;
  std::vector<uint32_t> bases;
  if (!place(next, static_cast<uint32_t>(warps.size()), numRegs, &bases)) {
    ++failures_;
    return false;
  }
  freeList_ = std::move(next);
  for (size_t i = 0; i < warps.size(); ++i) slots_[warps[i]] = {bases[i], numRegs};
  used_ += numRegs * static_cast<uint32_t>(warps.size());
  peakUsed_ = std::max<uint64_t>(peakUsed_, used_);
  allocations_ += warps.size();
  return true;
}

void RegisterMap::free(uint32_t warp) {
  Range r = slot(warp);
  if (r.length == 0) return;
  slots_[warp] = {};
  used_ -= r.length;
  auto it = std::lower_bound(freeList_.begin(), freeList_.end(), r.base,
                             [](const Range& f, uint32_t b) { return f.base < b; });
  it = freeList_.insert(it, r);
  if (it + 1 != freeList_.end() && it->base + it->length == (it + 1)->base) {
    it->length += (it + 1)->length;
    freeList_.erase(it + 1);
  }
  if (it != freeList_.begin() && (it - 1)->base + (it - 1)->length == it->base) {
    (it - 1)->length += it->length;
    freeList_.erase(it);
  }
}

uint32_t RegisterMap::freeRegs() const { return physRegs_ - used_; }

uint32_t RegisterMap::largestFreeRange() const {
  uint32_t best = 0;
  for (const Range& f : freeList_) best = std::max(best, f.length);
  return best;
}

void RegisterMap::registerStats(stats::Group g) {
  g.add("allocations", allocations_, "events", "warp register ranges allocated");
  g.add("alloc_failures", failures_, "events",
        "block register allocations refused for lack of a contiguous range");
  g.add("peak_used", peakUsed_, "registers", "most physical vector registers allocated at once");
}

}  // namespace simtlm::regfile
