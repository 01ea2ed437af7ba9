// The generator's single instructions: random ALU and predicate operations over the whole
// opcode table, global loads and stores, and atomics placed so that the final memory does not
// depend on the order in which lanes and warps perform them.
#include <string>

#include "isa/opcode.h"
#include "tests/random/gen_internal.h"

namespace simtlm::test::gen {
namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// An immediate written the way the opcode's source type reads it (ISA.md 4.2).
std::string immediate(Rng& rng, std::string_view name) {
  if (endsWith(name, ".f32")) {
    static const std::vector<std::string> fs = {"1.5", "-0.25", "2", "0x3f800000", "inf", "-inf",
                                                "nan", "1e3", "0.001", "-7", "0", "-0", "3.14159",
                                                "0x00000001", "65504.5", "0.5"};
    return rng.pick(fs);
  }
  if (name.find("sh") == 0) return std::to_string(rng.range(0, 40));  // shl / shr: past 31 too
  switch (rng.below(5)) {
    case 0: return std::to_string(rng.range(-8, 8));
    case 1: return std::to_string(rng.range(0, 100000));
    case 2: return "0x" + [&] { char b[16]; std::snprintf(b, sizeof b, "%x", rng.word()); return std::string(b); }();
    case 3: return rng.chance(50) ? "-2147483648" : "4294967295";
    default: return std::to_string(rng.range(-1000, 1000));
  }
}

const std::vector<std::string>& specials() {
  static const std::vector<std::string> s = {
      "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z", "%ctaid.x", "%ctaid.y",
      "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z", "%laneid", "%warpid"};
  return s;
}

std::string guardOf(Rng& rng, int percent) {
  if (!rng.chance(percent)) return "";
  return std::string(rng.chance(50) ? "@p" : "@!p") + std::to_string(rng.below(6)) + " ";
}

std::string predSource(Rng& rng) { return rng.chance(15) ? "pt" : "p" + std::to_string(rng.below(6)); }

}  // namespace

std::string Gen::source(const Ctx& c) {
  const uint32_t k = rng.below(10);
  if (k == 0) return r(rng.chance(50) ? kTid : kGid);
  if (k == 1) return r(rng.chance(50) ? kLane : kWarp);
  if (k == 2 && c.loopDepth > 0) return r(kCounter + static_cast<int>(rng.below(c.loopDepth)));
  return work();
}

void Gen::randomAlu(const Ctx& c) {
  std::vector<isa::Op> ops;
  for (const auto& info : isa::kOpTable) {
    switch (info.format) {
      case isa::Format::Unary: case isa::Format::Binary: case isa::Format::Ternary:
      case isa::Format::Select: case isa::Format::Special: case isa::Format::Compare:
      case isa::Format::PredBinary: case isa::Format::PredUnary:
        ops.push_back(info.op);
        break;
      default:
        break;
    }
  }
  const uint32_t extra = rng.below(40);
  if (extra == 0) return ins(guardOf(rng, 20) + "nop");
  if (extra == 1) return ins("membar");
  if (extra == 2) return ins("ld.param.b32 " + work() + ", [" + (rng.chance(50) ? "SEED]" : "TRIP]"));
  const isa::OpInfo& info = isa::info(ops[rng.below(static_cast<uint32_t>(ops.size()))]);
  const std::string name(info.name);
  auto last = [&] { return rng.chance(35) ? immediate(rng, name) : source(c); };
  std::string text = guardOf(rng, 20) + name + " ";
  switch (info.format) {
    case isa::Format::Unary: text += work() + ", " + last(); break;
    case isa::Format::Binary: text += work() + ", " + source(c) + ", " + last(); break;
    case isa::Format::Ternary: text += work() + ", " + source(c) + ", " + source(c) + ", " + source(c); break;
    case isa::Format::Select: text += work() + ", " + source(c) + ", " + source(c) + ", " + predSource(rng); break;
    case isa::Format::Special: text += work() + ", " + rng.pick(specials()); break;
    case isa::Format::Compare: text += p(static_cast<int>(rng.below(6))) + ", " + source(c) + ", " + last(); break;
    case isa::Format::PredBinary:
      text += p(static_cast<int>(rng.below(6))) + ", " + predSource(rng) + ", " + predSource(rng);
      break;
    default: text += p(static_cast<int>(rng.below(6))) + ", " + predSource(rng); break;  // PredUnary
  }
  ins(text);
}

