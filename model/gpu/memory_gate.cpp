#include "model/gpu/memory_gate.h"

#include <algorithm>
#include <utility>

#include <systemc>

namespace simtlm::gpu {

MemoryGate::MemoryGate(const std::vector<mem::Downstream*>& downs) {
  for (mem::Downstream* d : downs) {
    routes_.push_back(std::make_unique<Route>(*this, *d));
    routes_.back()->index = static_cast<std::uint32_t>(routes_.size() - 1);
  }
}

void MemoryGate::dropAnswers() {
  generation_++;
  heldAnswers_.clear();
  holding_ = false;  // (no kernel runs until the next beginCycle)
  for (auto& r : routes_) {
    r->held.clear();
    r->owed = 0;
  }
}

std::uint64_t MemoryGate::outstanding() const {
  std::uint64_t n = 0;
  for (const auto& r : routes_) n += r->owed;
  return n;
}

// Called on the route's SM's thread (sim.threads); the answer comes on the caller's.
mem::Downstream::Done MemoryGate::gated(Route& route, mem::Downstream::Done done, unsigned bytes) {
  route.owed++;
  return [this, &route, generation = generation_, bytes, sm = route.index, request = route.requests++,
          d = std::move(done)](const unsigned char* data, bool ok) {
    if (generation != generation_) return;
    route.owed--;
    answers_++;
    if (!holding_) return d(data, ok);
    heldAnswers_.push_back({generation, sc_core::sc_time_stamp().value(), sm, request, d,
                            data ? std::vector<unsigned char>(data, data + bytes) : std::vector<unsigned char>{},
                            data != nullptr, ok});
  };
}

void MemoryGate::beginCycle() {
  handOver();
  holding_ = inCycle_ = true;
}

void MemoryGate::stopHolding() {
  holding_ = false;
  handOver();
}

void MemoryGate::handOver() {
  if (heldAnswers_.empty()) return;
  std::vector<HeldAnswer> answers;
  answers.swap(heldAnswers_);
  // (Arrivals are mostly in order already: the sort is a pass over them.)
  std::stable_sort(answers.begin(), answers.end(), [](const HeldAnswer& a, const HeldAnswer& b) {
    return a.time != b.time ? a.time < b.time : a.sm != b.sm ? a.sm < b.sm : a.request < b.request;
  });
  for (HeldAnswer& a : answers)
    if (a.generation == generation_) a.done(a.hasData ? a.data.data() : nullptr, a.ok);
}

void MemoryGate::endCycle() {
  for (auto& r : routes_) {  // SM order, each SM's in the order its units made them
    if (r->held.empty()) continue;
    sending_.swap(r->held);
    for (HeldRequest& q : sending_) r->send(q);
    sending_.clear();  // (its storage kept for the next cycle)
  }
  inCycle_ = false;  // (answers stay held until the next cycle begins)
}

// A request is counted as owed when made, held or not.
void MemoryGate::Route::read(std::uint64_t address, unsigned size, Done done) {
  Done d = gate_.gated(*this, std::move(done), size);
  if (gate_.inCycle_)
    return held.push_back({HeldRequest::Kind::Read, address, size, {}, {}, isa::Op{}, {}, std::move(d)});
  down_.read(address, size, std::move(d));
}

void MemoryGate::Route::write(std::uint64_t address, const unsigned char* data,
                              const unsigned char* byte_enable, unsigned size, Done done) {
  Done d = gate_.gated(*this, std::move(done), 0);
  if (gate_.inCycle_)
    return held.push_back({HeldRequest::Kind::Write, address, size, std::vector<unsigned char>(data, data + size),
                           byte_enable ? std::vector<unsigned char>(byte_enable, byte_enable + size)
                                       : std::vector<unsigned char>{},
                           isa::Op{}, {}, std::move(d)});
  down_.write(address, data, byte_enable, size, std::move(d));
}

void MemoryGate::Route::atomic(std::uint64_t address, isa::Op op, const mem::WordOps& ops, Done done) {
  Done d = gate_.gated(*this, std::move(done), 4 * ops.count);
  if (gate_.inCycle_)
    return held.push_back({HeldRequest::Kind::Atomic, address, 0, {}, {}, op, ops, std::move(d)});
  down_.atomic(address, op, ops, std::move(d));
}

void MemoryGate::Route::send(HeldRequest& r) {
  switch (r.kind) {
    case HeldRequest::Kind::Read: return down_.read(r.address, r.size, std::move(r.done));
    case HeldRequest::Kind::Write:
      return down_.write(r.address, r.data.data(), r.enable.empty() ? nullptr : r.enable.data(), r.size,
                         std::move(r.done));
    case HeldRequest::Kind::Atomic: return down_.atomic(r.address, r.op, r.ops, std::move(r.done));
  }
}

}  // namespace simtlm::gpu
