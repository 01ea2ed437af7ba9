// Register allocation for translated PTX: liveness over the virtual code's CFG, one live
// interval per virtual register (the hull of where it is live), and linear scan (Poletto and
// Sarkar) onto r0..r63 and p0..p6. When 64 general registers are not enough the intervals
// that end last are spilled to .local words after the kernel's own local data, and four
// registers (r60..r63) are kept back to load and store them around each use.
#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

#include "isa/diagnostics.h"
#include "isa/ptx/ptx_vcode.h"

namespace simtlm::isa::ptx {

void readsOf(const VInstr& in, std::vector<RegRef>& out) {
  out.clear();
  forEachRead(in, [&](int r, bool pred) { out.push_back({pred, r}); });
}

bool writesOf(const VInstr& in, RegRef& out) {
  const Format f = info(in.op).format;
  if (writesGpr(f)) return out = {false, in.d}, true;
  if (writesPred(f)) return out = {true, in.d}, true;
  return false;
}

namespace {

constexpr int kScratch = 4;

struct Bits {
  std::vector<uint64_t> w;
  explicit Bits(int n = 0) : w((n + 63) / 64, 0) {}
  void set(int i) { w[i >> 6] |= 1ull << (i & 63); }
  void reset(int i) { w[i >> 6] &= ~(1ull << (i & 63)); }
  bool test(int i) const { return w[i >> 6] >> (i & 63) & 1ull; }
  bool orWith(const Bits& o) {
    bool changed = false;
    for (size_t k = 0; k < w.size(); ++k) {
      const uint64_t x = w[k] | o.w[k];
      changed |= x != w[k];
      w[k] = x;
    }
    return changed;
  }
  template <class F> void each(F f) const {
    for (size_t k = 0; k < w.size(); ++k)
      for (uint64_t x = w[k]; x; x &= x - 1) f(static_cast<int>(k * 64 + __builtin_ctzll(x)));
  }
};

// Registers of one class as one numbering: general registers first, then predicates.
struct Intervals {
  std::vector<int> start, end;  // positions: 2i = reads of instruction i, 2i+1 = its write
};

// Basic blocks of the virtual code: leaders are the first instruction, branch targets and what
// follows a branch or exit.
struct Blocks {
  std::vector<int> first, blockOf;
  std::vector<std::vector<int>> succ;
  int n = 0;
  int count() const { return static_cast<int>(first.size()); }
  int lastOf(int b) const { return b + 1 < count() ? first[b + 1] - 1 : n - 1; }
  explicit Blocks(const VCode& c) : blockOf(c.instrs.size()), n(static_cast<int>(c.instrs.size())) {
    std::vector<char> leader(n + 1, 0);
    leader[0] = 1;
    for (int i = 0; i < n; ++i) {
      const VInstr& in = c.instrs[i];
      if (in.op == Op::BRA) leader[in.target] = 1, leader[i + 1] = 1;
      if (in.op == Op::EXIT) leader[i + 1] = 1;
    }
    for (int i = 0; i < n; ++i) {
      if (leader[i]) first.push_back(i);
      blockOf[i] = count() - 1;
    }
    succ.resize(count());
    for (int b = 0; b < count(); ++b) {
      const VInstr& in = c.instrs[lastOf(b)];
      const bool uncond = in.guard == kNoReg;
      if (in.op == Op::BRA) succ[b].push_back(blockOf[in.target]);
      const bool falls = !((in.op == Op::BRA || in.op == Op::EXIT) && uncond);
      if (falls && lastOf(b) + 1 < n) succ[b].push_back(b + 1);
    }
  }
};

// Splits every virtual register into its webs (the definitions that reach a common use, and
// the uses they reach), each a register of its own: a PTX register reused for unrelated values
// (%p1 set and tested in two places) then has two short live ranges instead of one long one.
void splitWebs(VCode& c) {
  const int n = static_cast<int>(c.instrs.size());
  const int nv = c.numGpr + c.numPred;
  if (n == 0) return;
  auto idx = [&](const RegRef& r) { return r.pred ? c.numGpr + r.reg : r.reg; };
  // Definition sites: instruction i defines def i; def n + v is v's value at kernel entry.
  const int nd = n + nv;
  std::vector<std::vector<int>> defsOf(nv);
  for (int v = 0; v < nv; ++v) defsOf[v].push_back(n + v);
  RegRef w;
  for (int i = 0; i < n; ++i)
    if (writesOf(c.instrs[i], w)) defsOf[idx(w)].push_back(i);
  const Blocks bl(c);
  const int nb = bl.count();
  // Reaching definitions, forward over the blocks.
  // The original register each instruction writes (-1: none), kept apart from the fields that
  // the renaming pass rewrites.
  std::vector<int> wrote(n, -1);
  std::vector<char> guarded(n, 0);
  for (int i = 0; i < n; ++i)
    if (writesOf(c.instrs[i], w)) wrote[i] = idx(w), guarded[i] = c.instrs[i].guard != kNoReg;
  auto transfer = [&](int i, Bits& r) {
    if (wrote[i] < 0) return;
    if (!guarded[i])
      for (int d : defsOf[wrote[i]]) r.reset(d);
    r.set(i);
  };
  std::vector<Bits> in(nb, Bits(nd)), out(nb, Bits(nd));
  for (int v = 0; v < nv; ++v) in[0].set(n + v);
  std::vector<std::vector<int>> preds(nb);
  for (int b = 0; b < nb; ++b)
    for (int s : bl.succ[b]) preds[s].push_back(b);
  for (bool changed = true; changed;) {
    changed = false;
    for (int b = 0; b < nb; ++b) {
      for (int p : preds[b]) in[b].orWith(out[p]);
      Bits r = in[b];
      for (int i = bl.first[b]; i <= bl.lastOf(b); ++i) transfer(i, r);
      changed |= out[b].orWith(r);
    }
  }
  std::vector<int> parent(nd);
  for (int d = 0; d < nd; ++d) parent[d] = d;
  std::function<int(int)> find = [&](int d) { return parent[d] == d ? d : parent[d] = find(parent[d]); };
  auto unite = [&](int a, int b) { parent[find(a)] = find(b); };
  std::vector<RegRef> reads;
  // One pass unites the definitions reaching each use; the next renames.
  std::vector<int> newId(nd, -1);
  int gprs = 0, preds2 = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (int b = 0; b < nb; ++b) {
      Bits r = in[b];
      for (int i = bl.first[b]; i <= bl.lastOf(b); ++i) {
        VInstr& x = c.instrs[i];
        auto webOf = [&](int v) {  // the root of the definitions of v reaching here
          int root = -1;
          for (int d : defsOf[v])
            if (r.test(d)) {
              if (root < 0) root = find(d);
              else if (pass == 0) unite(d, root), root = find(root);
            }
          return root < 0 ? find(n + v) : root;
        };
        auto rename = [&](int root, bool pred) {
          if (newId[root] < 0) newId[root] = pred ? preds2++ : gprs++;
          return newId[root];
        };
        readsOf(x, reads);
        const bool writes = writesOf(x, w);
        const bool wPred = w.pred;
        if (pass == 0) {
          for (const auto& rr : reads) webOf(idx(rr));
          if (writes && x.guard != kNoReg) unite(i, webOf(idx(w)));  // a guarded write merges with the value it keeps
        }
        if (pass == 1) {
          // Rewrite the fields: each read through its web, the write through its own.
          forEachRead(x, [&](int& field, bool pred) { field = rename(webOf(pred ? c.numGpr + field : field), pred); });
          if (writes) x.d = rename(find(i), wPred);
        }
        transfer(i, r);
      }
    }
  }
  c.numGpr = gprs;
  c.numPred = preds2;
}

Intervals liveIntervals(const VCode& c) {
  const int nv = c.numGpr + c.numPred;
  auto idx = [&](const RegRef& r) { return r.pred ? c.numGpr + r.reg : r.reg; };
  const Blocks bl(c);
  const std::vector<int>& first = bl.first;
  const int nb = bl.count();
  auto lastOf = [&](int b) { return bl.lastOf(b); };
  const auto& succ = bl.succ;
  std::vector<Bits> use(nb, Bits(nv)), def(nb, Bits(nv)), in(nb, Bits(nv)), out(nb, Bits(nv));
  std::vector<RegRef> reads;
  for (int b = 0; b < nb; ++b)
    for (int i = first[b]; i <= lastOf(b); ++i) {
      const VInstr& x = c.instrs[i];
      readsOf(x, reads);
      RegRef w;
      const bool writes = writesOf(x, w);
      if (writes && x.guard != kNoReg) reads.push_back(w);  // a guarded write keeps the old value
      for (const auto& r : reads)
        if (!def[b].test(idx(r))) use[b].set(idx(r));
      if (writes && x.guard == kNoReg) def[b].set(idx(w));
    }
  for (bool changed = true; changed;) {
    changed = false;
    for (int b = nb - 1; b >= 0; --b) {
      for (int s : succ[b]) changed |= out[b].orWith(in[s]);
      Bits x = out[b];
      def[b].each([&](int v) { x.reset(v); });
      x.orWith(use[b]);
      changed |= in[b].orWith(x);
    }
  }
  Intervals iv;
  iv.start.assign(nv, 1 << 30);
  iv.end.assign(nv, -1);
  auto touch = [&](int v, int pos) {
    iv.start[v] = std::min(iv.start[v], pos);
    iv.end[v] = std::max(iv.end[v], pos);
  };
  for (int b = 0; b < nb; ++b) {
    in[b].each([&](int v) { touch(v, 2 * first[b]); });
    out[b].each([&](int v) { touch(v, 2 * lastOf(b) + 2); });
    for (int i = first[b]; i <= lastOf(b); ++i) {
      const VInstr& x = c.instrs[i];
      readsOf(x, reads);
      for (const auto& r : reads) touch(idx(r), 2 * i);
      RegRef w;
      if (writesOf(x, w)) {
        if (x.guard != kNoReg) touch(idx(w), 2 * i);
        touch(idx(w), 2 * i + 1);
      }
    }
  }
  return iv;
}

// Linear scan over the registers [from, to) of the interval set onto `k` physical registers.
// Returns each one's register, or -1 for a spilled one (only when `spill`).
// `hint[v]`: a register whose value v copies (mov v, u): v takes u's register when it is free,
// so that the copy becomes `mov r, r` and is dropped.
std::vector<int> linearScan(const Intervals& iv, int from, int to, int k, bool spill, int& failedAt,
                            const std::vector<int>& hint = {}) {
  std::vector<int> order;
  for (int v = from; v < to; ++v)
    if (iv.end[v] >= 0) order.push_back(v);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return iv.start[a] != iv.start[b] ? iv.start[a] < iv.start[b] : a < b; });
  std::vector<int> phys(to - from, -1);
  std::set<int> free;
  for (int r = 0; r < k; ++r) free.insert(r);
  std::set<std::pair<int, int>> active;  // (end, vreg)
  failedAt = -1;
  for (int v : order) {
    while (!active.empty() && active.begin()->first < iv.start[v]) {
      free.insert(phys[active.begin()->second - from]);
      active.erase(active.begin());
    }
    if (!free.empty()) {
      auto pick = free.begin();
      if (v < static_cast<int>(hint.size()) && hint[v] >= from && phys[hint[v] - from] >= 0) {
        auto h = free.find(phys[hint[v] - from]);
        if (h != free.end()) pick = h;
      }
      phys[v - from] = *pick;
      free.erase(pick);
      active.insert({iv.end[v], v});
      continue;
    }
    if (!spill) {
      failedAt = iv.start[v];
      return phys;
    }
    auto last = std::prev(active.end());
    if (last->first > iv.end[v]) {  // steal the register of the interval that ends last
      const int victim = last->second;
      phys[v - from] = phys[victim - from];
      phys[victim - from] = -1;
      active.erase(last);
      active.insert({iv.end[v], v});
    }
  }
  return phys;
}

