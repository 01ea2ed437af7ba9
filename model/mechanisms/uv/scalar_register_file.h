// UV's scalar register file (UV Sec. 3.1.2): a small per-SM file of 32-bit scalar registers, a
// freelist, and a renaming table from a warp's vector register to the scalar register that
// holds its uniform value. A register is taken from the freelist when a uniform instruction
// writes a vector register (its old scalar, if any, goes back after the instruction read it),
// and returned when a vector instruction writes that register or the warp leaves. When the
// freelist is empty no register is renamed (the structural hazard of Sec. 3.1.2 and 5.3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simtlm::uv {

class ScalarRegisterFile {
 public:
  // A new kernel: `entries` scalar registers, all free; `warps` warp slots with 64 registers.
  void reset(int entries, int warps);

  // The warp's registers that are renamed to scalar registers (bit r for register r).
  uint64_t renamed(int slot) const { return renamed_[static_cast<size_t>(slot)]; }
  // The value of the warp's renamed register r (a scalar register read).
  uint32_t read(int slot, uint8_t r) {
    reads_++;
    return values_[static_cast<size_t>(map_[index(slot, r)])];
  }
  bool hasFree() const { return !free_.empty(); }
  // Renames r to a register taken from the freelist and writes `value` there; r's previous
  // scalar register, if any, is returned to the freelist. Requires hasFree().
  void write(int slot, uint8_t r, uint32_t value, uint64_t now);
  // The mapping of r ends (a vector write): its scalar register is returned.
  void release(int slot, uint8_t r, uint64_t now);
  void releaseWarp(int slot, uint64_t now);

  // Statistics: reads, writes and releases of scalar registers, registers in use (peak, and in use x
  // cycles, integrated at every change).
  uint64_t reads_ = 0, writes_ = 0, releases_ = 0, peak_ = 0, occupancyCycles_ = 0;

 private:
  static constexpr int kRegs = 64;
  size_t index(int slot, uint8_t r) const { return static_cast<size_t>(slot) * kRegs + r; }
  void account(uint64_t now);  // integrate the occupancy up to `now`

  std::vector<uint32_t> values_;
  std::vector<uint16_t> free_;    // a stack of free scalar registers
  std::vector<int16_t> map_;      // per warp slot and register: its scalar register, or -1
  std::vector<uint64_t> renamed_;
  uint64_t inUse_ = 0, since_ = 0;
};

}  // namespace simtlm::uv
