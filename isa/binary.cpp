#include "isa/binary.h"

#include <cstring>

#include "isa/diagnostics.h"

namespace simtlm::isa {
namespace {

constexpr char kMagic[8] = {'S', 'I', 'M', 'T', 'L', 'M', 'K', '1'};

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
  [[noreturn]] void fail(const std::string& m) {
    throw InputError(f_, 0, 0, m + " (at byte " + std::to_string(pos_) + ")");
  }
  size_t pos_ = 0;

 private:
  const std::string& b_;
  const std::string& f_;
};

}  // namespace

std::string serializeKernel(const Kernel& k) {
  std::string s(kMagic, 8);
  putStr(s, k.name);
  put32(s, static_cast<uint32_t>(k.numRegs));
  put32(s, k.sharedBytes);
  put32(s, static_cast<uint32_t>(k.params.size()));
  for (const auto& p : k.params) putStr(s, p.name);
  put32(s, static_cast<uint32_t>(k.labels.size()));
  for (const auto& [pc, name] : k.labels) { put32(s, pc); putStr(s, name); }
  put32(s, static_cast<uint32_t>(k.code.size()));
  for (uint64_t w : k.code) { put32(s, static_cast<uint32_t>(w)); put32(s, static_cast<uint32_t>(w >> 32)); }
  return s;
}

Kernel deserializeKernel(const std::string& bytes, const std::string& fileName) {
  Reader r(bytes, fileName);
  r.need(8, "the magic number");
  if (std::memcmp(bytes.data(), kMagic, 8) != 0) r.fail("not a simtlm kernel binary (bad magic)");
  r.pos_ = 8;
  Kernel k;
  k.name = r.str("the kernel name");
  k.sourceFile = fileName;
  k.numRegs = static_cast<int>(r.u32("the register count"));
  if (k.numRegs < 1 || k.numRegs > kMaxRegs) r.fail("register count out of range [1, 64]");
  k.sharedBytes = r.u32("the shared memory size");
  uint32_t np = r.u32("the parameter count");
  if (np > 4096) r.fail("parameter count out of range [0, 4096]");
  for (uint32_t i = 0; i < np; ++i) k.params.push_back({r.str("a parameter name"), i * 4});
  uint32_t nl = r.u32("the label count");
  if (nl > (1u << 20)) r.fail("label count out of range");
  for (uint32_t i = 0; i < nl; ++i) {
    uint32_t pc = r.u32("a label PC");
    k.labels[pc] = r.str("a label name");
  }
  uint32_t n = r.u32("the instruction count");
  r.need(static_cast<size_t>(n) * 8, "the code");
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t w = r.u64("an instruction");
    Instr in;
    if (!decode(w, in)) r.fail("invalid instruction word at PC " + std::to_string(i * 8));
    k.code.push_back(w);
    k.instrs.push_back(in);
    k.sourceLines.push_back(0);
  }
  if (r.pos_ != bytes.size()) r.fail("trailing bytes after the code");
  return k;
}

}  // namespace simtlm::isa
