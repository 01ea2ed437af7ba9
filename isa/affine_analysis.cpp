// Uniform/affine value classification (Kim et al., ISCA 2013, Sec. 4.1-4.3) on the shared
// forward dataflow solver. Lattice: top > Uniform > Affine > Generic; meet takes the less
// structured shape. Values are 32-bit, so affine means base + lane * stride modulo 2^32.
//
// Choices where the paper is vague:
//  * Affine arithmetic (Sec. 4.2): add/sub of uniform/affine operands; mul.lo and shl of an
//    affine value by a uniform one (not a uniform shifted by an affine amount); mad.lo with one
//    uniform factor and an affine/uniform addend; neg.s32 (0 - a); mov copies the shape; selp
//    with a uniform selector yields one of its operands in every lane (meet of both). Every
//    other integer op is uniform only with all-uniform operands, else generic (shr is not
//    affine: the low stride bits are lost).
//  * Floating point and conversions to or from it: uniform only, never affine (Sec. 4.1).
//  * Loads (any space but local) with a uniform or absolute address read one word for the whole
//    warp: uniform. A local load reads each lane's own word: generic. Atomics return a different old value per lane: generic.
//  * Predicates are Uniform or Generic only (setp/pand/... of uniform operands are uniform).
//  * A guarded write meets the new value with the old destination and with the guard: a
//    uniform guard writes all lanes or none, any other guard mixes values: generic (Sec. 4.3).
//  * Divergence (Sec. 4.3) is the solver's join rule: registers written under a branch whose
//    predicate is not uniform become generic where the paths join.
//  * Unreachable instructions are reported Generic.
#include "isa/affine_analysis.h"

#include "isa/dataflow.h"

namespace simtlm::isa {

const char* shapeName(ValueShape s) {
  switch (s) {
    case ValueShape::Uniform: return "U";
    case ValueShape::Affine: return "A";
    case ValueShape::Generic: return "G";
  }
  return "?";
}

namespace {

struct Shape {
  ValueShape v = ValueShape::Uniform;
  bool isTop = false;

