// The timing core of one streaming multiprocessor: thread-block admission, fetch (loose round
// robin over warps with free I-buffer slots), the per-warp I-buffer, issue schedulers (GTO or
// LRR over a static partition of the warps) with a scoreboard, execution units occupied
// warp_size / width cycles, latencies per opcode class, barriers and exit.
//
// Instructions execute through isa::WarpContext on the values the SM holds, so final memory
// equals the functional interpreter's: sources are read at issue (the scoreboard guarantees
// they are final), results become visible to dependants at write-back.
//
// This is the first cut of the SM of issue 3: instruction fetch has a fixed latency (no
// I-cache yet), the register file has no bank conflicts yet, and global memory is reached
// through the GlobalMemoryPort interface (ideal in tests; coalescer, L1 and TLM port next).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "isa/warp.h"
#include "model/common/config.h"
#include "model/common/stats.h"
#include "model/sm/ibuffer.h"
#include "model/sm/scoreboard.h"
#include "model/sm/warp_scheduler.h"

namespace simtlm::sm {

// A global load, store or atomic of one warp instruction.
struct GlobalAccess {
  isa::Op op;
  uint32_t mask = 0;                    // lanes that access
  std::array<uint32_t, 32> addr{};      // byte addresses
  std::array<uint32_t, 32> data{};      // store data / atomic operand b
  std::array<uint32_t, 32> data2{};     // cas swap value
};

// The memory system beyond the SM.
class GlobalMemoryPort {
 public:
  using Done = std::function<void(const uint32_t* words, const std::string& error)>;
  virtual ~GlobalMemoryPort() = default;
  virtual bool canAccept() const = 0;
  // Starts an access; `done` is called later from tick() with the per-lane words (load data,
  // atomics' old values) or a non-empty error.
  virtual void issue(const GlobalAccess& access, Done done) = 0;
  virtual void tick(uint64_t cycle) = 0;
  virtual bool idle() const = 0;
};

// What every SM needs to know of the running kernel.
struct KernelImage {
  const isa::Kernel* kernel = nullptr;
  isa::LaunchConfig launch;
  std::vector<uint32_t> reconvergence;  // per instruction: reconvergence PC of a branch
};

class SmCore {
 public:
  SmCore(int id, const config::GpuConfig& cfg, GlobalMemoryPort& memory, stats::Registry& stats);
  ~SmCore();

  void startKernel(const KernelImage& image);
  // Whether one more block fits (block slots, warp contexts, registers, shared memory).
  bool canAdmit() const;
  void admit(uint32_t blockLinear, const std::array<uint32_t, 3>& ctaid);
  // One core cycle. Returns whether anything happened.
  bool tick(uint64_t cycle);
  bool idle() const;  // no resident blocks

  std::function<void(uint32_t blockLinear)> onBlockDone;
  const std::string& fault() const { return fault_; }
  // Every resident warp with its PC and what it waits for (for stuck-run reports).
  std::string describeWarps() const;

 private:
  struct Warp;
  struct Block;
  struct InFlight;

  void writeback(uint64_t cycle);
  void issue(uint64_t cycle);
  void fetch(uint64_t cycle);
  bool canIssue(const Warp& w, uint64_t cycle) const;
  void execute(int slot, uint64_t cycle);
  void executeMemory(int slot, const isa::Instr& in, uint32_t exec, uint64_t cycle);
  void complete(int slot, const isa::Instr& in, uint64_t when);
  void releaseBarrier(Block& b);
  void retireBlock(Block& b);
  void setFault(int slot, const std::string& what);

  const int id_;
  const config::GpuConfig& cfg_;
  GlobalMemoryPort& mem_;
  KernelImage image_;
  std::vector<Warp> warps_;          // warp contexts (num_warps slots)
  std::vector<Block> blocks_;        // block slots
  std::vector<std::unique_ptr<WarpScheduler>> schedulers_;
  Scoreboard scoreboard_;
  std::vector<InFlight> inFlight_;   // results waiting for write-back
  std::array<std::vector<uint64_t>, 4> unitFreeAt_;  // per isa::Unit, per unit instance
  int residentBlocks_ = 0, usedWarps_ = 0, usedRegs_ = 0;
  uint32_t usedShared_ = 0;
  uint64_t ageCounter_ = 0;
  std::string fault_;
  std::vector<bool> ready_;
  int lastFetched_ = -1, fetchesInFlight_ = 0;

  // statistics
  uint64_t cycles_ = 0, activeCycles_ = 0, warpInstrs_ = 0, threadInstrs_ = 0, fetched_ = 0;
  uint64_t flushes_ = 0, stallNoReady_ = 0, barriers_ = 0, globalAccesses_ = 0, blocksRun_ = 0;
};

}  // namespace simtlm::sm
