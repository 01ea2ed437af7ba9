#include "model/gpu/gpu.h"

#include <cstring>

#include "isa/cfg.h"
#include "isa/diagnostics.h"

namespace simtlm::gpu {

using namespace sc_core;

Gpu::Gpu(sc_module_name name, const config::GpuConfig& cfg, stats::Registry& stats)
    : sc_module(name), regs("regs"), irq("irq"),
      port("port", mem::MemPort::Config{cfg.tlm.mode == config::TlmMode::Lt
                                            ? mem::MemPort::Mode::LooselyTimed
                                            : mem::MemPort::Mode::ApproximatelyTimed,
                                        0}),
      cfg_(cfg), stats_(stats), period_(1.0e6 / cfg.gpu.core_clock_mhz, SC_PS), downstream_(port) {
  regs.irq(irq);
  regs.onLaunch = [this](const model::LaunchRegs& r) { launch(r); };
  for (int i = 0; i < cfg.gpu.num_sms; ++i) {
    const std::string p = "sm" + std::to_string(i);
    adapters_.push_back(std::make_unique<GlobalMemoryAdapter>(
        downstream_, static_cast<unsigned>(cfg.l1.line), static_cast<unsigned>(cfg.gpu.warp_size), 64,
        stats::Group(stats, p + ".coalescer")));
    sms_.push_back(std::make_unique<sm::SmCore>(i, cfg, *adapters_.back(), stats));
    sms_.back()->onBlockDone = [this](uint32_t) { blocksLeft_--; };
  }
  stats.add("gpu.cycles", cycle_, "cycles", "core cycles of the last kernel");
  SC_METHOD(clockTick);
  sensitive << start_;
  dont_initialize();
}

Gpu::~Gpu() = default;

void Gpu::launch(const model::LaunchRegs& r) {
  // Launch-time work of the driver: read the code and parameters, decode, find reconvergence.
  kernel_ = isa::Kernel{};
  kernel_.name = "kernel@" + std::to_string(r.entry);
  kernel_.numRegs = static_cast<int>(r.regsPerThread);
  kernel_.sharedBytes = r.sharedBytes;
  std::vector<unsigned char> code(static_cast<size_t>(r.numInstrs) * 8);
  isa::LaunchConfig l;
  l.grid = {r.grid[0], r.grid[1], r.grid[2]};
  l.block = {r.block[0], r.block[1], r.block[2]};
  l.warpSize = static_cast<uint32_t>(cfg_.gpu.warp_size);
  l.params.assign(r.paramWords, 0);
  if (port.debug_read(r.entry, code.data(), static_cast<unsigned>(code.size())) != code.size() ||
      (r.paramWords &&
       port.debug_read(r.paramAddr, reinterpret_cast<unsigned char*>(l.params.data()), r.paramWords * 4) !=
           r.paramWords * 4))
    return finish(model::ErrorCode::BadLaunch, "cannot read the kernel code or parameters from memory");
  for (uint32_t i = 0; i < r.numInstrs; ++i) {
    uint64_t w;
    std::memcpy(&w, &code[i * 8], 8);
    isa::Instr in;
    if (!isa::decode(w, in))
      return finish(model::ErrorCode::BadLaunch, "invalid instruction word at PC " + std::to_string(i * 8));
    kernel_.code.push_back(w);
    kernel_.instrs.push_back(in);
    kernel_.sourceLines.push_back(0);
  }
  for (uint32_t i = 0; i < r.paramWords; ++i) kernel_.params.push_back({"p" + std::to_string(i), i * 4});
  try {
    isa::checkKernel(kernel_);
    l.validate(kernel_);
  } catch (const std::exception& e) {
    return finish(model::ErrorCode::BadLaunch, e.what());
  }
  image_ = sm::KernelImage{};
  image_.kernel = &kernel_;
  image_.launch = l;
  image_.reconvergence = isa::Cfg(kernel_).reconvergenceTable();
  for (auto& sm : sms_) sm->startKernel(image_);
  if (!sms_[0]->canAdmit())
    return finish(model::ErrorCode::BadLaunch, "a block needs more resources than an SM has");
  totalBlocks_ = blocksLeft_ = l.grid.count();
  nextBlock_ = 0;
  cycle_ = lastProgress_ = 0;
  lastError_.clear();
  running_ = true;
  start_.notify(period_);
}

void Gpu::clockTick() {
  if (!running_) return;
  const isa::LaunchConfig& l = image_.launch;
  for (auto& sm : sms_)  // hand out blocks in linear order to SMs with room
    while (nextBlock_ < totalBlocks_ && sm->canAdmit()) {
      const uint64_t b = nextBlock_++;
      sm->admit(static_cast<uint32_t>(b), l.grid.blockIndex(b));
      lastProgress_ = cycle_;
    }
  bool progress = false;
  for (size_t i = 0; i < sms_.size(); ++i) {
    adapters_[i]->tick(cycle_);
    progress = sms_[i]->tick(cycle_) || progress;
    if (!sms_[i]->fault().empty()) return finish(model::ErrorCode::KernelFault, sms_[i]->fault());
  }
  if (progress || !port.idle()) lastProgress_ = cycle_;
  cycle_++;
  regs.setCycles(cycle_);
  if (blocksLeft_ == 0) return finish(model::ErrorCode::None, "");
  if (cycle_ - lastProgress_ > static_cast<uint64_t>(cfg_.watchdog.cycles)) {
    std::string e = "stuck: no progress for " + std::to_string(cfg_.watchdog.cycles) + " cycles\n";
    for (auto& sm : sms_) e += sm->describeWarps();
    return finish(model::ErrorCode::KernelFault, e);
  }
  next_trigger(period_);
}

void Gpu::finish(model::ErrorCode code, const std::string& error) {
  running_ = false;
  lastError_ = error;
  regs.complete(code, cycle_);
}

}  // namespace simtlm::gpu
