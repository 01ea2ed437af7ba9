#include "model/sm/grid_runner.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "isa/cfg.h"
#include "isa/local_memory.h"
#include "isa/semantics.h"
#include "model/sm/grid_engine.h"

namespace simtlm::sm {

void IdealGlobalMemory::issue(const GlobalRequest& request) {
  const GlobalAccess& a = request.access;
  Pending p{now_ + static_cast<uint64_t>(latency_), {}, {}, request.id};
  const isa::OpInfo& oi = isa::info(a.op);
  for (int l = 0; l < 32 && p.error.empty(); ++l) {
    if (!(a.mask >> l & 1u)) continue;
    const uint32_t address = a.address(l);  // (from base and stride when compact)
    isa::GlobalMemory::Region* r = mem_.find(address, 4);
    if (!r) {
      char b[96];
      std::snprintf(b, sizeof b, "global memory access outside every buffer at 0x%x (lane %d)", address, l);
      p.error = b;
      break;
    }
    uint8_t* ptr = &r->bytes[address - r->base];
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
  if (!canAccept() && !pending_.empty() && pending_.front().at <= cycle) answered_++;  // it will accept again
  while (!pending_.empty() && pending_.front().at <= cycle) {
    GlobalResponse r{pending_.front().id, pending_.front().words, std::move(pending_.front().error)};
    pending_.pop_front();
    if (!responses_ || !responses_->nb_write(r))
      throw std::logic_error("IdealGlobalMemory: the SM's response channel is unbound or full");
  }
}

void IdealCodeMemory::read(uint64_t address, unsigned size, Done done) {
  reads_++;
  Pending p{now_ + static_cast<uint64_t>(std::max(0, latency_)), std::vector<unsigned char>(size, 0), false,
            std::move(done)};
  const uint64_t codeBytes = code_.size() * 8;
  for (unsigned i = 0; i < size; ++i) {
    const uint64_t a = address + i;
    if (a < base_ || a - base_ >= codeBytes) continue;
    const uint64_t off = a - base_;
    p.data[i] = static_cast<unsigned char>(code_[off / 8] >> (8 * (off % 8)));  // little endian
    p.ok = true;
  }
  pending_.push_back(std::move(p));
}

void IdealCodeMemory::write(uint64_t, const unsigned char*, const unsigned char*, unsigned, Done done) {
  pending_.push_back(Pending{now_ + static_cast<uint64_t>(std::max(0, latency_)), {}, false, std::move(done)});
}

void IdealCodeMemory::atomic(uint64_t, isa::Op, const mem::WordOps&, Done done) {
  pending_.push_back(Pending{now_ + static_cast<uint64_t>(std::max(0, latency_)), {}, false, std::move(done)});
}

void IdealCodeMemory::tick(uint64_t cycle) {
  now_ = cycle;
  while (!pending_.empty() && pending_.front().at <= cycle) {
    Pending p = std::move(pending_.front());
    pending_.pop_front();
    p.done(p.ok ? p.data.data() : nullptr, p.ok);
  }
}

GridResult runGrid(const config::GpuConfig& cfg, const isa::Kernel& kernel,
                   const isa::LaunchConfig& launch, isa::GlobalMemory& memory,
                   stats::Registry& stats, int memoryLatency, int codeLatency) {
  return runGrid(cfg, MechanismFactory{}, kernel, launch, memory, stats, memoryLatency,
                 codeLatency);
}

GridResult runGrid(const config::GpuConfig& cfg, const MechanismFactory& mechanism,
                   const isa::Kernel& kernel, const isa::LaunchConfig& launch,
                   isa::GlobalMemory& memory, stats::Registry& stats, int memoryLatency,
                   int codeLatency) {
  launch.validate(kernel);
  isa::checkKernel(kernel);
  KernelImage image;
  image.kernel = &kernel;
  image.launch = launch;
  isa::prepareLocal(memory, kernel, image.launch);  // as the interpreter: before the buffers are listed
  image.reconvergence = isa::Cfg(kernel).reconvergenceTable();
  image.checkBuffers = true;  // an access outside every buffer faults as on the interpreter
  for (const auto& r : memory.regions()) image.buffers.emplace_back(r.base, r.end());

  std::vector<std::unique_ptr<IdealGlobalMemory>> ports;
  std::vector<std::unique_ptr<IdealCodeMemory>> codeMems;
  std::vector<GlobalMemoryPort*> raw;
  std::vector<mem::Downstream*> code;
  for (int i = 0; i < cfg.gpu.num_sms; ++i) {
    ports.push_back(std::make_unique<IdealGlobalMemory>(memory, memoryLatency));
    raw.push_back(ports.back().get());
    codeMems.push_back(std::make_unique<IdealCodeMemory>(kernel.code, image.codeBase, codeLatency));
    code.push_back(codeMems.back().get());
  }
  GridEngine::Parts parts;
  parts.mechanism = mechanism;
  GridEngine engine(cfg, raw, code, stats, parts);
  GridResult r;
  r.error = engine.start(image);
  if (!r.error.empty()) return r;
  do {  // the instruction memories answer first, so a fill that is due is seen this cycle
    for (auto& c : codeMems) c->tick(engine.now());
  } while (engine.tick() == GridEngine::State::Running);
  r.cycles = engine.cycles();
  r.error = engine.error();
  stats.freeze();  // the SMs and ports owning the counters end here
  return r;
}

}  // namespace simtlm::sm
