#include "model/sm/grid_runner.h"

#include <cstdio>
#include <cstring>

#include "isa/cfg.h"
#include "isa/semantics.h"
#include "model/sm/grid_engine.h"

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

  std::vector<std::unique_ptr<IdealGlobalMemory>> ports;
  std::vector<GlobalMemoryPort*> raw;
  for (int i = 0; i < cfg.gpu.num_sms; ++i) {
    ports.push_back(std::make_unique<IdealGlobalMemory>(memory, memoryLatency));
    raw.push_back(ports.back().get());
  }
  GridEngine engine(cfg, raw, stats);
  GridResult r;
  r.error = engine.start(image);
  if (!r.error.empty()) return r;
  while (engine.tick() == GridEngine::State::Running) {
  }
  r.cycles = engine.cycles();
  r.error = engine.error();
  stats.freeze();  // the SMs and ports owning the counters end here
  return r;
}

}  // namespace simtlm::sm
