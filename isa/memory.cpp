#include "isa/memory.h"

#include <cstring>
#include <stdexcept>

namespace simtlm::isa {

uint32_t GlobalMemory::allocate(const std::string& name, uint32_t bytes) {
  for (const auto& r : regions_)
    if (r.name == name) throw std::invalid_argument("buffer '" + name + "' is allocated twice");
  uint64_t base = next_;
  uint64_t end = base + bytes;
  if (end > 0xFFFF0000ull) throw std::length_error("global memory exhausted allocating '" + name + "'");
  Region r;
  r.name = name;
  r.base = static_cast<uint32_t>(base);
  r.bytes.assign(bytes, 0);
  r.size = bytes;
  regions_.push_back(std::move(r));
  // Leave a guard gap so that running off the end of one buffer faults.
  next_ = static_cast<uint32_t>((end + kAlignment + kAlignment - 1) / kAlignment * kAlignment);
  return static_cast<uint32_t>(base);
}

const GlobalMemory::Region* GlobalMemory::find(uint32_t addr, uint32_t size) const {
  auto inside = [&](const Region& r) {
    return addr >= r.base && static_cast<uint64_t>(addr) + size <= r.base + r.bytes.size();  // bytes held
  };
  if (lastHit_ < regions_.size() && inside(regions_[lastHit_])) return &regions_[lastHit_];
  for (size_t i = 0; i < regions_.size(); ++i)
    if (inside(regions_[i])) { lastHit_ = i; return &regions_[i]; }
  return nullptr;
}

GlobalMemory::Region* GlobalMemory::find(uint32_t addr, uint32_t size) {
  return const_cast<Region*>(static_cast<const GlobalMemory*>(this)->find(addr, size));
}

uint32_t GlobalMemory::read32(uint32_t addr) const {
  const Region* r = find(addr, 4);
  uint32_t v;
  std::memcpy(&v, &r->bytes[addr - r->base], 4);
  return v;
}

void GlobalMemory::write32(uint32_t addr, uint32_t value) {
  Region* r = find(addr, 4);
  std::memcpy(&r->bytes[addr - r->base], &value, 4);
}

const GlobalMemory::Region& GlobalMemory::region(const std::string& name) const {
  for (const auto& r : regions_)
    if (r.name == name) return r;
  throw std::out_of_range("no buffer named '" + name + "'");
}

std::vector<uint32_t> GlobalMemory::words(const std::string& name) const {
  const Region& r = region(name);
  std::vector<uint32_t> w(r.bytes.size() / 4);
  std::memcpy(w.data(), r.bytes.data(), w.size() * 4);
  return w;
}

void GlobalMemory::setWords(const std::string& name, const std::vector<uint32_t>& words) {
  auto& r = const_cast<Region&>(region(name));
  if (words.size() * 4 > r.bytes.size()) throw std::out_of_range("too many words for '" + name + "'");
  std::memcpy(r.bytes.data(), words.data(), words.size() * 4);
}

bool GlobalMemory::operator==(const GlobalMemory& o) const {
  if (regions_.size() != o.regions_.size()) return false;
  for (size_t i = 0; i < regions_.size(); ++i)
    if (regions_[i].base != o.regions_[i].base || regions_[i].bytes != o.regions_[i].bytes) return false;
  return true;
}

}  // namespace simtlm::isa
