// isa/ISA.md: its examples assemble and run, and its opcode tables list every opcode.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "tests/isa/semantics_cases.h"
#include "tests/isa/test_support.h"

namespace simtlm::test {

namespace {

// The ```asm blocks of ISA.md that define a kernel.
std::vector<std::string> docKernels() {
  std::string doc = readFile(std::string(SIMTLM_SOURCE_DIR) + "/isa/ISA.md");
  std::vector<std::string> out;
  size_t pos = 0;
  while ((pos = doc.find("```asm\n", pos)) != std::string::npos) {
    size_t start = pos + 7;
    size_t end = doc.find("```", start);
    if (end == std::string::npos) break;
    std::string block = doc.substr(start, end - start);
    if (block.find(".kernel") != std::string::npos) out.push_back(block);
    pos = end + 3;
  }
  return out;
}

std::string docKernel(const std::string& name) {
  for (const std::string& k : docKernels())
    if (k.find(".kernel " + name + "\n") != std::string::npos) return k;
  ADD_FAILURE() << "ISA.md has no example kernel '" << name << "'";
  return "";
}

}  // namespace

TEST(SemanticsDoc, ExamplesAssemble) {
  std::vector<std::string> kernels = docKernels();
  EXPECT_GE(kernels.size(), 5u);
  for (const std::string& k : kernels) EXPECT_NO_THROW(isa::assemble(k, "ISA.md")) << k;
}

TEST(SemanticsDoc, VecAddExampleIsTheWorkloadKernel) {
  isa::Kernel doc = isa::assemble(docKernel("vecadd"), "ISA.md");
  isa::Kernel file = assembleWorkloadKernel("vecadd.s");
  EXPECT_EQ(doc.code, file.code);
  EXPECT_EQ(doc.params.size(), file.params.size());
  EXPECT_EQ(doc.numRegs, file.numRegs);
}

TEST(SemanticsDoc, BlockSumAndHistogramExamplesRun) {
  std::vector<uint32_t> in(3 * 256);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = i * 7 + 1;
  RunResult r = runKernel(docKernel("blocksum"), {{"IN", in}, {"OUT", {0, 0, 0}}}, dim(3), dim(256));
  auto out = r["OUT"];
  for (uint32_t b = 0; b < 3; ++b) {
    uint32_t sum = 0;
    for (uint32_t i = 0; i < 256; ++i) sum += in[b * 256 + i];
    EXPECT_EQ(out[b], sum) << "block " << b;
  }
  const uint32_t n = 1000;
  std::vector<uint32_t> data(n), want(16, 0);
  for (uint32_t i = 0; i < n; ++i) {
    data[i] = i * 2654435761u;
    want[data[i] & 15]++;
  }
  RunResult h = runKernel(docKernel("histogram"), {{"IN", data}, {"BINS", std::vector<uint32_t>(16, 0)}},
                          dim(4), dim(256), 32, {n});
  EXPECT_EQ(h["BINS"], want);
}

TEST(SemanticsDoc, OpcodeTablesListEveryOpcode) {
  std::string doc = readFile(std::string(SIMTLM_SOURCE_DIR) + "/isa/ISA.md");
  ASSERT_FALSE(doc.empty());
  for (int i = 0; i < isa::kNumOps; ++i) {
    char row[64];
    std::snprintf(row, sizeof row, "| 0x%02x | `%s` |", i,
                  std::string(isa::info(static_cast<Op>(i)).name).c_str());
    EXPECT_NE(doc.find(row), std::string::npos) << "ISA.md lacks the row " << row;
  }
}

}  // namespace simtlm::test