// The opcode of a load from IN. No kernel stores to IN or performs atomics on it, so it may be
// read through the read-only path (ld.global.nc: always the L1) or the constant cache
// (ld.const), as a CUDA kernel reads its inputs with __ldg or from __constant__ memory
// (ISA.md 8.2); neither cache is coherent, which only a write to IN could show.
std::string Gen::inLoad(int plainPercent) {
  if (rng.chance(plainPercent)) return "ld.global.b32";
  return rng.chance(50) ? "ld.global.nc.b32" : "ld.const.b32";
}

// A load from IN at an index masked into the buffer: coalesced (by thread), uniform (the same
// word for the block, a TB-redundant load, or for the whole grid, the constant cache's case),
// scattered (by lane, uncoalesced) or data-dependent; plain, read-only or constant.
void Gen::globalLoad(const Ctx& c) {
  const std::string a = r(kTmpA);
  switch (rng.below(5)) {
    case 0: ins("add.u32 " + a + ", " + r(kGid) + ", " + std::to_string(rng.range(0, 64))); break;
    case 1: ins("s2r " + a + ", %ctaid.x"); break;
    case 2: ins("mul.lo.u32 " + a + ", " + r(kLane) + ", " + std::to_string(rng.range(33, 200))); break;
    case 3: ins("mov.b32 " + a + ", " + std::to_string(rng.below(kInWords))); break;
    default: ins("mov.b32 " + a + ", " + source(c)); break;
  }
  const bool withOffset = rng.chance(30);
  ins("and.b32 " + a + ", " + a + ", " + std::to_string(withOffset ? kInWords / 2 - 1 : kInWords - 1));
  ins("shl.b32 " + a + ", " + a + ", 2");
  ins("add.u32 " + a + ", " + a + ", " + r(kInBase));
  const std::string off = withOffset ? "+" + std::to_string(4 * rng.range(0, kInWords / 2 - 1)) : "";
  ins(guardOf(rng, 15) + inLoad(50) + " " + work() + ", [" + a + off + "]");
}

// A store into this thread's own output slots (overwritten by the final dump, but a store
// the skip table must see).
void Gen::globalStore() {
  ins(guardOf(rng, 20) + "st.global.b32 [" + r(kOutPtr) + "+" +
      std::to_string(4 * rng.below(static_cast<uint32_t>(work_.size()))) + "], " + work());
}

// A local load or store (every kernel declares .local 64: 16 words per thread) at an absolute
// word, a block-uniform offset, or an offset that differs by thread, warp or data: the DARSIE
// marking must carry redundancy through the words only where it holds.
void Gen::localAccess() {
  const std::string a = r(kTmpA);
  std::string addr;
  switch (rng.below(4)) {
    case 0: addr = "[" + std::to_string(4 * rng.below(16)) + "]"; break;
    case 1:
      ins("mov.b32 " + a + ", " + std::to_string(4 * rng.below(16)));
      addr = "[" + a + "]";
      break;
    default: {
      const std::string from = rng.pick(std::vector<std::string>{r(kTid), r(kWarp), r(kLane), work()});
      ins("and.b32 " + a + ", " + from + ", 15");
      ins("shl.b32 " + a + ", " + a + ", 2");
      addr = "[" + a + "]";
      break;
    }
  }
  if (rng.chance(50)) ins(guardOf(rng, 20) + "st.local.b32 " + addr + ", " + work());
  else ins(guardOf(rng, 15) + "ld.local.b32 " + work() + ", " + addr);
}

namespace {
const char* const kKinds[8] = {"add.u32", "add.f32", "min.s32", "min.u32", "max.s32", "max.u32", "exch.b32", "cas.b32"};
}

// An atomic on a word only this thread touches: any operation, and its old value is used.
void Gen::privateAtomic(bool shared) {
  const int kind = static_cast<int>(rng.below(8));
  std::string addr;
  if (shared) {
    ins("shl.b32 " + r(kTmpA) + ", " + r(kTid) + ", 2");
    addr = "[" + r(kTmpA) + "+" + std::to_string(4 * 2 * sharedWords_) + "]";
  } else {
    addr = "[" + r(kOutPtr) + "+" + std::to_string(4 * (work_.size() + rng.below(2))) + "]";
  }
  std::string text = guardOf(rng, 15) + "atom." + (shared ? "shared." : "global.") + kKinds[kind] + " " +
                     work() + ", " + addr + ", " + work();
  if (kind == 7) text += ", " + work();
  ins(text);
}

