#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "workloads/workload.h"

using namespace simtlm;

TEST(Smoke, VecAddSmall) {
  auto w = workloads::makeWorkload("vecadd", {{"n", 1000}});
  auto k = workloads::loadKernel(*w);
  isa::GlobalMemory mem;
  auto l = w->setup(mem);
  isa::Interpreter(k, mem).run(l);
  EXPECT_EQ(w->verify(mem), "");
}
