#include "isa/kernel.h"

#include <cstdio>

#include "isa/diagnostics.h"
#include "isa/liveness.h"

namespace simtlm::isa {

void Kernel::reencode() {
  code.resize(instrs.size());
  for (size_t i = 0; i < instrs.size(); ++i) code[i] = encode(instrs[i]);
}

void checkKernel(const Kernel& k) {
  auto fail = [&](size_t i, const std::string& what) {
    char pc[16];
    std::snprintf(pc, sizeof pc, "0x%zx", i * 8);
    throw ExecError("kernel '" + k.name + "' at PC " + pc + ": " + what);
  };
  if (k.numRegs < 1 || k.numRegs > kMaxRegs) fail(0, "register count outside [1, 64]");
  if (k.localBytes % 4 || k.localBytes > kMaxLocalBytes) fail(0, "local size outside [0, 524288] or not a multiple of 4");
  for (size_t i = 0; i < k.size(); ++i) {
    const Instr& in = k.instrs[i];
    RegSet regs = usesOf(in) | writesOf(in);
    if (k.numRegs < kMaxRegs && regs.gpr >> k.numRegs)  // (a shift by 64 is undefined)
      fail(i, "unknown register r" + std::to_string(63 - __builtin_clzll(regs.gpr)) +
                  " (the kernel declares " + std::to_string(k.numRegs) + ")");
    if (writesPred(info(in.op).format) && in.d >= kNumPreds) fail(i, "pt cannot be written");
    if (info(in.op).format == Format::Special && in.a >= kNumSpecials) fail(i, "unknown special register");
    if (in.op == Op::BRA && (in.imm % 8 || Kernel::indexOf(in.imm) >= k.size()))
      fail(i, "branch target outside the kernel");
    if (in.op == Op::BAR_SYNC && in.imm > 15) fail(i, "barrier id outside [0, 15]");
    if (isLocal(in.op) && k.localBytes == 0) fail(i, "local access in a kernel without .local");
    if (isLocal(in.op) && !in.hasBase && static_cast<uint64_t>(in.off) + 4 > k.localBytes)
      fail(i, "local offset " + std::to_string(in.off) + " outside the kernel's " + std::to_string(k.localBytes) +
                  " local bytes");
  }
}

}  // namespace simtlm::isa