  static Shape top() { return {ValueShape::Uniform, true}; }
  static Shape meet(Shape a, Shape b) {
    if (a.isTop) return b;
    if (b.isTop) return a;
    return {a.v > b.v ? a.v : b.v, false};
  }
  bool operator==(const Shape& o) const { return v == o.v && isTop == o.isTop; }
};

const Shape kU{ValueShape::Uniform, false};
const Shape kA{ValueShape::Affine, false};
const Shape kG{ValueShape::Generic, false};

bool isU(Shape s) { return !s.isTop && s.v == ValueShape::Uniform; }
bool isUA(Shape s) { return !s.isTop && s.v != ValueShape::Generic; }
Shape uniformOnly(Shape s) { return s.isTop ? s : isU(s) ? kU : kG; }

// tid component with `inner` = product of the lower block extents and `extent` its own:
// lane l of warp w has (w*W + l) / inner % extent.
Shape tidShape(uint64_t inner, uint64_t extent, uint32_t warpSize) {
  if (extent == 1 || inner % warpSize == 0) return kU;
  if (inner == 1 && extent % warpSize == 0) return kA;
  return kG;
}

Shape specialShape(uint8_t id, const std::optional<Dim3>& block, uint32_t warpSize) {
  if (id >= kNumSpecials) return kG;
  switch (static_cast<Special>(id)) {
    case Special::TidX: return block ? tidShape(1, block->x, warpSize) : kA;
    case Special::TidY: return block ? tidShape(block->x, block->y, warpSize) : kG;
    case Special::TidZ:
      return block ? tidShape(uint64_t{block->x} * block->y, block->z, warpSize) : kG;
    case Special::LaneId: return kA;
    default: return kU;  // ntid, ctaid, nctaid, warpid: one value per warp
  }
}

bool isFloat(Op op) {
  OpClass c = info(op).cls;
  return c == OpClass::Fp || c == OpClass::FpDiv || c == OpClass::Sfu || c == OpClass::Convert;
}

}  // namespace

AffineMarking classifyAffine(const Kernel& k, const Cfg& cfg, const std::optional<Dim3>& block,
                             uint32_t warpSize) {
  if (warpSize == 0) warpSize = 1;
  SlotState<Shape> entry;
  entry.fill(kU);  // registers start as zero in every lane; pt is uniform

  // The shape of the value instruction i writes, given the state before it.
  auto valueShape = [&](size_t i, const SlotState<Shape>& s) -> Shape {
    const Instr& in = k.instrs[i];
    const Format f = info(in.op).format;
    Shape a = s[in.a], b = in.hasImm ? kU : s[in.b], c = s[in.c];
    Shape r = kG;
    switch (f) {
      case Format::Unary:
        a = in.hasImm ? kU : a;
        r = in.op == Op::MOV_B32 || (in.op == Op::NEG_S32 && isUA(a)) ? a : uniformOnly(a);
        break;
      case Format::Binary: {
        Shape m = Shape::meet(a, b);
        if (isFloat(in.op)) { r = uniformOnly(m); break; }
        switch (in.op) {
          case Op::ADD_U32: case Op::SUB_U32: r = isUA(m) ? m : uniformOnly(m); break;
          case Op::MUL_LO_U32: r = isUA(m) && (isU(a) || isU(b)) ? m : uniformOnly(m); break;
          case Op::SHL_B32: r = isUA(a) && isU(b) ? m : uniformOnly(m); break;
          default: r = uniformOnly(m);
        }
        break;
      }
      case Format::Ternary: {
        Shape m = Shape::meet(Shape::meet(a, b), c);
        bool mad = in.op == Op::MAD_LO_U32 && isUA(m) && (isU(a) || isU(b));
        r = mad ? m : uniformOnly(m);
        break;
      }
      case Format::Select: {
        Shape p = s[predSlot(in.c)];
        r = isU(p) ? Shape::meet(s[in.a], s[in.b]) : p.isTop ? p : kG;
        break;
      }
      case Format::Special: r = specialShape(in.a, block, warpSize); break;
      case Format::Compare: r = uniformOnly(Shape::meet(a, b)); break;
      case Format::PredBinary:
        r = uniformOnly(Shape::meet(s[predSlot(in.a)], s[predSlot(in.b)]));
        break;
      case Format::PredUnary: r = uniformOnly(s[predSlot(in.a)]); break;
      case Format::Load:  // a local load reads each lane's own word, whatever the offset
        r = in.op == Op::LD_LOCAL ? kG : in.hasBase ? uniformOnly(a) : kU;
        break;
      default: return kG;  // atomics; no result for stores and control
    }
    if (in.guard != kPredTrue || in.guardNeg) {
      const int d = writesPred(f) ? predSlot(in.d) : in.d;
      r = Shape::meet(Shape::meet(r, s[d]), uniformOnly(s[predSlot(in.guard)]));
    }
    return r;
  };

  auto transfer = [&](size_t i, SlotState<Shape>& s) {
    const Instr& in = k.instrs[i];
    const Format f = info(in.op).format;
    if (!writesGpr(f) && !writesPred(f)) return;
    Shape v = valueShape(i, s);
    s[writesPred(f) ? predSlot(in.d) : in.d] = v;
  };
  auto branchValue = [&](size_t i, const SlotState<Shape>& s) {
    return uniformOnly(s[predSlot(k.instrs[i].guard)]);
  };
  auto before = solveForward<Shape>(k, cfg, entry, transfer, branchValue);

  AffineMarking m;
  m.instr.assign(k.size(), ValueShape::Generic);
  for (size_t i = 0; i < k.size(); ++i) {
    const Format f = info(k.instrs[i].op).format;
    if (!writesGpr(f) && !writesPred(f)) continue;
    Shape v = valueShape(i, before[i]);
    m.instr[i] = v.isTop ? ValueShape::Generic : v.v;
  }
  return m;
}

}  // namespace simtlm::isa
