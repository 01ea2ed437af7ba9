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
      collectors_(static_cast<size_t>(std::max(cfg.collectors, 0))),
      portsLeft_(banks_),
      bankStats_(banks_) {
  if (cfg.banks < 1 || cfg.bank_ports < 1 || cfg.collectors < 1 || cfg.collector_ports < 1)
    throw std::invalid_argument("operand collectors: banks, bank_ports, collectors and "
                                "collector_ports must be at least 1");
  readyOrder_.reserve(collectors_.size());
  readyOut_.reserve(collectors_.size());
}

CollectorId OperandCollectors::accept(Tag tag, const Sources& sources, uint64_t cycle) {
  if (!canAccept()) throw std::logic_error("operand collectors: accept() with none free");
  uint32_t i = 0;
  while (collectors_[i].busy) ++i;
  Collector& col = collectors_[i];
  col.busy = true;
  col.tag = tag;
  col.seq = seq_++;
  col.acceptCycle = cycle;
  col.npending = 0;
  for (PhysReg p : sources) col.pending[col.npending++] = p;
  ++busy_;
  ++c_.accepted;
  if (col.npending == 0)
    becomeReady(i, cycle + 2);
  else
    ++reading_;
  return CollectorId{i};
}

void OperandCollectors::writeback(PhysReg p) { writes_.push_back(p); }

void OperandCollectors::becomeReady(uint32_t i, uint64_t readyAt) {
  Collector& col = collectors_[i];
  col.readyAt = readyAt;
  c_.readCycles += readyAt - 1 - col.acceptCycle;
  auto pos = std::upper_bound(readyOrder_.begin(), readyOrder_.end(), col.seq,
                              [this](uint64_t s, uint32_t j) { return s < collectors_[j].seq; });
  readyOrder_.insert(pos, i);
}

bool OperandCollectors::tick(uint64_t cycle) {
  written_.clear();
  if (busy_ == collectors_.size()) ++c_.fullCycles;
  if (writes_.empty() && reading_ == 0) return false;
  std::fill(portsLeft_.begin(), portsLeft_.end(), bankPorts_);
  // Writebacks first, in request order; one that finds its bank's ports taken waits.
  size_t kept = 0;
  for (PhysReg p : writes_) {
    uint32_t b = index(bank(p));
    if (portsLeft_[b] > 0) {
      --portsLeft_[b];
      ++c_.writes;
      ++bankStats_[b].writes;
      written_.push_back(p);
    } else {
      ++c_.conflicts;
      ++c_.writeConflicts;
      ++bankStats_[b].conflicts;
      writes_[kept++] = p;
    }
  }
  writes_.resize(kept);
  const bool readSome = reading_ > 0 && grantReads(cycle);
  return readSome || !written_.empty();
}

bool OperandCollectors::grantReads(uint64_t cycle) {
  const uint32_t n = static_cast<uint32_t>(collectors_.size());
  int64_t firstGranted = -1;
  uint32_t left = reading_;  // collectors with operands to read: stop after the last
  for (uint32_t k = 0, i = rr_; k < n && left > 0; ++k, i = i + 1 == n ? 0 : i + 1) {
    Collector& col = collectors_[i];
    if (!col.busy || col.npending == 0) continue;
    --left;
    if (col.acceptCycle >= cycle) continue;
    uint32_t ports = collectorPorts_;
    uint8_t kept = 0;
    for (uint8_t j = 0; j < col.npending; ++j) {
      const PhysReg p = col.pending[j];
      if (ports == 0) {  // the collector's own ports are used: not a bank request this cycle
        col.pending[kept++] = p;
        continue;
      }
      const uint32_t b = index(bank(p));
      if (portsLeft_[b] > 0) {
        --portsLeft_[b];
        --ports;
        ++c_.reads;
        ++bankStats_[b].reads;
      } else {
        ++c_.conflicts;
        ++bankStats_[b].conflicts;
        col.pending[kept++] = p;
      }
    }
    if (kept < col.npending && firstGranted < 0) firstGranted = i;
    col.npending = kept;
    if (kept == 0) {
      --reading_;
      becomeReady(i, cycle + 1);
    }
  }
  if (firstGranted < 0) return false;
  rr_ = (static_cast<uint32_t>(firstGranted) + 1) % n;
  return true;
}

const std::vector<OperandCollectors::Ready>& OperandCollectors::readyToDispatch(uint64_t cycle) {
  readyOut_.clear();
  for (uint32_t i : readyOrder_)
    if (collectors_[i].readyAt <= cycle) readyOut_.push_back({CollectorId{i}, collectors_[i].tag});
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
  Collector& col = collectors_[i];
  col.busy = false;
  --busy_;
  ++c_.dispatched;
  c_.residency += cycle - col.acceptCycle;
  readyOrder_.erase(std::find(readyOrder_.begin(), readyOrder_.end(), i));
  return true;
}

void OperandCollectors::registerStats(stats::Group g) {
  g.add("reads", c_.reads, "accesses", "register-file bank reads (operands)");
  g.add("writes", c_.writes, "accesses", "register-file bank writes (writebacks)");
  g.add("conflicts", c_.conflicts, "conflicts",
        "bank requests (reads and writebacks) denied for a cycle because the bank was busy");
  g.add("write_conflicts", c_.writeConflicts, "conflicts",
        "writebacks delayed a cycle because their bank's ports were taken by other writebacks");
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