Instr physical(const VInstr& v) {
  Instr in;
  in.op = v.op;
  in.guard = kPredTrue;
  in.guardNeg = v.guardNeg;
  in.hasImm = v.hasImm;
  in.hasBase = v.hasBase;
  in.off = v.off;
  in.imm = v.imm;
  return in;
}

}  // namespace

Kernel allocate(VCode code, const std::string& name, const std::string& file, int* spilledOut) {
  splitWebs(code);
  const Intervals iv = liveIntervals(code);
  std::vector<int> hint(code.numGpr, -1);
  for (const auto& in : code.instrs)
    if (in.op == Op::MOV_B32 && !in.hasImm && in.guard == kNoReg) hint[in.d] = in.a;
  int failedAt = -1;
  std::vector<int> gpr = linearScan(iv, 0, code.numGpr, kMaxRegs, false, failedAt, hint);
  bool spilling = failedAt >= 0;
  if (spilling) gpr = linearScan(iv, 0, code.numGpr, kMaxRegs - kScratch, true, failedAt, hint);
  const std::vector<int> pred = linearScan(iv, code.numGpr, code.numGpr + code.numPred, kNumPreds, false, failedAt);
  if (failedAt >= 0) {
    const int line = code.instrs[failedAt / 2].line;
    throw InputError(file, line, 1, "kernel '" + name + "' needs more than 7 predicate registers live at once here; simtlm has p0..p6 and does not spill predicates");
  }
  // Spill slots follow the kernel's own local data.
  std::vector<int> slot(code.numGpr, -1);
  int spilled = 0;
  for (int v = 0; v < code.numGpr; ++v)
    if (iv.end[v] >= 0 && gpr[v] < 0) slot[v] = static_cast<int>(code.localBytes) + 4 * spilled++;
  if (spilledOut) *spilledOut = spilled;

  Kernel k;
  k.name = name;
  k.sourceFile = file;
  k.sharedBytes = code.sharedBytes;
  k.localBytes = code.localBytes + 4u * static_cast<uint32_t>(spilled);
  if (k.localBytes > kMaxLocalBytes) throw InputError(file, 0, 0, "kernel '" + name + "' needs more local memory than 512 KiB");
  k.params = code.params;
  k.constantParams = code.constantParams;
  std::vector<size_t> newIndex(code.instrs.size() + 1);
  std::vector<size_t> branches;
  int maxReg = -1;
  auto P = [&](int v) -> uint8_t {  // a general register: its physical number
    if (v < 0) return 0;
    maxReg = std::max(maxReg, gpr[v]);
    return static_cast<uint8_t>(gpr[v]);
  };
  auto Q = [&](int v) -> uint8_t { return v == kPt ? kPredTrue : v < 0 ? 0 : static_cast<uint8_t>(pred[v]); };
  auto emitRaw = [&](const Instr& in, int line) {
    k.instrs.push_back(in);
    k.sourceLines.push_back(line);
  };
  auto spillAccess = [&](Op op, int reg, int v, int line) {
    Instr m;
    m.op = op;
    m.off = slot[v];
    if (op == Op::LD_LOCAL) m.d = static_cast<uint8_t>(reg);
    else m.b = static_cast<uint8_t>(reg);
    maxReg = std::max(maxReg, reg);
    emitRaw(m, line);
  };
  std::vector<RegRef> reads;
  for (size_t i = 0; i < code.instrs.size(); ++i) {
    newIndex[i] = k.instrs.size();
    const VInstr& v = code.instrs[i];
    Instr in = physical(v);
    if (v.guard != kNoReg) in.guard = Q(v.guard);
    const Format f = info(v.op).format;
    // Spilled general registers: load each source into a scratch register first.
    std::vector<std::pair<int, int>> scratch;  // (vreg, physical)
    auto reg = [&](int vr) -> uint8_t {
      if (vr < 0) return 0;
      if (slot[vr] < 0) return P(vr);
      for (const auto& [x, r] : scratch)
        if (x == vr) return static_cast<uint8_t>(r);
      const int r = kMaxRegs - kScratch + static_cast<int>(scratch.size());
      scratch.push_back({vr, r});
      spillAccess(Op::LD_LOCAL, r, vr, v.line);
      return static_cast<uint8_t>(r);
    };
    const bool predA = f == Format::PredBinary || f == Format::PredUnary;
    const bool predB = f == Format::PredBinary;
    if (f == Format::Special) in.a = static_cast<uint8_t>(v.a);
    else if (predA) in.a = Q(v.a);
    else in.a = reg(v.a);
    in.b = predB ? Q(v.b) : reg(v.b);
    in.c = f == Format::Select ? Q(v.c) : reg(v.c);
    RegRef w;
    bool spillStore = false;
    if (writesOf(v, w)) {
      if (w.pred) {
        in.d = Q(w.reg);
      } else if (slot[w.reg] < 0) {
        in.d = P(w.reg);
      } else {
        // A guarded write keeps the old value in the lanes that skip it: load it first.
        bool loaded = false;
        for (const auto& [x, r] : scratch) loaded = loaded || x == w.reg;
        if (v.guard != kNoReg || loaded) in.d = reg(w.reg);
        else {
          const int r = kMaxRegs - kScratch + static_cast<int>(scratch.size());
          scratch.push_back({w.reg, r});
          in.d = static_cast<uint8_t>(r);
          maxReg = std::max(maxReg, r);
        }
        spillStore = true;
      }
    }
    // A copy whose source and destination share a register (cvta, widening cvt, coalesced
    // moves) does nothing: it is not emitted.
    if (v.op == Op::MOV_B32 && !v.hasImm && !spillStore && scratch.empty() && in.d == in.a) continue;
    if (v.op == Op::BRA) branches.push_back(k.instrs.size());
    emitRaw(in, v.line);
    if (v.op == Op::BRA) k.instrs.back().imm = static_cast<uint32_t>(v.target);  // resolved below
    if (spillStore) {
      for (const auto& [x, r] : scratch)
        if (x == w.reg) spillAccess(Op::ST_LOCAL, r, w.reg, v.line);
    }
  }
  newIndex[code.instrs.size()] = k.instrs.size();
  for (size_t b : branches) k.instrs[b].imm = Kernel::pcOf(newIndex[k.instrs[b].imm]);
  // PTX labels ($L__BB0_2) as assembly names (L__BB0_2): the `simtlm ptx` listing assembles.
  std::set<std::string> used;
  for (const auto& [index, label] : code.labels) {
    const uint32_t pc = Kernel::pcOf(newIndex[index]);
    if (k.labels.count(pc)) continue;  // several PTX labels on one instruction: the first
    std::string n;
    for (char ch : label)
      if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') n += ch;
    if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0]))) n = "L" + n;
    std::string unique = n;
    for (int s = 2; used.count(unique); ++s) unique = n + "_" + std::to_string(s);
    used.insert(unique);
    k.labels[pc] = unique;
  }
  k.numRegs = std::max(1, maxReg + 1);
  k.code.reserve(k.instrs.size());
  for (const auto& x : k.instrs) {
    // The timing model runs the encoded words, the interpreter the decoded ones: they must agree.
    Instr back;
    if (!decode(encode(x), back) || !(back == x))
      throw std::logic_error("PTX translation of '" + name + "' made an instruction that does not encode (" + std::string(info(x.op).name) + ")");
    k.code.push_back(encode(x));
  }
  checkKernel(k);
  return k;
}

}  // namespace simtlm::isa::ptx
