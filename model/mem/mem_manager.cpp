#include "model/mem/mem_manager.h"

#include <algorithm>

namespace simtlm::mem {

struct MemoryManager::Payload : tlm::tlm_generic_payload {
  Payload(tlm::tlm_mm_interface* mm, std::size_t index) : tlm::tlm_generic_payload(mm), index(index) {}
  std::size_t index;
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
  const auto* p = dynamic_cast<const Payload*>(&gp);
  if (!p || p->index >= pool_.size() || pool_[p->index].get() != p) return -1;
  return static_cast<long>(p->index);
}

void MemoryManager::free(tlm::tlm_generic_payload* gp) {
  auto* p = static_cast<Payload*>(gp);
  p->reset();  // frees extensions that were set with set_auto_extension
  free_.push_back(p);
}

}  // namespace simtlm::mem
