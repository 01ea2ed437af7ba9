// Generic-payload memory manager: payloads are pooled on a free list and reused; each pooled
// payload owns its data and byte-enable buffers. Users acquire() after allocate() and release()
// when done; the last release() returns the payload here (TLM-2.0 memory-management rules).
#pragma once

#include <tlm>

#include <cstdint>
#include <memory>
#include <vector>

namespace simtlm::mem {

class MemoryManager : public tlm::tlm_mm_interface {
 public:
  MemoryManager();
  MemoryManager(const MemoryManager&) = delete;
  MemoryManager& operator=(const MemoryManager&) = delete;
  ~MemoryManager() override;

  // A reset payload (reference count 0) whose data pointer holds `length` bytes (zeroed) and,
  // if `byte_enable_length` > 0, whose byte-enable pointer holds that many bytes (all enabled).
  // Streaming width is set to `length`; the response status to TLM_INCOMPLETE_RESPONSE.
  tlm::tlm_generic_payload* allocate(unsigned length, unsigned byte_enable_length = 0);

  void free(tlm::tlm_generic_payload* gp) override;
  // The pool position of a payload this manager allocated (the same for the payload's life, and
  // below created()), or -1 for any other payload: an owner keeps its per-transaction records in
  // a vector indexed by it instead of a hash map.
  long indexOf(const tlm::tlm_generic_payload& gp) const;

  std::size_t created() const { return pool_.size(); }   // payloads ever constructed
  std::size_t available() const { return free_.size(); } // payloads on the free list
  std::size_t in_use() const { return pool_.size() - free_.size(); }

 private:
  struct Payload;
  std::vector<std::unique_ptr<Payload>> pool_;
  std::vector<Payload*> free_;
};

}  // namespace simtlm::mem
