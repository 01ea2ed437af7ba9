#include "model/regfile/operand_collectors.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace simtlm::regfile {

OperandCollectors::OperandCollectors(const config::GpuConfig::RegFile& cfg, BankMapping mapping)
    : banks_(static_cast<uint32_t>(cfg.banks)),
      bankPorts_(static_cast<uint32_t>(cfg.bank_ports)),
      collectorPorts_(static_cast<uint32_t>(cfg.collector_ports)),
      mapping_(mapping),
      bankShift_(cfg.banks > 0 && (cfg.banks & (cfg.banks - 1)) == 0
                     ? __builtin_ctz(static_cast<unsigned>(cfg.banks))
                     : -1),
      collectors_(static_cast<size_t>(std::max(cfg.collectors, 0))),
      free_(collectors_.size()),
      readingSet_(collectors_.size()),
      portsLeft_(banks_),
      bankStats_(banks_) {
  if (cfg.banks < 1 || cfg.bank_ports < 1 || cfg.collectors < 1 || cfg.collector_ports < 1)
    throw std::invalid_argument("operand collectors: banks, bank_ports, collectors and "
                                "collector_ports must be at least 1");
  for (uint32_t i = 0; i < collectors_.size(); ++i) free_.set(i);
  readyOrder_.reserve(2 * collectors_.size());
  readyOut_.reserve(collectors_.size());
}

int OperandCollectors::CollectorSet::lowest() const {
  for (size_t w = 0; w < words_.size(); ++w)
    if (words_[w] != 0) return static_cast<int>(w * 64 + __builtin_ctzll(words_[w]));
  return -1;
}

CollectorId OperandCollectors::accept(Tag tag, const Sources& sources, uint64_t cycle) {
  if (!canAccept()) throw std::logic_error("operand collectors: accept() with none free");
  const uint32_t i = static_cast<uint32_t>(free_.lowest());
  Collector& col = collectors_[i];
  col.busy = true;
  free_.clear(i);
  col.tag = tag;
  col.seq = seq_++;
  col.acceptCycle = cycle;
  col.npending = 0;
  for (PhysReg p : sources) col.pending[col.npending++] = p;
  ++busy_;
  ++c_.accepted;
  if (col.npending == 0) {
    becomeReady(i, cycle + 2);
  } else {
    ++reading_;
    readingSet_.set(i);
  }
  return CollectorId{i};
}

void OperandCollectors::writeback(PhysReg p) { writes_.push_back(p); }

void OperandCollectors::becomeReady(uint32_t i, uint64_t readyAt) {
  Collector& col = collectors_[i];
  col.readyAt = readyAt;
  c_.readCycles += readyAt - 1 - col.acceptCycle;
  // After every older ready instruction; searched from the back, where younger instructions
  // (the usual case) go.
  // The gap the walks left at the front goes once it is as long as the queue can be.
  if (readyHead_ >= collectors_.size() || readyHead_ == readyOrder_.size()) {
    readyOrder_.erase(readyOrder_.begin(), readyOrder_.begin() + static_cast<std::ptrdiff_t>(readyHead_));
    readyHead_ = 0;
  }
  auto pos = readyOrder_.end();
  const auto head = readyOrder_.begin() + static_cast<std::ptrdiff_t>(readyHead_);
  while (pos != head && (pos - 1)->seq > col.seq) --pos;
  readyOrder_.insert(pos, Queued{{CollectorId{i}, col.tag}, col.seq, readyAt});
}

bool OperandCollectors::tick(uint64_t cycle) {
  written_.clear();
  if (writes_.empty() && reading_ == 0) return false;
  std::fill(portsLeft_.begin(), portsLeft_.end(), bankPorts_);
  // Writebacks first, in request order; one that finds its bank's ports taken waits.
  size_t kept = 0;
  for (PhysReg p : writes_) {
    const uint32_t b = bankIndex(p);
    if (renamedFree_ && renamed(p)) {  // ideal: no port taken
      ++c_.writes;
      ++bankStats_[b].writes;
      ++c_.renamedWrites;
      written_.push_back(p);
    } else if (portsLeft_[b] > 0) {
      --portsLeft_[b];
      ++c_.writes;
      ++bankStats_[b].writes;
      if (renamed(p)) ++c_.renamedWrites;
      written_.push_back(p);
    } else {
      ++c_.conflicts;
      ++c_.writeConflicts;
      ++bankStats_[b].conflicts;
      if (renamed(p)) ++c_.renamedConflicts;
      writes_[kept++] = p;
    }
  }
  writes_.resize(kept);
  const bool readSome = reading_ > 0 && grantReads(cycle);
  return readSome || !written_.empty();
}

// Collectors in round-robin order from rr_; only those with operands left to read take part.
bool OperandCollectors::grantReads(uint64_t cycle) {
  int64_t firstGranted = -1;
  readingSet_.forEachFrom(rr_, [&](uint32_t i) {
    Collector& col = collectors_[i];
    if (col.acceptCycle >= cycle) return;  // accepted this cycle: reads start next cycle
    if (readOperands(col) && firstGranted < 0) firstGranted = i;
    if (col.npending == 0) {
      --reading_;
      readingSet_.clear(i);
      becomeReady(i, cycle + 1);
    }
  });
  if (firstGranted < 0) return false;
  rr_ = (static_cast<uint32_t>(firstGranted) + 1) % static_cast<uint32_t>(collectors_.size());
  return true;
}

