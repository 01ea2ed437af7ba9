// The kernel binary file and the checks every loaded kernel goes through.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/binary.h"
#include "isa/diagnostics.h"
#include "isa/interpreter.h"

using namespace simtlm;
using namespace simtlm::isa;

namespace {

const char* kSource = R"(
.kernel copy
.regs 4
.shared 64
.param IN
.param OUT
  s2r r0, %tid.x
  shl.b32 r0, r0, 2
  ld.param.b32 r1, [IN]
  add.u32 r1, r1, r0
  ld.global.b32 r2, [r1]   {darsie=cr, bow=both}
  ld.param.b32 r3, [OUT]
  add.u32 r3, r3, r0
  st.global.b32 [r3], r2
done:
  exit
)";

}  // namespace

TEST(Binary, RoundTripKeepsCodeAndMetadata) {
  Kernel k = assemble(kSource, "copy.s");
  Kernel back = deserializeKernel(serializeKernel(k), "copy.bin");
  EXPECT_EQ(back.name, "copy");
  EXPECT_EQ(back.code, k.code);
  EXPECT_EQ(back.numRegs, 4);
  EXPECT_EQ(back.sharedBytes, 64u);
  ASSERT_EQ(back.params.size(), 2u);
  EXPECT_EQ(back.params[1].name, "OUT");
  EXPECT_EQ(back.params[1].offset, 4u);
  EXPECT_EQ(back.labels.at(64), "done");
  EXPECT_EQ(back.instrs[4].darsie, Redundancy::Conditional);
  EXPECT_EQ(back.instrs[4].bow, BowHint::Both);
}

TEST(Binary, MalformedFilesAreInputErrors) {
  std::string good = serializeKernel(assemble(kSource, "copy.s"));
  EXPECT_THROW(deserializeKernel("", "a.bin"), InputError);
  EXPECT_THROW(deserializeKernel("NOTSIMTLMKERNEL", "a.bin"), InputError);
  for (size_t cut : {size_t{8}, size_t{12}, good.size() / 2, good.size() - 1})
    EXPECT_THROW(deserializeKernel(good.substr(0, cut), "a.bin"), InputError) << cut;
  EXPECT_THROW(deserializeKernel(good + "x", "a.bin"), InputError);
  try {
    deserializeKernel(good.substr(0, good.size() - 3), "trunc.bin");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("trunc.bin: error: truncated binary"), std::string::npos) << e.what();
  }
}

TEST(Binary, UnknownRegisterStopsTheRunNamingThePc) {
  Kernel k = assemble(kSource, "copy.s");
  k.numRegs = 3;  // r3 is now outside the declared registers
  GlobalMemory mem;
  try {
    Interpreter interp(k, mem);
    FAIL() << "expected an error";
  } catch (const ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("at PC 0x28: unknown register r3 (the kernel declares 3)"),
              std::string::npos) << e.what();
  }
}

TEST(Binary, BranchOutsideTheKernelIsRejected) {
  Kernel k = assemble(".kernel b\n  bra end\nend:\n  exit\n", "b.s");
  k.instrs[0].imm = 800;
  k.reencode();
  GlobalMemory mem;
  EXPECT_THROW(Interpreter(k, mem), ExecError);
}
