#include "model/mechanisms/bow/operand_window.h"

#include <algorithm>

#include "model/regfile/operands.h"

namespace simtlm::bow {

OperandWindow::Entry* OperandWindow::find(uint8_t r) {
  for (Entry& e : entries_)
    if (e.reg == r) return &e;
  return nullptr;
}

void OperandWindow::erase(uint8_t r) {
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [r](const Entry& e) { return e.reg == r; }),
                 entries_.end());
}

bool OperandWindow::makeRoom(const WindowPolicy& p, uint64_t pinned, Decision& d, WindowCounters& c) {
  if (static_cast<int>(entries_.size()) < p.capacity) return true;
  const Entry* oldest = nullptr;
  for (const Entry& e : entries_)
    if (!(pinned >> e.reg & 1u) && (!oldest || e.inserted < oldest->inserted)) oldest = &e;
  if (!oldest) return false;
  const uint64_t bit = uint64_t{1} << oldest->reg;
  c.evictions++;
  if (oldest->dirty) {  // a value whose chain has not ended (or a transient one) is never lost
    d.evictWb |= bit;
    c.earlyWritebacks++;
  }
  d.evict |= bit;
  erase(oldest->reg);
  return true;
}

Decision OperandWindow::admit(const isa::Instr& in, bool partial, isa::BowHint hint, const WindowPolicy& p,
                              WindowCounters& c) {
  Decision d;
  const uint64_t s = seq_++;
  // The window slides: entries no instruction of the last IW - 1 accessed leave.
  if (p.window > 0)
    for (size_t i = 0; i < entries_.size();) {
      const Entry& e = entries_[i];
      if (e.lastUse + static_cast<uint64_t>(p.window) > s) {
        ++i;
        continue;
      }
      const uint64_t bit = uint64_t{1} << e.reg;
      d.evict |= bit;
      if (e.dirty && !e.transient) {
        d.evictWb |= bit;
        c.writebacks++;
      } else if (e.dirty) {
        c.transientDropped++;  // the compiler says no one reads it again
      }
      entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(i));
    }

  const uint64_t sources = regfile::sourceGprs(in);
  const std::optional<uint8_t> dest = regfile::destGpr(in);
  const uint64_t pinned = sources | (dest ? uint64_t{1} << *dest : 0);
  for (uint64_t bits = sources; bits != 0; bits &= bits - 1) {
    const auto r = static_cast<uint8_t>(__builtin_ctzll(bits));
    if (Entry* e = find(r)) {
      e->lastUse = s;
      d.bypass |= uint64_t{1} << r;
      c.bypassed++;
      continue;
    }
    c.bankReads++;
    if (!p.fillOnRead || !makeRoom(p, pinned, d, c)) continue;
    entries_.push_back({r, false, false, s, inserted_++});
    d.fill |= uint64_t{1} << r;
    c.fills++;
  }

  if (dest) {
    const uint8_t r = *dest;
    const bool memory = regfile::accessesMemory(in.op);
    // Where the result goes: the banks only, the buffer only (dirty), or both (clean).
    bool toBuffer = true, dirty = p.writeBack, transient = false;
    if (memory) {
      toBuffer = p.loadsKept;
      dirty = false;  // a memory result is written through: it arrives after the instruction left
    } else if (p.writeBack && p.hints) {
      if (hint == isa::BowHint::RegisterFile) toBuffer = false;
      transient = hint == isa::BowHint::Bypass;
    }
    Entry* e = find(r);
    const bool oldDirty = e && e->dirty;
    if (!toBuffer || memory) {
      // The result goes to the banks (a memory result, also to the entry when it arrives): an
      // older dirty value is overwritten, unless the write leaves lanes of it (then it is
      // written back first, and the banks merge).
      if (e) {
        if (oldDirty && partial) {
          d.evictWb |= uint64_t{1} << r;
          c.earlyWritebacks++;
        } else if (oldDirty) {
          c.consolidated++;
        }
        if (memory && toBuffer) {
          e->dirty = e->transient = false;
          e->lastUse = s;
        } else {
          d.destDrop = r;
          erase(r);
        }
      } else if (memory && toBuffer && makeRoom(p, pinned, d, c)) {
        entries_.push_back({r, false, false, s, inserted_++});
      }
      if (memory && toBuffer && find(r)) {
        d.dest = r;
        d.destLoad = true;
      }
      c.bankResults++;
    } else if (e || makeRoom(p, pinned, d, c)) {
      if (!e) {
        entries_.push_back({r, false, false, s, inserted_++});
        e = &entries_.back();
      }
      if (oldDirty && !partial) c.consolidated++;  // the older value's write is bypassed
      // A partial write merges into a dirty older value: the merged value is needed in full.
      e->transient = transient && !(oldDirty && partial);
      e->dirty = dirty || (oldDirty && partial);
      e->lastUse = s;
      d.dest = r;
      d.destDirty = e->dirty;
      c.keptResults++;
      if (e->dirty) c.heldResults++;
      else c.bankResults++;
    } else {
      c.bankResults++;  // no room (a buffer smaller than one instruction's registers)
    }
  }
  const uint64_t n = entries_.size();
  c.occupancySum += n;
  c.occupancySamples++;
  c.occupancyMax = std::max(c.occupancyMax, n);
  return d;
}

uint64_t OperandWindow::flush(WindowCounters& c) {
  uint64_t wb = 0;
  for (const Entry& e : entries_)
    if (e.dirty) {
      wb |= uint64_t{1} << e.reg;
      c.earlyWritebacks++;
    }
  entries_.clear();
  seq_ = inserted_ = 0;
  return wb;
}

void OperandWindow::drop(uint8_t r, WindowCounters& c) {
  if (!find(r)) return;
  erase(r);
  c.remapDrops++;
}

}  // namespace simtlm::bow
