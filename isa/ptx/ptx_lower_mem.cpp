// PTX loads, stores and atomics -> simtlm memory instructions. Every simtlm access is one
// 32-bit word, so .v2 / .v4 accesses become two or four word accesses at consecutive offsets,
// and sub-word or 64-bit accesses are refused (docs/ptx.md).
#include <algorithm>

#include "isa/diagnostics.h"
#include "isa/ptx/ptx_lowering.h"

namespace simtlm::isa::ptx {

namespace {

// Modifiers that only tune caching, ordering or scope: simtlm's interpreter is sequentially
// consistent and its caches are the timing model's, so they do not change what runs.
bool ignoredModifier(const std::string& m) {
  static const char* kIgnored[] = {"ca", "cg", "cs", "lu", "cv", "wb", "wt", "volatile", "relaxed", "acquire", "release",
                                   "weak", "cta", "gpu", "sys", "cluster", "aligned", "sc", "acq_rel"};
  for (const char* x : kIgnored)
    if (m == x) return true;
  return m.rfind("L1::", 0) == 0 || m.rfind("L2::", 0) == 0;
}

bool parseSpace(const std::string& m, Space& s, bool& param) {
  const std::string n = m.substr(0, m.find("::"));
  if (n == "global") return s = Space::Global, true;
  if (n == "shared") return s = Space::Shared, true;
  if (n == "local") return s = Space::Local, true;
  if (n == "const") return s = Space::Const, true;
  if (n == "param") return param = true, s = Space::Global, true;
  return false;
}

}  // namespace

void Lowering::address(const Operand& o, Space space, VInstr& in) {
  if (o.kind != Operand::Kind::Address) fail(o.pos, "expected an address [..] in '" + st_->opcode + "'");
  const int64_t value = static_cast<int64_t>(o.value);
  int64_t off = value;
  if (o.name.empty()) {
    in.hasBase = false;
  } else if (o.baseIsReg) {
    const VReg& r = reg(o);
    if (r.pred || r.width == 0) fail(o.pos, "'" + o.name + "' cannot hold an address");
    in.hasBase = true;
    in.a = r.id;
  } else if (params_.count(o.name)) {
    in.hasBase = false;
    off = params_.at(o.name) + value;
  } else {
    auto it = symbols_.find(o.name);
    if (it == symbols_.end()) fail(o.pos, "unknown symbol '" + o.name + "'");
    const Sym& sym = it->second;
    if (sym.space == Space::Global) unsupported(file_, o.pos, ".global variable " + o.name + " (a __device__ variable)");
    if (sym.space != space) fail(o.pos, "'" + o.name + "' is not in the space '" + st_->opcode + "' accesses");
    if (sym.space == Space::Const) {
      in.hasBase = true;
      in.a = constBase(o.name, o.pos);
    } else {
      in.hasBase = false;
      off = sym.offset + value;
    }
  }
  if (off < kMinOffset || off > kMaxOffset || (!in.hasBase && off < 0))
    fail(o.pos, "address offset " + std::to_string(off) + " is outside the ISA's range");
  in.off = static_cast<int32_t>(off);
}

void Lowering::lowerMemory(const std::string& base, const std::vector<std::string>& mods) {
  const bool load = base != "st";
  Space space = Space::Global;
  bool haveSpace = false, param = false, nc = false;
  int vec = 1;
  Type t;
  for (const auto& m : mods) {
    Type x;
    if (parseSpace(m, space, param)) haveSpace = true;
    else if (m == "nc") nc = true;
    else if (m == "v2") vec = 2;
    else if (m == "v4") vec = 4;
    else if (parseType(m, x)) t = x;
    else if (!ignoredModifier(m)) notSupported();
  }
  if (base == "ldu") nc = true;  // ldu: a load the whole warp reads uniformly, read-only
  if (!haveSpace) unsupported(file_, st_->pos, st_->opcode + " (generic addressing; write the state space)");
  if (t.bits == 64 && !(param && load && vec == 1)) fail(st_->pos, "64-bit memory accesses ('" + st_->opcode + "') are not supported");
  if (t.bits < 32 && t.bits != 64) fail(st_->pos, "sub-word memory accesses ('" + st_->opcode + "') are not supported");
  if (t.kind == 'p') notSupported();
  need(2);
  Op op;
  if (load) {
    op = param ? Op::LD_PARAM
       : space == Space::Global ? (nc ? Op::LD_GLOBAL_NC : Op::LD_GLOBAL)
       : space == Space::Shared ? Op::LD_SHARED
       : space == Space::Local  ? Op::LD_LOCAL
                                : Op::LD_CONST;
  } else {
    if (param || space == Space::Const) fail(st_->pos, "'" + st_->opcode + "' stores to a read-only space");
    op = space == Space::Global ? Op::ST_GLOBAL : space == Space::Shared ? Op::ST_SHARED : Op::ST_LOCAL;
  }
  const Operand& data = st_->operands[load ? 0 : 1];
  const Operand& addr = st_->operands[load ? 1 : 0];
  std::vector<Operand> elems = data.kind == Operand::Kind::Vector ? data.elems : std::vector<Operand>{data};
  if (static_cast<int>(elems.size()) != vec)
    fail(data.pos, "'" + st_->opcode + "' moves " + std::to_string(vec) + " value(s), not " + std::to_string(elems.size()));
  VInstr proto;
  address(addr, param ? Space::Global : space, proto);
  if (param && proto.hasBase) fail(addr.pos, "ld.param reads a parameter by name");
  if (space == Space::Global && !param && !proto.hasBase) fail(addr.pos, "a global access needs a register base");
  // A vector load that overwrites its own base register reads the base from a copy.
  if (load && proto.hasBase && vec > 1) {
    for (const auto& e : elems)
      if (e.kind == Operand::Kind::Reg && reg(e).id == proto.a) {
        VInstr& cp = emit(Op::MOV_B32);
        cp.d = newGpr(), cp.a = proto.a;
        proto.a = cp.d;
        break;
      }
  }
  std::vector<int> values;
  if (!load)
    for (const auto& e : elems) values.push_back(gprSrc(e));
  for (int i = 0; i < vec; ++i) {
    const int dst = load ? gprDst(elems[i]) : kNoReg;
    VInstr& in = emit(op);
    in.hasBase = proto.hasBase;
    in.a = proto.a;
    in.off = proto.off + 4 * i;
    if (load) in.d = dst;
    else in.b = values[i];
  }
}

void Lowering::lowerAtomic(const std::string& base, const std::vector<std::string>& mods) {
  const bool red = base == "red";
  Space space = Space::Global;
  bool haveSpace = false, param = false;
  std::string op;
  Type t;
  for (const auto& m : mods) {
    Type x;
    if (parseSpace(m, space, param)) haveSpace = true;
    else if (parseType(m, x)) t = x;
    else if (m == "add" || m == "min" || m == "max" || m == "exch" || m == "cas" || m == "inc" || m == "dec" || m == "and" || m == "or" || m == "xor") op = m;
    else if (!ignoredModifier(m)) notSupported();
  }
  if (!haveSpace) unsupported(file_, st_->pos, st_->opcode + " (generic addressing; write the state space)");
  if (param || !(space == Space::Global || space == Space::Shared)) notSupported();
  if (t.bits == 64) no64();
  if (t.bits != 32) notSupported();
  const bool g = space == Space::Global;
  Op code = Op::NOP;
  if (op == "add") code = t.kind == 'f' ? (g ? Op::ATOM_G_ADD_F32 : Op::ATOM_S_ADD_F32) : (g ? Op::ATOM_G_ADD_U32 : Op::ATOM_S_ADD_U32);
  else if (op == "min" && t.kind != 'f') code = t.kind == 's' ? (g ? Op::ATOM_G_MIN_S32 : Op::ATOM_S_MIN_S32) : (g ? Op::ATOM_G_MIN_U32 : Op::ATOM_S_MIN_U32);
  else if (op == "max" && t.kind != 'f') code = t.kind == 's' ? (g ? Op::ATOM_G_MAX_S32 : Op::ATOM_S_MAX_S32) : (g ? Op::ATOM_G_MAX_U32 : Op::ATOM_S_MAX_U32);
  else if (op == "exch" && t.kind != 'f') code = g ? Op::ATOM_G_EXCH : Op::ATOM_S_EXCH;
  else if (op == "cas" && t.kind != 'f') code = g ? Op::ATOM_G_CAS : Op::ATOM_S_CAS;
  if (code == Op::NOP) notSupported();
  const bool cas = op == "cas";
  if (red && cas) notSupported();
  need((red ? 2 : 3) + (cas ? 1 : 0));
  const auto& o = st_->operands;
  const size_t a0 = red ? 0 : 1;
  VInstr proto;
  address(o[a0], space, proto);
  if (!proto.hasBase) {  // atomics take a register base: materialize an absolute address
    VInstr& mv = emit(Op::MOV_B32);
    mv.d = newGpr(), mv.hasImm = true, mv.imm = static_cast<uint32_t>(proto.off);
    proto.hasBase = true, proto.a = mv.d, proto.off = 0;
  }
  const int b = gprSrc(o[a0 + 1]);
  const int c = cas ? gprSrc(o[a0 + 2]) : kNoReg;
  const int dst = red ? newGpr() : gprDst(o[0]);
  VInstr& in = emit(code);
  in.d = dst, in.a = proto.a, in.hasBase = true, in.off = proto.off, in.b = b, in.c = c;
}

}  // namespace simtlm::isa::ptx
