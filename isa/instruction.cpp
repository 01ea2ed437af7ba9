#include "isa/instruction.h"

namespace simtlm::isa {

const char* specialName(Special s) {
  static const char* kNames[kNumSpecials] = {
      "tid.x",   "tid.y",   "tid.z",   "ntid.x",   "ntid.y",   "ntid.z", "ctaid.x",
      "ctaid.y", "ctaid.z", "nctaid.x", "nctaid.y", "nctaid.z", "laneid", "warpid"};
  return kNames[static_cast<int>(s)];
}

bool Instr::operator==(const Instr& o) const { return encode(*this) == encode(o); }

uint64_t encode(const Instr& in) {
  uint64_t w = static_cast<uint64_t>(in.op);
  w |= static_cast<uint64_t>(in.guard & 7) << 8;
  w |= static_cast<uint64_t>(in.guardNeg) << 11;
  w |= static_cast<uint64_t>(in.darsie) << 12;
  w |= static_cast<uint64_t>(in.bow) << 14;
  w |= static_cast<uint64_t>(in.hasImm) << 16;
  w |= static_cast<uint64_t>(in.d & 63) << 17;
  w |= static_cast<uint64_t>(in.a & 63) << 23;
  w |= static_cast<uint64_t>(in.hasBase) << 29;
  if (in.hasImm) {
    w |= static_cast<uint64_t>(in.imm) << 32;
  } else {
    w |= static_cast<uint64_t>(in.b & 63) << 32;
    w |= static_cast<uint64_t>(in.c & 63) << 38;
    w |= static_cast<uint64_t>(static_cast<uint32_t>(in.off) & 0xFFFFFu) << 44;
  }
  return w;
}

bool decode(uint64_t w, Instr& out) {
  unsigned opcode = w & 0xFF;
  if (opcode >= static_cast<unsigned>(kNumOps)) return false;
  if ((w >> 30) & 3) return false;
  out = Instr{};
  out.op = static_cast<Op>(opcode);
  out.guard = (w >> 8) & 7;
  out.guardNeg = (w >> 11) & 1;
  out.darsie = static_cast<Redundancy>((w >> 12) & 3);
  if (static_cast<int>(out.darsie) == 3) return false;
  out.bow = static_cast<BowHint>((w >> 14) & 3);
  out.hasImm = (w >> 16) & 1;
  out.d = (w >> 17) & 63;
  out.a = (w >> 23) & 63;
  out.hasBase = (w >> 29) & 1;
  if (out.hasImm) {
    out.imm = static_cast<uint32_t>(w >> 32);
  } else {
    out.b = (w >> 32) & 63;
    out.c = (w >> 38) & 63;
    int32_t off = static_cast<int32_t>((w >> 44) & 0xFFFFF);
    if (off & 0x80000) off -= 0x100000;
    out.off = off;
  }
  return true;
}

}  // namespace simtlm::isa
