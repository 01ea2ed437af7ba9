#include "model/sm/grid_engine.h"

#include <algorithm>
#include <stdexcept>

#include "model/common/fork_join.h"
#include "model/common/log.h"

namespace simtlm::sm {

// step() maps the SM's own units onto SmCore's steps by position.
static_assert(static_cast<int>(GridEngine::Unit::Fetch) - static_cast<int>(GridEngine::Unit::Answers) ==
              static_cast<int>(SmCore::Step::Fetch));
static_assert(GridEngine::kUnits == 2 + SmCore::kSteps);

GridEngine::GridEngine(const config::GpuConfig& cfg, const std::vector<GlobalMemoryPort*>& ports,
                       const std::vector<mem::Downstream*>& code, stats::Registry& stats, const Parts& parts)
    : cfg_(cfg), ports_(ports), mechanismRegs_(parts.mechanism.resources.regsName) {
  // The SMs cannot look the configured mechanism up themselves: running one without it would
  // silently be the baseline.
  const bool named = cfg.mechanism != config::Mechanism::Baseline || !cfg.composition.empty();
  if (named && !parts.mechanism.attach)
    throw std::invalid_argument("GridEngine: the configuration names a mechanism, but none was "
                                "given to attach (Parts::mechanism, mechanisms::factoryFor)");
  const std::vector<AnswerChannel>& answers = parts.answers;
  if (code.size() != ports_.size() || (!answers.empty() && answers.size() != ports_.size()))
    throw std::invalid_argument("GridEngine: one instruction memory (and answer channel, if any) per SM is needed");
  for (size_t i = 0; i < ports_.size(); ++i) {
    icaches_.push_back(std::make_unique<frontend::ICache>(
        cfg.frontend, *code[i], stats::Group(stats, "sm" + std::to_string(i) + ".icache")));
    updates_.push_back(std::make_unique<UpdateList>());
    AnswerChannel channel = answers.empty() ? AnswerChannel{nullptr, nullptr} : answers[i];
    if (!channel.in) {
      answerRegs_.push_back(std::make_unique<PipelineRegister<GlobalResponse>>(
          "sm" + std::to_string(i) + ".ldst_answers", GlobalMemoryPort::kMaxResponses, *updates_.back()));
      channel = {answerRegs_.back().get(), answerRegs_.back().get()};
    }
    ports_[i]->bind(*channel.out);
    const auto results = [&](const std::vector<ResultChannel>& given, const char* name) {
      if (!given.empty()) return given.at(i);
      resultRegs_.push_back(std::make_unique<PipelineRegister<PendingResult>>(
          "sm" + std::to_string(i) + "." + name, kMaxResultsPerStep, *updates_.back()));
      return ResultChannel{resultRegs_.back().get(), resultRegs_.back().get()};
    };
    const SmCore::Channels channels{channel.in, results(parts.executeResults, "execute_results"),
                                    results(parts.answerResults, "answer_results"), updates_.back().get()};
    sms_.push_back(std::make_unique<SmCore>(static_cast<int>(i), cfg, *ports_[i], channels, *icaches_[i], stats,
                                            parts.mechanism, parts.schedulers));
    sms_.back()->onBlockDone = [this, i](uint32_t block) {  // (on SM i's thread: its own counter)
      retired_[i]++;
      logBlock(i, block, "retired");
    };
    smLogs_.push_back(&log::get("gpu.sm" + std::to_string(i)));
  }
  clocked_.assign(sms_.size(), 0);
  parked_.assign(sms_.size(), 0);
  retired_.assign(sms_.size(), 0);
  for (size_t i = 0; i < sms_.size(); ++i)  // read, for the instruction limit, where the SM counts
    for (const auto& e : stats.entries())
      if (e.counter && e.name == "sm" + std::to_string(i) + ".issue.warp_instructions") issued_.push_back(e.counter);
  stats.add("gpu.cycles", totalCycles_, "cycles", "core cycles of every grid run, summed");
  stats.add("gpu.kernels", kernels_, "kernels", "grids started");
  stats.add("gpu.gated_sm_cycles", gatedCycles_, "cycles",
            "SM cycles not clocked because the SM had no resident block and none left to receive");
  // The GPU's CPI stack: every SM's, with its gated cycles as idle; the categories sum to
  // gpu.cycles x SMs x issue.schedulers.
  for (int c = 0; c < kCpiCategories; ++c) {
    const CpiCategoryInfo& info = cpiInfo(static_cast<CpiCategory>(c));
    const uint64_t schedulers = static_cast<uint64_t>(cfg.issue.schedulers);
    stats.addDerived(
        std::string("gpu.cpi.") + info.name,
        [this, c, schedulers] {
          uint64_t n = c == static_cast<int>(CpiCategory::Idle) ? gatedCycles_ * schedulers : 0;
          for (const auto& sm : sms_) n += sm->cpi()[static_cast<size_t>(c)];
          return static_cast<double>(n);
        },
        "cycles", std::string("every SM's sm<N>.cpi.") + info.name + (c == static_cast<int>(CpiCategory::Idle) ? ", and gpu.gated_sm_cycles x issue.schedulers" : "") + ", summed");
  }
}

GridEngine::~GridEngine() = default;

void GridEngine::runSmsOn(int threads, bool adapt) {
  if (threads < 0) throw std::invalid_argument("GridEngine::runSmsOn: threads must be 0 or more");
  if (threads == 0) threads = common::ForkJoinPool::hostCores();
  threads = std::max(1, std::min(threads, numSms()));
  pool_.reset();
  if (threads == 1) return;
  pool_ = std::make_unique<common::ForkJoinPool>(threads);
  chooser_ = ThreadChooser(adapt);
  threadResults_.assign(static_cast<size_t>(threads), ThreadResult{});
  recorders_.resize(sms_.size());
}

std::string GridEngine::start(const KernelImage& image) {
  image_ = image;
  for (auto& ic : icaches_) ic->invalidate();  // the host may have placed new code
  for (auto& sm : sms_) sm->startKernel(image_, cycle_);
  if (!sms_.empty() && !sms_[0]->canAdmit()) {
    state_ = State::Idle;
    return "a block of kernel '" + image.kernel->name + "' needs more resources than an SM has: " + shortfall();
  }
  totalBlocks_ = blocksLeft_ = image_.launch.grid.count();
  std::fill(parked_.begin(), parked_.end(), 0);
  nextBlock_ = 0;
  lastPlaced_ = sms_.empty() ? 0 : sms_.size() - 1;  // (block 0 goes to SM 0)
  startCycle_ = lastProgress_ = cycle_;
  error_.clear();
  state_ = State::Running;
  kernels_++;
  return "";
}

GridEngine::State GridEngine::tick() {
  if (state_ != State::Running) return state_;
  const bool blocksToHandOut = handOutBlocks();
  progress_ = false;
  // SM after SM; with alternateSmOrder(), in alternating directions.
  const size_t n = sms_.size();
  const bool backwards = alternate_ && (cycle_ & 1);
  if (pool_) {
    chooser_.cycleDone();
    if (chooser_.parallel()) {
      tickParallel(blocksToHandOut);
      return endCycle();
    }
  }
  for (size_t k = 0; k < n; ++k)  // (beginCycle's gating and every step)
    progress_ = tickSm(backwards ? n - 1 - k : k, blocksToHandOut, gatedCycles_) || progress_;
  return endCycle();
}

inline bool GridEngine::tickSm(size_t i, bool blocksToHandOut, uint64_t& gated) {
  if (parked_[i]) {
    gated++;
    return false;
  }
  SmCore& sm = *sms_[i];
  if (sm.idle() && ports_[i]->idle() && icaches_[i]->idle() && !blocksToHandOut) {
    parked_[i] = 1;  // (no block left to hand out: gated to the grid's end)
    gated++;
    return false;
  }
  bool progress = icaches_[i]->tick(cycle_);  // fills answered before this cycle's fetch
  ports_[i]->tick(cycle_);
  if (!updates_[i]->empty()) updates_[i]->commit();  // the LD/ST unit's responses, for the SM's answers step
  if (sm.restsIn(cycle_)) return progress;  // (its counts wait for SmCore::settle)
  progress = sm.tick(cycle_) || progress;
  if (!updates_[i]->empty()) updates_[i]->commit();  // what the answers step read frees room, as in sc_fifo
  return progress;
}

// Thread t runs SMs t, t + T, t + 2T, ... (T threads), in the cycle's direction: blocks are
// handed out breadth-first, so a grid smaller than the GPU still busies every thread. An
// observer's events are recorded per SM and replayed in the order of the one-thread loop above.
void GridEngine::tickParallel(bool blocksToHandOut) {
  const size_t n = sms_.size(), threads = threadResults_.size();
  const bool backwards = alternate_ && (cycle_ & 1);
  if (observer_)
    for (size_t i = 0; i < n; ++i) sms_[i]->setObserver(&recorders_[i]);
  auto body = [&](int t) {
    const size_t first = static_cast<size_t>(t), count = (n - first + threads - 1) / threads;
    ThreadResult& r = threadResults_[first];
    for (size_t k = 0; k < count; ++k)
      r.progress = tickSm(first + threads * (backwards ? count - 1 - k : k), blocksToHandOut, r.gated) || r.progress;
  };
  pool_->run(body);
  for (ThreadResult& r : threadResults_) {
    gatedCycles_ += r.gated;
    progress_ = progress_ || r.progress;
    r = ThreadResult{};
  }
  if (!observer_) return;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = backwards ? n - 1 - k : k;
    sms_[i]->setObserver(observer_);
    recorders_[i].replayInto(*observer_);
  }
}