// Up to collectorPorts_ of the collector's pending operands, in operand order, each if its
// bank has a port left (otherwise a conflict); operands beyond the collector's ports make no
// request this cycle.
bool OperandCollectors::readOperands(Collector& col) {
  uint32_t ports = collectorPorts_;
  uint8_t kept = 0;
  for (uint8_t j = 0; j < col.npending; ++j) {
    const PhysReg p = col.pending[j];
    if (ports == 0) {
      col.pending[kept++] = p;
      continue;
    }
    const uint32_t b = bankIndex(p);
    if (renamedFree_ && renamed(p)) {  // ideal: no bank port taken (still a collector port)
      --ports;
      ++c_.reads;
      ++bankStats_[b].reads;
      ++c_.renamedReads;
    } else if (portsLeft_[b] > 0) {
      --portsLeft_[b];
      --ports;
      ++c_.reads;
      ++bankStats_[b].reads;
      if (renamed(p)) ++c_.renamedReads;
    } else {
      ++c_.conflicts;
      ++bankStats_[b].conflicts;
      if (renamed(p)) ++c_.renamedConflicts;
      col.pending[kept++] = p;
    }
  }
  const bool granted = kept < col.npending;
  col.npending = kept;
  return granted;
}

const std::vector<OperandCollectors::Ready>& OperandCollectors::readyToDispatch(uint64_t cycle) {
  readyOut_.clear();
  for (size_t k = readyHead_; k < readyOrder_.size(); ++k)
    if (readyOrder_[k].readyAt <= cycle) readyOut_.push_back(readyOrder_[k].ready);
  return readyOut_;
}

bool OperandCollectors::dispatch(CollectorId id, uint64_t cycle, bool unitFree) {
  const uint32_t i = index(id);
  if (i >= collectors_.size() || !collectors_[i].busy || collectors_[i].npending != 0 ||
      collectors_[i].readyAt > cycle)
    throw std::logic_error("operand collectors: dispatch of collector " + std::to_string(i) +
                           " that holds no dispatchable instruction in cycle " +
                           std::to_string(cycle));
  if (!unitFree) {
    ++c_.dispatchStalls;
    return false;
  }
  release(i, cycle);
  readyOrder_.erase(std::find_if(readyOrder_.begin() + static_cast<std::ptrdiff_t>(readyHead_), readyOrder_.end(),
                                 [i](const Queued& q) { return index(q.ready.id) == i; }));
  return true;
}

void OperandCollectors::release(uint32_t i, uint64_t cycle) {
  Collector& col = collectors_[i];
  col.busy = false;
  free_.set(i);
  --busy_;
  ++c_.dispatched;
  c_.residency += cycle - col.acceptCycle;
}

void OperandCollectors::registerStats(stats::Group g) {
  g.add("reads", c_.reads, "accesses", "register-file bank reads (operands)");
  g.add("writes", c_.writes, "accesses", "register-file bank writes (writebacks)");
  g.add("conflicts", c_.conflicts, "conflicts",
        "bank requests (reads and writebacks) denied for a cycle because the bank was busy");
  g.add("write_conflicts", c_.writeConflicts, "conflicts",
        "writebacks delayed a cycle because their bank's ports were taken by other writebacks");
  if (renamedFrom_ != ~0u) {  // a mechanism's rename registers
    g.add("renamed_reads", c_.renamedReads, "accesses",
          "bank reads of the mechanism's rename registers (followers and leaders reading a version)");
    g.add("renamed_writes", c_.renamedWrites, "accesses",
          "bank writes of the mechanism's rename registers (leaders writing a new version)");
    g.add("renamed_conflicts", c_.renamedConflicts, "conflicts",
          "bank requests to the mechanism's rename registers denied for a cycle: the extra bank "
          "conflicts renaming causes, where the baseline would read the warp's own registers");
  }
  for (uint32_t b = 0; b < banks_; ++b) {
    stats::Group bg = g.sub("bank" + std::to_string(b));
    bg.add("reads", bankStats_[b].reads, "accesses", "reads of this bank");
    bg.add("writes", bankStats_[b].writes, "accesses", "writes of this bank");
    bg.add("conflicts", bankStats_[b].conflicts, "conflicts",
           "requests to this bank denied for a cycle because it was busy");
  }
  stats::Group cg = g.sub("collector");
  cg.add("accepted", c_.accepted, "warp instructions", "instructions accepted by a collector");
  cg.add("dispatched", c_.dispatched, "warp instructions",
         "instructions dispatched from a collector to an execution unit");
  cg.add("read_cycles", c_.readCycles, "cycles",
         "cycles from acceptance to the last operand read, summed over instructions");
  cg.add("residency", c_.residency, "cycles",
         "cycles from acceptance to dispatch, summed over dispatched instructions");
  cg.addRatio("avg_residency", "residency", "dispatched", "cycles",
              "average cycles an instruction spends in a collector");
  cg.add("dispatch_stalls", c_.dispatchStalls, "events",
         "dispatch attempts of a ready instruction refused because its unit was busy");
  cg.add("full_cycles", c_.fullCycles, "cycles", "cycles with every collector busy");
}

}  // namespace simtlm::regfile