// An atomic on a word many threads touch. Commutative operations only, or exch / cas of one
// constant per instruction (the final word is the same whatever the order); the old value goes
// to a register nobody reads, since it depends on the order. add.f32 adds small integers, which
// floats add exactly.
void Gen::contendedAtomic(bool shared) {
  int kind = static_cast<int>(rng.below(8));
  if (kind >= 6 && !shared && atomSites_ >= static_cast<int>(kAtomWords) - kAtomSiteFirst) kind = 0;
  std::string value = work();
  if (kind == 1) {
    ins("and.b32 " + r(kTmpB) + ", " + work() + ", 15");
    ins("cvt.f32.u32 " + r(kTmpB) + ", " + r(kTmpB));
    value = r(kTmpB);
  } else if (kind >= 6) {
    ins("mov.b32 " + r(kTmpB) + ", " + std::to_string(rng.range(-5, 5)));
    value = r(kTmpB);
  }
  std::string addr;
  if (shared) {
    ins("mov.b32 " + r(kTmpA) + ", " + std::to_string(4 * 3 * sharedWords_));
    addr = "[" + r(kTmpA) + "+" + std::to_string(4 * (kScSink + kind)) + "]";
  } else if (kind < 6) {
    ins("and.b32 " + r(kTmpA) + ", " + source(Ctx{}) + ", 3");
    ins("shl.b32 " + r(kTmpA) + ", " + r(kTmpA) + ", 2");
    ins("add.u32 " + r(kTmpA) + ", " + r(kTmpA) + ", " + r(kAtomBase));
    addr = "[" + r(kTmpA) + "+" + std::to_string(16 * kind) + "]";
  } else {
    addr = "[" + r(kAtomBase) + "+" + std::to_string(4 * (kAtomSiteFirst + atomSites_++)) + "]";
  }
  std::string text = guardOf(rng, 15) + "atom." + (shared ? "shared." : "global.") + kKinds[kind] + " " +
                     r(kSink) + ", " + addr + ", " + value;
  if (kind == 7) {
    // The words start at small values, so that some compares succeed.
    ins("mov.b32 " + r(kSink) + ", " + std::to_string(rng.range(-5, 5)));
    text = guardOf(rng, 15) + "atom." + std::string(shared ? "shared." : "global.") + "cas.b32 " + r(kSink) +
           ", " + addr + ", " + r(kSink) + ", " + value;
  }
  ins(text);
}

void Gen::setPredicate(Cond kind, int pred, const Ctx& c) {
  const std::string a = r(kTmpA), pp = p(pred);
  static const std::vector<std::string> ucmp = {"lt.u32", "le.u32", "eq.b32", "ne.b32", "ge.u32", "gt.u32"};
  switch (kind) {
    case Cond::Tid: {
      if (rng.chance(30)) {  // a threshold: whole warps on either side, one warp split
        ins("setp.lt.u32 " + pp + ", " + r(kTid) + ", " + std::to_string(rng.range(0, static_cast<int>(threads_))));
        break;
      }
      const int mask = rng.pick(std::vector<int>{1, 3, 7, 15, 31, 63});
      ins("and.b32 " + a + ", " + r(rng.chance(60) ? kTid : kLane) + ", " + std::to_string(mask));
      ins("setp." + rng.pick(ucmp) + " " + pp + ", " + a + ", " + std::to_string(rng.range(0, mask)));
      break;
    }
    case Cond::Data: {
      static const std::vector<std::string> any = {"lt.s32", "gt.u32", "ne.b32", "le.f32", "gt.f32", "ge.s32"};
      if (rng.chance(50)) {
        ins("setp." + rng.pick(any) + " " + pp + ", " + work() + ", " + source(c));
      } else {
        ins("and.b32 " + a + ", " + work() + ", 7");
        ins("setp." + rng.pick(ucmp) + " " + pp + ", " + a + ", " + std::to_string(rng.range(0, 7)));
      }
      break;
    }
    case Cond::WarpUniform:
      if (warps_ > 1 && rng.chance(50)) {
        ins("setp.lt.u32 " + pp + ", " + r(kWarp) + ", " + std::to_string(rng.range(1, static_cast<int>(warps_) - 1)));
      } else {
        ins("and.b32 " + a + ", " + r(kWarp) + ", 1");
        ins("setp.eq.b32 " + pp + ", " + a + ", 0");
      }
      break;
    case Cond::BlockUniform:
      if (rng.chance(50)) {
        ins("s2r " + a + ", %ctaid.x");
        ins("and.b32 " + a + ", " + a + ", 1");
        ins("setp.eq.b32 " + pp + ", " + a + ", 0");
      } else {
        ins("ld.param.b32 " + a + ", [SEED]");
        ins("and.b32 " + a + ", " + a + ", " + std::to_string(rng.range(1, 15)));
        ins("setp.lt.u32 " + pp + ", " + a + ", " + std::to_string(rng.range(0, 15)));
      }
      break;
  }
}

}  // namespace simtlm::test::gen