bool GridEngine::beginCycle() {
  if (state_ != State::Running) return false;
  const bool blocksToHandOut = handOutBlocks();
  for (size_t i = 0; i < sms_.size(); ++i) {
    clocked_[i] = !(sms_[i]->idle() && ports_[i]->idle() && icaches_[i]->idle() && !blocksToHandOut);
    if (!clocked_[i]) gatedCycles_++;
  }
  progress_ = false;
  return true;
}

// Blocks in linear order to SMs with room; whether some are left to hand out.
// Breadth-first (GPGPU-Sim's issue_block2core: each SM cluster takes at most one block per
// cycle, the clusters in round robin): each cycle, while blocks are left, the SM with the fewest
// resident blocks that can take one and has not yet taken one this cycle, ties going to the first
// after the SM that took the last block. Fill-first: every block an SM has room for, SM after SM.
bool GridEngine::handOutBlocks() {
  if (nextBlock_ >= totalBlocks_) return false;
  auto place = [&](size_t i) {
    const uint64_t b = nextBlock_++;
    sms_[i]->admit(static_cast<uint32_t>(b), image_.launch.grid.blockIndex(b), cycle_);
    lastProgress_ = cycle_;
    logBlock(i, b, "admitted");
  };
  const size_t n = sms_.size();
  if (cfg_.gpu.block_placement == config::BlockPlacement::FillFirst) {
    for (size_t i = 0; i < n; ++i)
      while (nextBlock_ < totalBlocks_ && sms_[i]->canAdmit()) place(i);
    return nextBlock_ < totalBlocks_;
  }
  placedThisCycle_.assign(n, 0);
  while (nextBlock_ < totalBlocks_) {
    size_t best = n;
    for (size_t k = 1; k <= n; ++k) {
      const size_t i = (lastPlaced_ + k) % n;
      if (placedThisCycle_[i] || (best < n && sms_[i]->residentBlocks() >= sms_[best]->residentBlocks())) continue;
      if (sms_[i]->canAdmit()) best = i;
    }
    if (best == n) break;
    place(best);
    placedThisCycle_[best] = 1;
    lastPlaced_ = best;
  }
  return nextBlock_ < totalBlocks_;
}

