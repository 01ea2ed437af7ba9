#include "model/gpu/memory_gate.h"

#include <algorithm>
#include <cstring>
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
  heldAnswers_.held.clear();
  heldAnswers_.bytes.clear();
  holding_ = false;  // (no kernel runs until the next beginCycle)
  for (auto& r : routes_) r->forget();
}

std::uint64_t MemoryGate::outstanding() const {
  std::uint64_t n = 0;
  for (const auto& r : routes_) n += r->owed;
  return n;
}

void MemoryGate::Route::forget() {
  held.clear();
  pending.clear();  // (late answers carry an older generation: they never look here)
  owed = 0;
}

// Called on the route's SM's thread (sim.threads): only the route's own state changes.
std::uint32_t MemoryGate::Route::take(Done done, unsigned bytes) {
  const std::uint32_t slot = takeSlot(bytes);
  pending[slot].done = std::move(done);
  pending[slot].receiver = nullptr;
  return slot;
}

std::uint32_t MemoryGate::Route::take(mem::Downstream::Receiver& to, std::uint64_t tag, unsigned bytes) {
  const std::uint32_t slot = takeSlot(bytes);
  pending[slot].receiver = &to;
  pending[slot].tag = tag;
  return slot;
}

std::uint32_t MemoryGate::Route::takeSlot(unsigned bytes) {
  owed++;
  const std::uint32_t slot = pending.acquire();
  pending[slot].request = requests++;
  pending[slot].bytes = bytes;
  return slot;
}

void MemoryGate::deliver(Route& route, std::uint32_t slot, const unsigned char* data, bool ok) {
  Pending& p = route.pending[slot];
  if (mem::Downstream::Receiver* to = p.receiver) {
    const std::uint64_t tag = p.tag;
    p.receiver = nullptr;
    route.pending.release(slot);
    return to->answered(tag, data, ok);
  }
  mem::Downstream::Done d = std::move(p.done);
  route.pending.release(slot);
  d(data, ok);
}

mem::Downstream::Done MemoryGate::Route::gated(std::uint32_t slot) {
  return [route = this, slot, generation = gate_.generation_](const unsigned char* data, bool ok) {
    route->answered(slot, generation, data, ok);
  };
}

// The answer comes on the caller's thread, outside the SMs' part of the cycle.
void MemoryGate::Route::answered(std::uint32_t slot, std::uint32_t generation, const unsigned char* data, bool ok) {
  MemoryGate& g = gate_;
  if (generation != g.generation_) return;
  owed--;
  g.answers_++;
  if (!g.holding_) return deliver(*this, slot, data, ok);
  const Pending& p = pending[slot];
  std::vector<unsigned char>& bytes = g.heldAnswers_.bytes;
  const std::size_t at = bytes.size();
  if (data) bytes.insert(bytes.end(), data, data + p.bytes);
  g.heldAnswers_.held.push_back({generation, index, static_cast<std::uint64_t>(sc_core::sc_time_stamp().value()),
                                  p.request, slot, data != nullptr, ok, at});
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
  if (heldAnswers_.held.empty()) return;
  Answers nested;  // (a hand-over from within an answer's callback: storage of its own)
  Answers& handing = handing_.held.empty() ? handing_ : nested;
  std::swap(handing, heldAnswers_);  // answers that come meanwhile are held for the next time
  std::vector<HeldAnswer>& answers = handing.held;
  // (Arrivals are mostly in order already. The keys are unique, (sm, request) alone being so:
  // any sort gives the one order.)
  auto before = [](const HeldAnswer& a, const HeldAnswer& b) {
    return a.time != b.time ? a.time < b.time : a.sm != b.sm ? a.sm < b.sm : a.request < b.request;
  };
  if (!std::is_sorted(answers.begin(), answers.end(), before)) std::sort(answers.begin(), answers.end(), before);
  for (const HeldAnswer& a : answers) {
    if (a.generation != generation_) continue;  // dropped by a callback before it
    deliver(*routes_[a.sm], a.slot, a.hasData ? handing.bytes.data() + a.at : nullptr, a.ok);
  }
  answers.clear();
  handing.bytes.clear();
}

void MemoryGate::endCycle() {
  for (auto& r : routes_) {  // SM order, each SM's in the order its units made them
    if (r->held.requests.empty()) continue;
    std::swap(sending_, r->held);
    for (const HeldRequest& q : sending_.requests) r->send(q, sending_);
    sending_.clear();  // (its storage kept for the next cycle)
  }
  inCycle_ = false;  // (answers stay held until the next cycle begins)
}

// A request is counted as owed when made, held or not.
void MemoryGate::Route::read(std::uint64_t address, unsigned size, Done done) {
  const std::uint32_t slot = take(std::move(done), size);
  if (gate_.inCycle_)
    return held.requests.push_back({HeldRequest::Kind::Read, false, isa::Op{}, slot, address, size, 0});
  down_->read(address, size, gated(slot));
}

void MemoryGate::Route::readTo(std::uint64_t address, unsigned size, mem::Downstream::Receiver& to, std::uint64_t tag) {
  const std::uint32_t slot = take(to, tag, size);
  if (gate_.inCycle_)
    return held.requests.push_back({HeldRequest::Kind::Read, false, isa::Op{}, slot, address, size, 0});
  down_->readTo(address, size, *this, std::uint64_t{gate_.generation_} << 32 | slot);
}

void MemoryGate::Route::write(std::uint64_t address, const unsigned char* data,
                              const unsigned char* byte_enable, unsigned size, Done done) {
  const std::uint32_t slot = take(std::move(done), 0);
  if (!gate_.inCycle_) return down_->write(address, data, byte_enable, size, gated(slot));
  const std::size_t at = held.bytes.size();
  held.bytes.insert(held.bytes.end(), data, data + size);
  if (byte_enable) held.bytes.insert(held.bytes.end(), byte_enable, byte_enable + size);
  held.requests.push_back({HeldRequest::Kind::Write, byte_enable != nullptr, isa::Op{}, slot, address, size, at});
}

void MemoryGate::Route::atomic(std::uint64_t address, isa::Op op, const mem::WordOps& ops, Done done) {
  const std::uint32_t slot = take(std::move(done), 4 * ops.count);
  if (!gate_.inCycle_) return down_->atomic(address, op, ops, gated(slot));
  held.ops.push_back(ops);
  held.requests.push_back({HeldRequest::Kind::Atomic, false, op, slot, address, 0, held.ops.size() - 1});
}

void MemoryGate::Route::send(const HeldRequest& r, const Held& from) {
  switch (r.kind) {
    case HeldRequest::Kind::Read:
      return down_->readTo(r.address, r.size, *this, std::uint64_t{gate_.generation_} << 32 | r.slot);
    case HeldRequest::Kind::Write: {
      const unsigned char* data = from.bytes.data() + r.at;
      return down_->write(r.address, data, r.enable ? data + r.size : nullptr, r.size, gated(r.slot));
    }
    case HeldRequest::Kind::Atomic: return down_->atomic(r.address, r.op, from.ops[r.at], gated(r.slot));
  }
}

}  // namespace simtlm::gpu
