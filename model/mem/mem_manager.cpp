#include "model/mem/mem_manager.h"

#include <algorithm>

namespace simtlm::mem {

namespace {

// Marks a pooled payload with its manager and pool position: indexOf() reads it through the
// extension array (an index) instead of a dynamic_cast. Owned by the payload: never freed.
struct PoolMark : tlm::tlm_extension<PoolMark> {
  const MemoryManager* manager = nullptr;
  std::size_t index = 0;
  tlm::tlm_extension_base* clone() const override { return new PoolMark(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const PoolMark&>(other);
  }
  void free() override {}  // a member of its payload (a clone made by deep_copy_from leaks, as a copy never matches)
};

}  // namespace

struct MemoryManager::Payload : tlm::tlm_generic_payload {
  Payload(MemoryManager* mm, std::size_t index) : tlm::tlm_generic_payload(mm), index(index) {
    mark.manager = mm;
    mark.index = index;
    set_extension(&mark);  // (not an auto extension: reset() keeps it)
  }
  ~Payload() override { clear_extension(&mark); }
  std::size_t index;
  PoolMark mark;
  std::vector<unsigned char> data;
  std::vector<unsigned char> byte_enable;
};

MemoryManager::MemoryManager() = default;
MemoryManager::~MemoryManager() = default;

tlm::tlm_generic_payload* MemoryManager::allocate(unsigned length, unsigned byte_enable_length) {
  Payload* p;
  if (free_.empty()) {
    pool_.push_back(std::make_unique<Payload>(this, pool_.size()));
    p = pool_.back().get();
  } else {
    p = free_.back();
    free_.pop_back();
  }
  p->data.assign(length, 0);
  p->byte_enable.assign(byte_enable_length, TLM_BYTE_ENABLED);
  p->set_command(tlm::TLM_IGNORE_COMMAND);
  p->set_address(0);
  p->set_data_ptr(p->data.data());
  p->set_data_length(length);
  p->set_streaming_width(length);
  p->set_byte_enable_ptr(byte_enable_length ? p->byte_enable.data() : nullptr);
  p->set_byte_enable_length(byte_enable_length);
  p->set_dmi_allowed(false);
  p->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  p->set_gp_option(tlm::TLM_MIN_PAYLOAD);
  return p;
}

long MemoryManager::indexOf(const tlm::tlm_generic_payload& gp) const {
  const PoolMark* m = gp.get_extension<PoolMark>();
  if (!m || m->manager != this || m->index >= pool_.size() ||
      static_cast<const tlm::tlm_generic_payload*>(pool_[m->index].get()) != &gp)
    return -1;
  return static_cast<long>(m->index);
}

void MemoryManager::free(tlm::tlm_generic_payload* gp) {
  auto* p = static_cast<Payload*>(gp);
  p->reset();  // frees extensions that were set with set_auto_extension
  free_.push_back(p);
}

}  // namespace simtlm::mem