void GridEngine::step(size_t i, Unit u) {
  if (!clocked_[i]) return;
  SmCore& sm = *sms_[i];
  switch (u) {
    case Unit::ICache: progress_ = icaches_[i]->tick(cycle_) || progress_; break;
    case Unit::LdSt:
      ports_[i]->tick(cycle_);
      if (!updates_[i]->empty()) updates_[i]->commit();
      break;
    case Unit::Answers:
      if (!sm.restsIn(cycle_) && sm.beginCycle(cycle_)) sm.step(SmCore::Step::Answers);
      if (!updates_[i]->empty()) updates_[i]->commit();
      break;
    case Unit::Fetch:
      sm.step(SmCore::Step::Fetch);
      progress_ = sm.endCycle() || progress_;
      break;
    default: sm.step(static_cast<SmCore::Step>(static_cast<int>(u) - static_cast<int>(Unit::Answers)));
  }
}

// After every SM's units: the first SM (in SM order) that faulted in this cycle ends the grid.
GridEngine::State GridEngine::endCycle() {
  for (uint64_t& r : retired_) {
    blocksLeft_ -= r;
    r = 0;
  }
  for (auto& sm : sms_)
    if (!sm->fault().empty()) {
      cycle_++;
      totalCycles_++;
      fail("kernel '" + image_.kernel->name + "': " + sm->fault());
      settle();
      return state_;
    }
  bool progress = progress_;
  if (memory_ && memory_->answers() != memoryAnswers_) {  // a slow memory is still progress
    memoryAnswers_ = memory_->answers();
    progress = true;
  }
  if (progress) lastProgress_ = cycle_;
  cycle_++;
  totalCycles_++;
  if (std::string limit = limitReached(); !limit.empty()) {  // a run that needs one cycle more fails
    for (auto& sm : sms_) limit += sm->describeWarps();
    fail(limit);
  } else if (blocksLeft_ == 0) {
    state_ = State::Done;
  } else if (cycle_ - lastProgress_ > static_cast<uint64_t>(cfg_.watchdog.cycles)) {
    fail(stuckReport());
  }
  if (state_ != State::Running) settle();  // the grid's statistics are read now
  return state_;
}

