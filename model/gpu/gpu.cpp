#include "model/gpu/gpu.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "isa/cfg.h"
#include "isa/diagnostics.h"
#include "model/common/log.h"
#include "model/mechanisms/registry.h"

namespace simtlm::gpu {

using namespace sc_core;

namespace {

double nanoseconds() { return sc_time_stamp().to_seconds() * 1e9; }

using Unit = sm::GridEngine::Unit;

std::vector<const char*> unitNames() {
  std::vector<const char*> names;
  for (int u = 0; u < sm::GridEngine::kUnits; ++u) names.push_back(sm::GridEngine::unitName(static_cast<Unit>(u)));
  return names;
}

}  // namespace

// The SM modules and their units; with the systemc scheduling each unit's process runs on its
// unit's delta of the cycle (unitEvents_).
std::vector<std::unique_ptr<sm::SmModule>> Gpu::makeSms() {
  std::vector<const sc_event*> triggers;
  if (cfg_.sm.scheduling == config::SmScheduling::Systemc)
    for (const sc_event& e : unitEvents_) triggers.push_back(&e);
  std::vector<std::unique_ptr<sm::SmModule>> sms;
  for (int i = 0; i < cfg_.gpu.num_sms; ++i)
    sms.push_back(std::make_unique<sm::SmModule>(("sm" + std::to_string(i)).c_str(), unitNames(), triggers,
                                                 [this, i](int u) {
                                                   if (cycleOpen_) engine_->step(static_cast<size_t>(i), static_cast<Unit>(u));
                                                 }));
  return sms;
}

namespace {

std::vector<mem::Downstream*> memories(const std::vector<std::unique_ptr<sm::SmModule>>& sms) {
  std::vector<mem::Downstream*> m;
  for (const auto& sm : sms) m.push_back(&sm->memory());
  return m;
}

}  // namespace

Gpu::Gpu(sc_module_name name, const config::GpuConfig& cfg, stats::Registry& stats)
    : sc_module(name), regs("regs"), irq("irq"),
      port("port", mem::MemPort::Config{cfg.tlm.mode == config::TlmMode::Lt
                                            ? mem::MemPort::Mode::LooselyTimed
                                            : mem::MemPort::Mode::ApproximatelyTimed,
                                        0}),
      cfg_(cfg), stats_(stats), period_(1.0e6 / cfg.gpu.core_clock_mhz, SC_PS), downstream_(port),
      sm_bus_("sm_bus", downstream_, port), sms_(makeSms()), gate_(memories(sms_)),
      log_(log::get("gpu")) {
  regs.irq(irq);
  regs.onLaunch = [this](const model::LaunchRegs& r) { launch(r); };
  regs.onReset = [this] { softReset(); };
  build();
  SC_METHOD(clockTick);
  sensitive << start_;
  dont_initialize();
  if (cfg.sm.scheduling != config::SmScheduling::Systemc) return;
  SC_METHOD(nextUnit);
  for (const sc_event& e : unitEvents_) sensitive << e;
  dont_initialize();
  SC_METHOD(cycleEnd);
  sensitive << cycleEnd_;
  dont_initialize();
}

Gpu::~Gpu() = default;

void Gpu::before_end_of_elaboration() {
  for (size_t i = 0; i < sms_.size(); ++i) {
    sm::SmModule& sm = *sms_[i];
    if (!sm.bound()) {
      sm.to_memory.bind(sm_bus_.from_sms);  // AT, answered within the call: no delta cycle
      // The SM's port and the bus would only hand each request on to downstream_ and each
      // answer back within the call, costing no time: the gate sends there directly.
      gate_.reroute(static_cast<int>(i), downstream_);
    } else if (cfg_.tlm.mode == config::TlmMode::Lt) {
      sm.setMode(mem::MemPort::Mode::LooselyTimed);
    }
  }
}

void Gpu::build() {
  std::vector<sm::GlobalMemoryPort*> ports;
  std::vector<mem::Downstream*> code;
  for (int i = 0; i < cfg_.gpu.num_sms; ++i) {
    if (ldstFactory_)
      adapters_.push_back(ldstFactory_(i, gate_.route(i), stats_));
    else
      adapters_.push_back(std::make_unique<GlobalMemoryAdapter>(  // coalescer and L1 of SM i
          gate_.route(i), cfg_, sm::GlobalMemoryPort::kMaxResponses, stats_, "sm" + std::to_string(i)));
    if (!adapters_.back()) throw std::invalid_argument("Gpu::setLdStFactory: the factory built no LD/ST unit");
    ports.push_back(adapters_.back().get());
    // Instruction fetch: one I-cache per SM (built by the engine), filled through the same
    // memory socket as the SM's global path.
    code.push_back(&gate_.route(i));
  }
  sm::GridEngine::Parts parts;
  for (auto& sm : sms_)  // the systemc scheduling's sc_fifos
    if (sm->answers()) {
      parts.answers.push_back({sm->answers(), sm->answers()});
      parts.executeResults.push_back(sm->executeResults());
      parts.answerResults.push_back(sm->answerResults());
    }
  parts.schedulers = schedulerFactory_;
  parts.mechanism = mechanisms::factoryFor(cfg_);  // the GPU picks the SMs' mechanism, not the SMs
  engine_ = std::make_unique<sm::GridEngine>(cfg_, ports, code, stats_, parts);
  engine_->alternateSmOrder(true);  // the memory gate holds the SMs' requests
  if (cfg_.sm.scheduling == config::SmScheduling::Sequential) engine_->runSmsOn(cfg_.sim.threads, cfg_.sim.adapt_threads);  // (the same reason)
  engine_->watchMemory(&gate_);
  engine_->observe(smObserver_);  // (again after a fault's rebuild)
}

void Gpu::release() {
  port.drop_queued();
  gate_.dropAnswers();
  sm_bus_.release();  // after dropAnswers: the SMs' units never see these answers
  for (auto& sm : sms_) {
    sm->port.drop_queued();
    sm->drainAnswers();
  }
  answersToDrain_ = true;  // written in this delta cycle: readable, and drained, at the next clock
  cycleOpen_ = false;  // the rest of a systemc cycle's delta chain, if any, steps no unit
  stats_.beginRebuild();
  engine_.reset();  // the SMs use the adapters: they go first
  adapters_.clear();
  build();
  stats_.endRebuild();
}

void Gpu::setLdStFactory(LdStFactory factory) {
  if (sc_is_running()) throw std::logic_error("Gpu::setLdStFactory: only before the simulation starts");
  ldstFactory_ = std::move(factory);
  release();
}

void Gpu::setSchedulerFactory(sm::SchedulerFactory factory) {
  if (sc_is_running()) throw std::logic_error("Gpu::setSchedulerFactory: only before the simulation starts");
  schedulerFactory_ = std::move(factory);
  release();
}

void Gpu::softReset() {
  loads_++;  // the answers to a launch's timed code reads, if any, are no longer awaited
  release();
  running_ = false;  // a clock tick still due finds nothing to run
  lastError_.clear();
  lastCycles_ = 0;
}

void Gpu::checkBuffers(std::vector<std::pair<uint32_t, uint32_t>> buffers) {
  std::sort(buffers.begin(), buffers.end());
  buffers_ = std::move(buffers);
  checkBuffers_ = true;
}

void Gpu::launch(const model::LaunchRegs& r) {
  // Launch-time work of the driver: read the code and parameters, decode, find reconvergence.
  lastCycles_ = 0;
  char name[32];
  std::snprintf(name, sizeof name, "0x%08x", r.entry);
  name_ = name;  // the GPU sees code, not names: the kernel is named by its address
  const uint64_t id = ++loads_;
  code_.assign(static_cast<size_t>(r.numInstrs) * 8, 0);
  params_.assign(r.paramWords, 0);
  auto* params = reinterpret_cast<unsigned char*>(params_.data());
  if (port.debug_read(r.entry, code_.data(), static_cast<unsigned>(code_.size())) == code_.size() &&
      (!r.paramWords || port.debug_read(r.paramAddr, params, r.paramWords * 4) == r.paramWords * 4))
    return startKernel(r);
  // A target without debug transport (the Accellera examples'): timed reads, a line at most
  // each (as the I-caches' fills read code). The GPU stays busy until they are answered.
  auto left = std::make_shared<std::pair<int, bool>>(0, true);  // reads to come, all answered OK
  auto read = [&](uint64_t address, unsigned char* into, uint64_t bytes) {
    const uint64_t line = static_cast<uint64_t>(cfg_.frontend.icache_line);
    for (uint64_t a = address; a < address + bytes;) {
      const uint64_t end = std::min(address + bytes, (a / line + 1) * line);
      left->first++;
      port.read(a, static_cast<unsigned>(end - a), [this, id, r, left, into = into + (a - address)](const mem::MemResult& m) {
        if (id != loads_) return;  // reset since
        if (m.ok()) std::memcpy(into, m.data, m.size);
        left->second = left->second && m.ok();
        if (--left->first > 0) return;
        if (left->second) return startKernel(r);
        finish(model::ErrorCode::BadLaunch, "cannot read the kernel code or parameters from memory (debug transport "
                                            "moved no bytes and a timed read got an error response)");
      });
      a = end;
    }
  };
  read(r.entry, code_.data(), code_.size());
  read(r.paramAddr, params, uint64_t{r.paramWords} * 4);
}

void Gpu::startKernel(const model::LaunchRegs& r) {
  kernel_ = isa::Kernel{};
  kernel_.name = name_;
  kernel_.numRegs = static_cast<int>(r.regsPerThread);
  kernel_.sharedBytes = r.sharedBytes;
  kernel_.localBytes = r.localBytes;
  isa::LaunchConfig l;
  l.grid = {r.grid[0], r.grid[1], r.grid[2]};
  l.block = {r.block[0], r.block[1], r.block[2]};
  l.warpSize = static_cast<uint32_t>(cfg_.gpu.warp_size);
  l.params = params_;
  l.localBase = r.localAddr;
  for (uint32_t i = 0; i < r.numInstrs; ++i) {
    uint64_t w;
    std::memcpy(&w, &code_[i * 8], 8);
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
  image_.codeBase = r.entry;  // instruction fetch reads the code where the host placed it
  image_.checkBuffers = checkBuffers_;
  image_.buffers = buffers_;
  for (auto& a : adapters_) a->startKernel(engine_->now());  // L1s invalidated: the host may have written memory
  const std::string error = engine_->start(image_);
  if (!error.empty()) return finish(model::ErrorCode::BadLaunch, error);
  lastError_.clear();
  running_ = true;
  log_.debug("kernel {} launched at {:g} ns: grid ({},{},{}) of blocks ({},{},{}), {} instructions, {} registers "
             "per thread, {} bytes of shared memory", name_, nanoseconds(), l.grid.x, l.grid.y, l.grid.z, l.block.x,
             l.block.y, l.block.z, r.numInstrs, r.regsPerThread, r.sharedBytes);
  start_.notify(period_);
}

// One core cycle. Sequential scheduling: every SM's units, one SM after the other, here. The
// systemc scheduling: the cycle begins here; each unit's processes (all SMs') run one delta
// cycle after the previous unit's, paced by nextUnit(); cycleEnd() ends it.
void Gpu::clockTick() {
  if (!running_) return;
  gate_.beginCycle();
  if (cfg_.sm.scheduling == config::SmScheduling::Systemc) {
    if (answersToDrain_)
      for (auto& sm : sms_) sm->drainAnswers();
    answersToDrain_ = false;
    if (!engine_->beginCycle()) return gate_.endCycle();
    cycleOpen_ = true;
    unit_ = 0;
    unitEvents_[0].notify(SC_ZERO_TIME);
    return;
  }
  const sm::GridEngine::State st = engine_->tick();
  gate_.endCycle();
  if (afterCycle(st)) next_trigger(period_);
}

// Runs beside the processes of unit unit_, in their delta cycle.
void Gpu::nextUnit() {
  if (++unit_ < sm::GridEngine::kUnits) unitEvents_[static_cast<size_t>(unit_)].notify(SC_ZERO_TIME);
  else cycleEnd_.notify(SC_ZERO_TIME);
}

void Gpu::cycleEnd() {
  // Reset during the cycle: a kernel launched since starts on its own clock (startKernel).
  if (!running_ || !cycleOpen_) return gate_.endCycle();
  cycleOpen_ = false;
  const sm::GridEngine::State st = engine_->endCycle();
  gate_.endCycle();
  if (afterCycle(st)) start_.notify(period_);
}

// Whether the grid runs on.
bool Gpu::afterCycle(sm::GridEngine::State st) {
  lastCycles_ = engine_->cycles();
  regs.setCycles(lastCycles_);
  const bool ended = st == sm::GridEngine::State::Done || st == sm::GridEngine::State::Faulted;
  if (!cycleObservers_.empty()) engine_->settle();  // (they may read the SMs' statistics)
  for (const auto& observe : cycleObservers_) observe(lastCycles_, ended);
  if (st == sm::GridEngine::State::Done) return finish(model::ErrorCode::None, ""), false;
  if (st == sm::GridEngine::State::Faulted) return finish(model::ErrorCode::KernelFault, engine_->error()), false;
  return true;
}

void Gpu::finish(model::ErrorCode code, const std::string& error) {
  gate_.stopHolding();  // what came in the last cycle, and answers from now on as they come
  if (code == model::ErrorCode::None)
    log_.debug("kernel {} finished at {:g} ns after {} cycles", name_, nanoseconds(), lastCycles_);
  else  // the host reads the error, the command line prints it: info, not a second message by default
    log_.info("kernel {} stopped at {:g} ns after {} cycles (error code {}): {}", name_, nanoseconds(), lastCycles_,
              static_cast<int>(code), error.substr(0, error.find('\n')));
  running_ = false;
  lastError_ = error;
  if (code == model::ErrorCode::KernelFault) release();  // the next launch finds the GPU free
  regs.complete(code, lastCycles_);
}

}  // namespace simtlm::gpu
