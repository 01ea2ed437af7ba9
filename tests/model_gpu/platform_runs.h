// Kernel launches on platforms of their own in one simulation (SystemC elaborates once per
// process): independent GPUs, buses and DRAMs whose cycle counts do not affect each other.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "isa/interpreter.h"
#include "model/gpu/platform.h"

namespace simtlm::test {

// One kernel launch on its own platform.
struct Launch {
  config::GpuConfig cfg;
  const isa::Kernel* kernel = nullptr;
  isa::LaunchConfig launch;
  isa::GlobalMemory memory;
  stats::Registry stats;
  std::unique_ptr<gpu::Platform> top;

  uint64_t cycles() const { return top->host.result().cycles; }
  double stat(const std::string& name) const {
    auto v = stats.value(name);
    EXPECT_TRUE(v.has_value()) << "no statistic " << name;
    return v.value_or(-1);
  }
};

// Builds one platform per run, simulates until every host driver is done, checks each run
// completed without error.
inline void simulate(std::vector<std::unique_ptr<Launch>>& runs) {
  int finished = 0;
  const int total = static_cast<int>(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    Launch* r = runs[i].get();
    r->top = std::make_unique<gpu::Platform>(("top" + std::to_string(i)).c_str(), r->cfg, r->stats,
                                             [r, done = false](gpu::HostJob& job) mutable {
                                               if (done) return false;
                                               done = true;
                                               job = gpu::HostJob{r->kernel, r->launch, &r->memory};
                                               return true;
                                             });
    r->top->host.onFinished = [&finished, total] {
      if (++finished == total) sc_core::sc_stop();
    };
  }
  sc_core::sc_start();
  for (auto& r : runs) {
    ASSERT_TRUE(r->top->host.result().done) << r->top->host.result().error;
    ASSERT_EQ(r->top->host.result().errorCode, 0u) << r->top->gpu.lastError();
  }
}

}  // namespace simtlm::test
