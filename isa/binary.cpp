#include "isa/binary.h"

#include <cstdio>
#include <cstring>
#include <set>

#include "isa/asm_lexer.h"
#include "isa/assembler.h"
#include "isa/diagnostics.h"
#include "isa/disassembler.h"

namespace simtlm::isa {
namespace {

// K2: K1 plus the .local size after the shared size.
constexpr char kMagic[8] = {'S', 'I', 'M', 'T', 'L', 'M', 'K', '2'};

void put32(std::string& s, uint32_t v) { s.append(reinterpret_cast<const char*>(&v), 4); }
void putStr(std::string& s, const std::string& v) { put32(s, static_cast<uint32_t>(v.size())); s += v; }

class Reader {
 public:
  Reader(const std::string& b, const std::string& f) : b_(b), f_(f) {}
  uint32_t u32(const char* what) {
    need(4, what);
    uint32_t v;
    std::memcpy(&v, b_.data() + pos_, 4);
    pos_ += 4;
    return v;
  }
  uint64_t u64(const char* what) {
    uint64_t lo = u32(what), hi = u32(what);
    return lo | hi << 32;
  }
  std::string str(const char* what) {
    uint32_t n = u32(what);
    need(n, what);
    std::string s = b_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  void need(size_t n, const char* what) {
    if (b_.size() - pos_ < n) fail(std::string("truncated binary while reading ") + what);
  }
  [[noreturn]] void fail(const std::string& m) { failAt(pos_, m); }
  [[noreturn]] void failAt(size_t at, const std::string& m) {
    throw InputError(f_, 0, 0, m + " (at byte " + std::to_string(at) + ")");
  }
  size_t pos_ = 0;

 private:
  const std::string& b_;
  const std::string& f_;
};

std::string hexPc(uint32_t pc) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%x", pc);
  return hex;
}

// "" when `w` (decoded as `in`) is a word the assembler writes, else why not. The instruction
// alone is assembled in a kernel that allows every register; a branch keeps its target out of
// it (the target is checked against the code by checkKernel).
std::string nonCanonical(uint64_t w, const Instr& in) {
  Instr probe = in;
  if (probe.op == Op::BRA) probe.imm = 0;
  const std::string text = disassemble(probe, nullptr);
  Kernel one;
  try {
    one = assemble(".kernel w\n.regs " + std::to_string(kMaxRegs) + "\n.local " + std::to_string(kMaxLocalBytes) +
                       "\nL_0000:\n" + text + "\n", "word");
  } catch (const InputError& e) {
    return e.message();
  }
  if (encode(in) == w && one.code[0] == encode(probe)) return "";
  return "it reads as '" + text + "', which assembles to another word";
}

}  // namespace

std::string serializeKernel(const Kernel& k) {
  std::string s(kMagic, 8);
  putStr(s, k.name);
  put32(s, static_cast<uint32_t>(k.numRegs));
  put32(s, k.sharedBytes);
  put32(s, k.localBytes);
  put32(s, static_cast<uint32_t>(k.params.size()));
  for (const auto& p : k.params) putStr(s, p.name);
  put32(s, static_cast<uint32_t>(k.labels.size()));
  for (const auto& [pc, name] : k.labels) { put32(s, pc); putStr(s, name); }
  put32(s, static_cast<uint32_t>(k.code.size()));
  for (uint64_t w : k.code) { put32(s, static_cast<uint32_t>(w)); put32(s, static_cast<uint32_t>(w >> 32)); }
  return s;
}

// Names and metadata are held to what the assembler accepts, so that a loaded binary never
// echoes raw bytes and always disassembles to text that assembles (found by fuzz/fuzz_binary).
Kernel deserializeKernel(const std::string& bytes, const std::string& fileName) {
  const std::string kName = " is not a name ([A-Za-z_][A-Za-z0-9_]*)";
  Reader r(bytes, fileName);
  r.need(8, "the magic number");
  if (std::memcmp(bytes.data(), kMagic, 8) != 0) r.fail("not a simtlm kernel binary (bad magic)");
  r.pos_ = 8;
  Kernel k;
  k.name = r.str("the kernel name");
  if (!detail::validName(k.name)) r.failAt(8, "the kernel name" + kName);
  k.sourceFile = fileName;
  size_t at = r.pos_;
  k.numRegs = static_cast<int>(r.u32("the register count"));
  if (k.numRegs < 1 || k.numRegs > kMaxRegs) r.failAt(at, "register count out of range [1, 64]");
  at = r.pos_;
  k.sharedBytes = r.u32("the shared memory size");
  if (k.sharedBytes % 4 || k.sharedBytes > (1u << 20))
    r.failAt(at, "shared memory size " + std::to_string(k.sharedBytes) + " is not a multiple of 4 in [0, 1048576]");
  at = r.pos_;
  k.localBytes = r.u32("the local memory size");
  if (k.localBytes % 4 || k.localBytes > kMaxLocalBytes)
    r.failAt(at, "local memory size " + std::to_string(k.localBytes) + " is not a multiple of 4 in [0, " +
                     std::to_string(kMaxLocalBytes) + "]");
  uint32_t np = r.u32("the parameter count");
  if (np > 4096) r.fail("parameter count out of range [0, 4096]");
  std::set<std::string> params;
  for (uint32_t i = 0; i < np; ++i) {
    at = r.pos_;
    std::string name = r.str("a parameter name");
    const std::string what = "parameter " + std::to_string(i + 1);
    if (!detail::validName(name)) r.failAt(at, what + kName);
    if (detail::reservedName(name)) r.failAt(at, what + ": '" + name + "' is reserved");
    if (!params.insert(name).second) r.failAt(at, what + ": '" + name + "' is already defined");
    k.params.push_back({name, i * 4});
  }
  uint32_t nl = r.u32("the label count");
  if (nl > (1u << 20)) r.fail("label count out of range");
  std::set<std::string> labels;
  std::vector<std::pair<uint32_t, size_t>> labelAt;  // PC and byte of each label, checked below
  for (uint32_t i = 0; i < nl; ++i) {
    at = r.pos_;
    uint32_t pc = r.u32("a label PC");
    std::string name = r.str("a label name");
    const std::string what = "label " + std::to_string(i + 1);
    if (!detail::validName(name)) r.failAt(at, what + kName);
    if (!labels.insert(name).second) r.failAt(at, what + ": '" + name + "' is already defined");
    if (k.labels.count(pc)) r.failAt(at, what + ": a second label at PC " + hexPc(pc));
    k.labels[pc] = name;
    labelAt.push_back({pc, at});
  }
  uint32_t n = r.u32("the instruction count");
  r.need(static_cast<size_t>(n) * 8, "the code");
  for (uint32_t i = 0; i < n; ++i) {
    at = r.pos_;
    uint64_t w = r.u64("an instruction");
    Instr in;
    if (!decode(w, in)) r.fail("invalid instruction word at PC " + std::to_string(i * 8));
    std::string why = nonCanonical(w, in);
    if (!why.empty())
      r.failAt(at, "the instruction at PC " + hexPc(Kernel::pcOf(i)) + " is not one the assembler writes: " + why);
    if (isLocal(in.op) && (k.localBytes == 0 || (!in.hasBase && static_cast<uint64_t>(in.off) + 4 > k.localBytes)))
      r.failAt(at, "the local access at PC " + hexPc(Kernel::pcOf(i)) + " is outside the kernel's " +
                       std::to_string(k.localBytes) + " bytes of .local");
    k.code.push_back(w);
    k.instrs.push_back(in);
    k.sourceLines.push_back(0);
  }
  if (r.pos_ != bytes.size()) r.fail("trailing bytes after the code");
  for (size_t i = 0; i < labelAt.size(); ++i) {
    const uint32_t pc = labelAt[i].first;
    if (pc % 8 || Kernel::indexOf(pc) >= k.size())
      r.failAt(labelAt[i].second, "label " + std::to_string(i + 1) + " is at PC " + hexPc(pc) + ", not an instruction of the kernel");
  }
  return k;
}

}  // namespace simtlm::isa