void GridEngine::settle() {
  for (auto& sm : sms_) sm->settle(cycle_);
}

const char* GridEngine::unitName(Unit u) {
  static const char* const names[kUnits] = {"icache", "ldst", "answers", "writeback",
                                            "execute", "operands", "issue", "fetch"};
  return names[static_cast<int>(u)];
}

// Whether memory or the SMs stopped, then every waiting warp.
std::string GridEngine::stuckReport() const {
  const std::string n = std::to_string(cfg_.watchdog.cycles);
  std::string e = "kernel '" + image_.kernel->name + "' is stuck: ";
  if (memory_ && memory_->outstanding() > 0)
    e += "memory has answered nothing for " + n + " cycles (watchdog.cycles) with " +
         std::to_string(memory_->outstanding()) +
         " transactions outstanding, and no warp could go on: slow or unresponsive memory\n";
  else
    e += "no progress for " + n + " cycles (watchdog.cycles)" +
         (memory_ ? ": no warp went on and memory owes no answer\n" : "\n");
  for (auto& sm : sms_) e += sm->describeWarps();
  return e;
}

// Which resource an empty SM lacks for one block of image_, how much is needed and how much
// there is (the checks of SmCore::canAdmit, in its order).
std::string GridEngine::shortfall() const {
  const isa::Kernel& k = *image_.kernel;
  const uint64_t W = image_.launch.warpSize, threads = image_.launch.block.count();
  const uint64_t warps = (threads + W - 1) / W;
  const uint64_t regs = warps * W * static_cast<uint64_t>(k.numRegs);
  const auto n = [](uint64_t v) { return std::to_string(v); };
  if (warps > static_cast<uint64_t>(cfg_.sm.num_warps))
    return "warps: " + n(warps) + " needed (" + n(threads) + " threads in warps of " + n(W) + "), " +
           n(cfg_.sm.num_warps) + " on an SM (sm.num_warps)";
  if (regs > static_cast<uint64_t>(cfg_.sm.num_registers))
    return "registers: " + n(regs) + " needed (" + n(warps) + " warps x " + n(W) + " threads x " + n(k.numRegs) +
           " registers), " + n(cfg_.sm.num_registers) + " on an SM (sm.num_registers)";
  const uint64_t row = static_cast<uint64_t>(cfg_.shared.banks) * static_cast<uint64_t>(cfg_.shared.bank_width);
  const uint64_t shared = (k.sharedBytes + row - 1) / row * row;
  if (shared > static_cast<uint64_t>(cfg_.shared.size))
    return "shared memory: " + n(shared) + " bytes needed (" + n(k.sharedBytes) + " rounded up to whole bank rows of " +
           n(row) + "), " + n(cfg_.shared.size) + " on an SM (shared.size)";
  const std::string& own = mechanismRegs_;
  return "registers: " + n(regs) + " needed (" + n(warps) + " warps x " + n(W) + " threads x " + n(k.numRegs) + ")" +
         (own.empty() ? "" : " with the mechanism's own (" + own + ")") + " in contiguous ranges of the register "
         "file's banks, " + n(cfg_.sm.num_registers) + " on an SM (sm.num_registers, regfile.banks)";
}

std::string GridEngine::limitReached() const {
  const auto& l = cfg_.limits;
  const bool cycles = l.max_cycles > 0 && totalCycles_ > static_cast<uint64_t>(l.max_cycles);
  uint64_t n = 0;
  if (!cycles && l.max_instructions > 0)
    for (const uint64_t* c : issued_) n += *c;
  const bool instructions = !cycles && l.max_instructions > 0 && n > static_cast<uint64_t>(l.max_instructions);
  if (!cycles && !instructions) return "";
  return "kernel '" + image_.kernel->name + "': " +
         (cycles ? "cycle limit reached: " + std::to_string(l.max_cycles) + " cycles (limits.max_cycles)"
                 : "instruction limit reached: " + std::to_string(l.max_instructions) +
                       " warp instructions issued (limits.max_instructions)") +
         ", the run stopped; where each warp was:\n";
}

// "gpu.sm3: debug: block 12 (12,0,0) admitted at cycle 40" (cycles of the current grid).
void GridEngine::logBlock(size_t sm, uint64_t block, const char* what) const {
  spdlog::logger& log = *smLogs_[sm];
  if (!log.should_log(spdlog::level::debug)) return;
  const auto idx = image_.launch.grid.blockIndex(block);
  log.debug("block {} ({},{},{}) {} at cycle {}", block, idx[0], idx[1], idx[2], what, cycle_ - startCycle_);
}

void GridEngine::fail(const std::string& what) {
  error_ = what;
  state_ = State::Faulted;
}

}  // namespace simtlm::sm
