// The affine SIMT register file (Kim et al. Sec. 4.1): per warp, a tag per architectural register
// (generic, uniform or affine) and, for a uniform or affine register, a 32-bit base and a stride:
// lane i of the register holds base + stride * i (modulo 2^32). A generic register lives in the
// vector register file only. The file has `entries` entries per warp (affine.asrf_entries); a
// register without an entry is generic, and a new uniform or affine value needs a free entry
// (or the register's own). Plain C++, no SystemC.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simtlm::affine {

enum class Tag : uint8_t { Generic, Uniform, Affine };

struct AffineValue {
  uint32_t base = 0;
  uint32_t stride = 0;
  uint32_t lane(int i) const { return base + stride * static_cast<uint32_t>(i); }
  Tag tag() const { return stride == 0 ? Tag::Uniform : Tag::Affine; }
};

class Asrf {
 public:
  // A new kernel: `warps` warp slots with `entries` entries each, every register generic.
  void reset(int warps, int entries);
  // The warp's registers holding an entry (uniform or affine), bit r for register r.
  uint64_t held(int slot) const { return held_[static_cast<size_t>(slot)]; }
  bool holds(int slot, uint8_t r) const { return held(slot) >> r & 1u; }
  Tag tag(int slot, uint8_t r) const { return holds(slot, r) ? value_[index(slot, r)].tag() : Tag::Generic; }
  // An entry's value, read (counted).
  AffineValue read(int slot, uint8_t r) {
    reads_++;
    return value_[index(slot, r)];
  }
  // An entry's value, not counted (an access the caller already counts).
  AffineValue peek(int slot, uint8_t r) const { return value_[index(slot, r)]; }
  // Whether a value for r can be written (r holds an entry, or one is free).
  bool hasRoom(int slot, uint8_t r) const;
  // Writes r's entry (taking a free one if r held none). Requires hasRoom().
  void write(int slot, uint8_t r, AffineValue v);
  // r becomes generic: its entry returns to the free ones.
  void clear(int slot, uint8_t r);
  void clearWarp(int slot);

  uint64_t reads_ = 0, writes_ = 0, peak_ = 0;

 private:
  size_t index(int slot, uint8_t r) const { return static_cast<size_t>(slot) * 64 + r; }
  int entries_ = 64;
  std::vector<uint64_t> held_;       // by warp slot
  std::vector<AffineValue> value_;   // by slot * 64 + register
};

}  // namespace simtlm::affine
