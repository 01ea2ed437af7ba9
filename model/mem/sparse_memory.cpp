#include "model/mem/sparse_memory.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace simtlm::mem {

SparseMemory::SparseMemory(std::uint64_t size, unsigned page_bits)
    : size_(size), page_bits_(page_bits) {}

unsigned char* SparseMemory::page(std::uint64_t address) {
  auto& p = pages_[address >> page_bits_];
  if (!p) p.reset(new unsigned char[page_bytes()]());
  return p.get();
}

void SparseMemory::release(std::uint64_t address, std::uint64_t n) {
  const std::uint64_t first = (address + page_bytes() - 1) >> page_bits_;
  const std::uint64_t end = (address + n) >> page_bits_;  // pages [first, end) lie wholly inside
  if (end <= first) return;
  const std::size_t before = pages_.size();
  if (end - first < pages_.size()) {
    for (std::uint64_t p = first; p < end; ++p) pages_.erase(p);
  } else {
    for (auto it = pages_.begin(); it != pages_.end();)
      it = it->first >= first && it->first < end ? pages_.erase(it) : std::next(it);
  }
#ifdef __GLIBC__
  // The freed pages lie among others in the allocator's heap, which keeps them resident: hand
  // them back to the system, or the host's buffers read back in their place come on top
  // (issue 39: large fwt peaked at 110 MB, the DRAM's 32 MB freed but resident).
  if (pages_.size() < before) malloc_trim(0);
#endif
}

void SparseMemory::read(std::uint64_t address, unsigned char* dst, std::uint64_t n) const {
  while (n) {
    const std::uint64_t offset = address & (page_bytes() - 1);
    const std::uint64_t chunk = std::min(n, page_bytes() - offset);
    auto it = pages_.find(address >> page_bits_);
    if (it == pages_.end()) std::memset(dst, 0, chunk);
    else std::memcpy(dst, it->second.get() + offset, chunk);
    address += chunk;
    dst += chunk;
    n -= chunk;
  }
}

void SparseMemory::write(std::uint64_t address, const unsigned char* src, std::uint64_t n) {
  while (n) {
    const std::uint64_t offset = address & (page_bytes() - 1);
    const std::uint64_t chunk = std::min(n, page_bytes() - offset);
    std::memcpy(page(address) + offset, src, chunk);
    address += chunk;
    src += chunk;
    n -= chunk;
  }
}

tlm::tlm_response_status SparseMemory::check(const tlm::tlm_generic_payload& gp) const {
  const tlm::tlm_command cmd = gp.get_command();
  if (cmd != tlm::TLM_READ_COMMAND && cmd != tlm::TLM_WRITE_COMMAND)
    return tlm::TLM_COMMAND_ERROR_RESPONSE;
  const std::uint64_t len = gp.get_data_length();
  std::uint64_t width = gp.get_streaming_width();
  if (len == 0 || !gp.get_data_ptr()) return tlm::TLM_GENERIC_ERROR_RESPONSE;
  if (gp.get_byte_enable_ptr() && gp.get_byte_enable_length() == 0)
    return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  if (width == 0 || width > len) width = len;
  const std::uint64_t a = gp.get_address();
  if (a >= size_ || width > size_ - a) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  return tlm::TLM_OK_RESPONSE;
}

tlm::tlm_response_status SparseMemory::access(tlm::tlm_generic_payload& gp) {
  const tlm::tlm_response_status status = check(gp);
  gp.set_response_status(status);
  if (status != tlm::TLM_OK_RESPONSE) return status;
  const bool is_read = gp.is_read();
  const std::uint64_t a = gp.get_address();
  unsigned char* data = gp.get_data_ptr();
  const unsigned len = gp.get_data_length();
  unsigned width = gp.get_streaming_width();
  if (width == 0 || width > len) width = len;
  const unsigned char* be = gp.get_byte_enable_ptr();
  const unsigned be_len = gp.get_byte_enable_length();
  if (!be && width == len) {  // the common case: one contiguous copy
    if (is_read) read(a, data, len);
    else write(a, data, len);
    return status;
  }
  for (unsigned i = 0; i < len; ++i) {
    if (be && be[i % be_len] == TLM_BYTE_DISABLED) continue;
    const std::uint64_t addr = a + i % width;
    if (is_read) read(addr, data + i, 1);
    else write(addr, data + i, 1);
  }
  return status;
}

}  // namespace simtlm::mem
