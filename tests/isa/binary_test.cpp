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

namespace {

// The error deserializing `k`'s binary gives, or "" when it loads.
std::string binaryError(const Kernel& k) {
  try {
    deserializeKernel(serializeKernel(k), "k.bin");
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

}  // namespace

// Found by fuzz/fuzz_binary: names and metadata the assembler never writes were accepted, echoed
// raw into messages and listings, and disassembled to text that does not assemble.
TEST(Binary, MetadataTheAssemblerNeverWritesIsRejected) {
  // Layout of kSource's binary: name at byte 8, registers 16, shared size 20, local size 24,
  // parameters 28 (IN at 32, OUT at 38), labels 45 (the first at 49).
  const Kernel good = assemble(kSource, "copy.s");
  ASSERT_EQ(binaryError(good), "");
  Kernel k = good;
  k.name = "co\npy\x1b";
  EXPECT_EQ(binaryError(k), "k.bin: error: the kernel name is not a name ([A-Za-z_][A-Za-z0-9_]*) (at byte 8)");
  k = good;
  k.params[1].name = "r1";
  EXPECT_EQ(binaryError(k), "k.bin: error: parameter 2: 'r1' is reserved (at byte 38)");
  k = good;
  k.params[1].name = "IN";
  EXPECT_EQ(binaryError(k), "k.bin: error: parameter 2: 'IN' is already defined (at byte 38)");
  k = good;
  k.labels[64] = "radix2_\xff";
  EXPECT_EQ(binaryError(k), "k.bin: error: label 1 is not a name ([A-Za-z_][A-Za-z0-9_]*) (at byte 49)");
  k = good;
  k.labels[8] = "done";
  EXPECT_EQ(binaryError(k), "k.bin: error: label 2: 'done' is already defined (at byte 61)");
  k = good;
  k.labels[12] = "odd";
  EXPECT_EQ(binaryError(k), "k.bin: error: label 1 is at PC 0xc, not an instruction of the kernel (at byte 49)");
  k = good;
  k.labels[72] = "end";  // past the last instruction (PC 0x40)
  EXPECT_EQ(binaryError(k), "k.bin: error: label 2 is at PC 0x48, not an instruction of the kernel (at byte 61)");
  k = good;
  k.sharedBytes = 3;
  EXPECT_EQ(binaryError(k), "k.bin: error: shared memory size 3 is not a multiple of 4 in [0, 1048576] (at byte 20)");
  k = good;
  k.localBytes = 6;
  EXPECT_EQ(binaryError(k), "k.bin: error: local memory size 6 is not a multiple of 4 in [0, 524288] (at byte 24)");
}

// Found by fuzz/fuzz_binary: words the assembler never writes (a rule it enforces bypassed, or
// bits in fields the format does not use) loaded, and `simtlm disasm` then printed text that
// does not assemble, or that assembles to another word.
TEST(Binary, InstructionWordsTheAssemblerNeverWritesAreRejected) {
  const Kernel good = assemble(kSource, "copy.s");  // code at byte 65, one word per 8 bytes
  Kernel k = good;
  k.instrs[0].guardNeg = true;  // @!pt
  k.reencode();
  EXPECT_EQ(binaryError(k),
            "k.bin: error: the instruction at PC 0x0 is not one the assembler writes: '@!pt' would never "
            "execute (at byte 65)");
  k = good;
  k.instrs[7].d = 5;  // st.global has no destination register
  k.reencode();
  EXPECT_EQ(binaryError(k),
            "k.bin: error: the instruction at PC 0x38 is not one the assembler writes: it reads as "
            "'st.global.b32 [r3], r2', which assembles to another word (at byte 121)");
  k = good;
  k.instrs[1].guard = 3;  // @p3 shl.b32 r0, r0, 2: a guard is fine
  k.reencode();
  EXPECT_EQ(binaryError(k), "");
}
