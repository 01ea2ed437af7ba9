// Sparse backing store for memory targets: pages are allocated on first write (or when a DMI
// pointer is handed out), unwritten memory reads as zero, so a 4 GB space costs only what is
// touched. Page storage never moves once allocated (DMI pointers stay valid until release()).
#pragma once

#include <tlm>

#include <cstdint>
#include <memory>
#include <unordered_map>

namespace simtlm::mem {

class SparseMemory {
 public:
  explicit SparseMemory(std::uint64_t size, unsigned page_bits = 12);

  std::uint64_t size() const { return size_; }
  std::uint64_t page_bytes() const { return std::uint64_t{1} << page_bits_; }
  std::size_t pages_allocated() const { return pages_.size(); }

  void read(std::uint64_t address, unsigned char* dst, std::uint64_t n) const;
  void write(std::uint64_t address, const unsigned char* src, std::uint64_t n);
  // The (allocated) page holding `address`.
  unsigned char* page(std::uint64_t address);
  // Frees the pages lying wholly inside [address, address + n) (they read as zero again, and the
  // allocator hands them back to the system); a page only partly inside keeps its bytes. For
  // when nothing will read the range any more (the host has read its buffers back after the
  // last kernel): a DMI pointer to a freed page dangles.
  void release(std::uint64_t address, std::uint64_t n);

  // Whether the payload's command and address range are acceptable; the TLM status otherwise.
  tlm::tlm_response_status check(const tlm::tlm_generic_payload& gp) const;
  // Performs a read or write payload (byte enables and streaming width honoured) and sets its
  // response status; returns the status (errors leave memory untouched).
  tlm::tlm_response_status access(tlm::tlm_generic_payload& gp);

 private:
  std::uint64_t size_;
  unsigned page_bits_;
  std::unordered_map<std::uint64_t, std::unique_ptr<unsigned char[]>> pages_;
};

}  // namespace simtlm::mem
