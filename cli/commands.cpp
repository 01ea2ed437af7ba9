#include "cli/commands.h"

#include <iostream>

#include "workloads/workload.h"

namespace simtlm::cli {

int run(int, char**) {
  auto w = workloads::makeWorkload("matmul");
  auto k = workloads::loadKernel(*w);
  isa::GlobalMemory mem;
  auto l = w->setup(mem);
  isa::Interpreter interp(k, mem);
  auto c = interp.run(l);
  std::cout << c.warpInstructions << " " << c.threadInstructions << " " << w->verify(mem) << "\n";
  return 0;
}

}  // namespace simtlm::cli
