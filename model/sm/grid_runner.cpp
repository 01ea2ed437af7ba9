#include "model/sm/grid_runner.h"

#include <cstdio>
#include <cstring>

#include "isa/cfg.h"
#include "isa/semantics.h"

namespace simtlm::sm {

void IdealGlobalMemory::issue(const GlobalAccess& a, Done done) {
  Pending p{now_ + static_cast<uint64_t>(latency_), {}, {}, std::move(done)};
  const isa::OpInfo& oi = isa::info(a.op);
  for (int l = 0; l < 32 && p.error.empty(); ++l) {
    if (!(a.mask >> l & 1u)) continue;
    isa::GlobalMemory::Region* r = mem_.find(a.addr[l], 4);
    if (!r) {
      char b[96];
      std::snprintf(b, sizeof b, "global memory access outside every buffer at 0x%x (lane %d)", a.addr[l], l);
      p.error = b;
      break;
    }
    uint8_t* ptr = &r->bytes[a.addr[l] - r->base];
    if (oi.format == isa::Format::Store) {
      std::memcpy(ptr, &a.data[l], 4);
      continue;
    }
    std::memcpy(&p.words[l], ptr, 4);
    if (oi.format != isa::Format::Load) {  // atomics: read-modify-write in lane order
      uint32_t nw = isa::evalLane(a.op, p.words[l], a.data[l], a.data2[l]);
      std::memcpy(ptr, &nw, 4);
    }
  }
  pending_.push_back(std::move(p));
}

void IdealGlobalMemory::tick(uint64_t cycle) {
  now_ = cycle;
  while (!pending_.empty() && pending_.front().at <= cycle) {
    Pending p = std::move(pending_.front());
    pending_.pop_front();
    p.done(p.words.data(), p.error);
  }
}

GridResult runGrid(const config::GpuConfig& cfg, const isa::Kernel& kernel,
                   const isa::LaunchConfig& launch, isa::GlobalMemory& memory,
                   stats::Registry& stats, int memoryLatency) {
  launch.validate(kernel);
  isa::checkKernel(kernel);
  KernelImage image;
  image.kernel = &kernel;
  image.launch = launch;
  image.reconvergence = isa::Cfg(kernel).reconvergenceTable();

  const int n = cfg.gpu.num_sms;
  std::vector<std::unique_ptr<IdealGlobalMemory>> ports;
  std::vector<std::unique_ptr<SmCore>> sms;
  uint64_t remaining = launch.grid.count();
  for (int i = 0; i < n; ++i) {
    ports.push_back(std::make_unique<IdealGlobalMemory>(memory, memoryLatency));
    sms.push_back(std::make_unique<SmCore>(i, cfg, *ports.back(), stats));
    sms.back()->startKernel(image);
    sms.back()->onBlockDone = [&](uint32_t) { remaining--; };
  }
  GridResult r;
  if (!sms[0]->canAdmit()) {
    r.error = "a block of kernel '" + kernel.name + "' needs more resources than an SM has";
    return r;
  }
  uint64_t next = 0, lastProgress = 0;
  const uint64_t total = launch.grid.count();
  for (uint64_t cycle = 0;; ++cycle) {
    for (auto& sm : sms)  // hand out blocks in linear order to SMs with room
      while (next < total && sm->canAdmit()) {
        sm->admit(static_cast<uint32_t>(next), launch.grid.blockIndex(next));
        next++;
        lastProgress = cycle;
      }
    bool progress = false;
    for (int i = 0; i < n; ++i) {
      ports[i]->tick(cycle);
      progress = sms[i]->tick(cycle) || progress;
      if (!sms[i]->fault().empty()) {
        r.cycles = cycle + 1;
        r.error = "kernel '" + kernel.name + "': " + sms[i]->fault();
        return r;
      }
    }
    if (progress) lastProgress = cycle;
    if (remaining == 0) {
      r.cycles = cycle + 1;
      return r;
    }
    if (cycle - lastProgress > static_cast<uint64_t>(cfg.watchdog.cycles)) {
      r.cycles = cycle + 1;
      r.error = "kernel '" + kernel.name + "' is stuck: no progress for " +
                std::to_string(cfg.watchdog.cycles) + " cycles\n";
      for (auto& sm : sms) r.error += sm->describeWarps();
      return r;
    }
  }
}

}  // namespace simtlm::sm
