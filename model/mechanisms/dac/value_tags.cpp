// The transfer rules follow isa/affine_analysis.cpp (see its header for the choices), with two
// differences that come from looking across the thread block instead of the warp:
//  * tid.x, tid.y and tid.z are affine whatever the block's shape (DAC's affine tuples have a
//    stride per dimension), and the lane id is affine (the same vector in every warp); the warp
//    id is generic (a different value in each warp, not linear in the thread index);
//  * only ld.param is uniform among loads (parameter memory cannot change during the kernel);
//    a global or shared load of a uniform address is generic: another warp may read it after a
//    store changed it, and DAC's affine stream does not load.
#include "model/mechanisms/dac/value_tags.h"

namespace simtlm::dac {

namespace {

bool isFloat(isa::Op op) {
  const isa::OpClass c = isa::info(op).cls;
  return c == isa::OpClass::Fp || c == isa::OpClass::FpDiv || c == isa::OpClass::Sfu ||
         c == isa::OpClass::Convert;
}

bool structured(Tag t) { return t != Tag::Generic; }
Tag uniformOnly(Tag t) { return t == Tag::Uniform ? Tag::Uniform : Tag::Generic; }

Tag specialTag(uint8_t id) {
  using S = isa::Special;
  if (id >= isa::kNumSpecials) return Tag::Generic;
  switch (static_cast<S>(id)) {
    case S::TidX: case S::TidY: case S::TidZ: case S::LaneId: return Tag::Affine;
    case S::WarpId: return Tag::Generic;
    default: return Tag::Uniform;  // ntid, ctaid, nctaid: one value per block
  }
}

}  // namespace

bool removableOp(const isa::Instr& in) {
  if (in.guard != isa::kPredTrue || in.guardNeg) return false;
  switch (isa::info(in.op).format) {
    case isa::Format::Unary: case isa::Format::Binary: case isa::Format::Ternary:
    case isa::Format::Select: case isa::Format::Special: case isa::Format::Compare:
    case isa::Format::PredBinary: case isa::Format::PredUnary:
      return true;
    default:
      return false;
  }
}

Tag resultTag(const isa::Instr& in, const WarpTags& t) {
  using isa::Op;
  const Tag a = t.regs[in.a], b = in.hasImm ? Tag::Uniform : t.regs[in.b], c = t.regs[in.c];
  switch (isa::info(in.op).format) {
    case isa::Format::Unary: {
      const Tag s = in.hasImm ? Tag::Uniform : a;
      if (in.op == Op::MOV_B32 || (in.op == Op::NEG_S32 && structured(s))) return s;
      return uniformOnly(s);
    }
    case isa::Format::Binary: {
      const Tag m = meet(a, b);
      if (isFloat(in.op)) return uniformOnly(m);
      switch (in.op) {
        case Op::ADD_U32: case Op::SUB_U32: return m;
        case Op::MUL_LO_U32: return structured(m) && (a == Tag::Uniform || b == Tag::Uniform) ? m : Tag::Generic;
        case Op::SHL_B32: return structured(a) && b == Tag::Uniform ? m : uniformOnly(m);
        default: return uniformOnly(m);
      }
    }
    case isa::Format::Ternary: {
      const Tag m = meet(meet(a, t.regs[in.b]), c);
      const bool mad = in.op == Op::MAD_LO_U32 && structured(m) &&
                       (a == Tag::Uniform || t.regs[in.b] == Tag::Uniform);
      return mad ? m : uniformOnly(m);
    }
    case isa::Format::Select:  // a uniform selector picks the same operand in every thread
      return t.preds[in.c] == Tag::Uniform ? meet(a, t.regs[in.b]) : Tag::Generic;
    case isa::Format::Special: return specialTag(in.a);
    case isa::Format::Compare: return uniformOnly(meet(a, b));
    case isa::Format::PredBinary: return uniformOnly(meet(t.preds[in.a], t.preds[in.b]));
    case isa::Format::PredUnary: return uniformOnly(t.preds[in.a]);
    case isa::Format::Load:
      return in.op == Op::LD_PARAM && (!in.hasBase || a == Tag::Uniform) ? Tag::Uniform : Tag::Generic;
    default: return Tag::Generic;  // atomics; no result for stores and control
  }
}

void writeTag(const isa::Instr& in, Tag tag, WarpTags& t) {
  const isa::Format f = isa::info(in.op).format;
  if (isa::writesPred(f)) t.preds[in.d] = tag;
  else if (isa::writesGpr(f)) t.regs[in.d] = tag;
}

}  // namespace simtlm::dac
