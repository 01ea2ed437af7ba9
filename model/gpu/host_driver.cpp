#include "model/gpu/host_driver.h"

#include <algorithm>
#include <cstring>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "isa/local_memory.h"
#include "model/gpu/control_regs.h"

namespace simtlm::gpu {

using namespace sc_core;
using model::Reg;

HostDriver::HostDriver(sc_module_name name, HostJob job)
    : HostDriver(name, [job, given = false](HostJob& next) mutable {
        if (given) return false;
        next = job;
        return given = true;
      }) {}

HostDriver::HostDriver(sc_module_name name, JobSource jobs)
    : sc_module(name), control("control"), to_memory("to_memory"), irq("irq"), jobs_(std::move(jobs)) {
  SC_THREAD(run);
}

bool HostDriver::debug(tlm::tlm_command cmd, uint64_t address, unsigned char* data, unsigned size) {
  tlm::tlm_generic_payload p;
  p.set_command(cmd);
  p.set_address(address);
  p.set_data_ptr(data);
  p.set_data_length(size);
  p.set_streaming_width(size);
  if (to_memory->transport_dbg(p) == size) return true;
  // A target without debug transport (the Accellera examples'): timed accesses, in chunks.
  constexpr unsigned kChunk = 256;
  for (unsigned done = 0; done < size; done += kChunk) {
    const unsigned n = std::min(kChunk, size - done);
    tlm::tlm_generic_payload t;
    sc_time delay = SC_ZERO_TIME;
    t.set_command(cmd);
    t.set_address(address + done);
    t.set_data_ptr(data + done);
    t.set_data_length(n);
    t.set_streaming_width(n);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    to_memory->b_transport(t, delay);
    wait(delay);
    if (!t.is_response_ok()) return false;
  }
  return true;
}

bool HostDriver::regAccess(tlm::tlm_command cmd, uint32_t offset, uint32_t& value) {
  tlm::tlm_generic_payload p;
  sc_time delay = SC_ZERO_TIME;
  p.set_command(cmd);
  p.set_address(offset);
  p.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  p.set_data_length(4);
  p.set_streaming_width(4);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  control->b_transport(p, delay);
  wait(delay);
  return p.is_response_ok();
}

bool HostDriver::writeReg(uint32_t offset, uint32_t value) {
  return regAccess(tlm::TLM_WRITE_COMMAND, offset, value);
}

bool HostDriver::readReg(uint32_t offset, uint32_t& value) {
  return regAccess(tlm::TLM_READ_COMMAND, offset, value);
}

void HostDriver::run() {
  HostJob job;
  while (jobs_(job)) {
    result_ = runJob(job);
    if (onJobDone) onJobDone(job, result_);
    if (!result_.done || result_.errorCode != 0 || !result_.error.empty()) break;
  }
  if (const std::string bad = restoreKept(); !bad.empty() && result_.error.empty())
    result_.error = "cannot read buffer '" + bad + "' back";
  if (onFinished) onFinished();
}

HostResult HostDriver::runJob(const HostJob& job) {
  HostResult result;
  auto fail = [&](const std::string& why) {
    result.error = why;
    return result;
  };
  const isa::Kernel& k = *job.kernel;
  // What the previous job kept in the target comes back unless this job places it from there.
  if (kept_.memory && (kept_.memory != job.memory || !job.releaseWhileRunning))
    if (const std::string bad = restoreKept(); !bad.empty()) return fail("cannot read buffer '" + bad + "' back");
  std::vector<size_t> kept;
  kept.swap(keptSizes_);
  kept_ = HostJob{};
  // 0. The launch's local space, in the job's memory as the interpreter places it (so it is
  // placed and read back with the buffers below).
  isa::LaunchConfig launch = job.launch;
  try {
    isa::prepareLocal(*job.memory, k, launch);
  } catch (const std::exception& e) {
    return fail(std::string("cannot allocate local memory: ") + e.what());
  }
  // 1. Place code, parameters and buffers in memory.
  std::vector<unsigned char> code(k.code.size() * 8);
  std::memcpy(code.data(), k.code.data(), code.size());
  const uint32_t paramAddr = job.codeAddress + static_cast<uint32_t>((code.size() + 255) / 256 * 256);
  std::vector<uint32_t> params = job.launch.params;
  if (!debug(tlm::TLM_WRITE_COMMAND, job.codeAddress, code.data(), static_cast<unsigned>(code.size())) ||
      (!params.empty() && !debug(tlm::TLM_WRITE_COMMAND, paramAddr, reinterpret_cast<unsigned char*>(params.data()),
                                 static_cast<unsigned>(params.size() * 4))))
    return fail("cannot place the kernel in memory");
  if (beforeLaunch) beforeLaunch(job);
  // Written from the regions' own bytes (a debug write leaves them as they are); each freed once
  // placed when the job asks (`sizes` keeps what was released, to be rebuilt at read-back).
  std::vector<size_t> sizes(job.memory->regions().size(), 0);
  for (size_t i = 0; i < sizes.size(); ++i) {
    const auto& r = job.memory->regions()[i];
    std::vector<uint8_t>& bytes = job.memory->bytes(i);
    // On failure, what was released and what is still kept come back from the target.
    auto cannotPlace = [&] {
      for (size_t j = i + 1; j < kept.size(); ++j) sizes[j] = kept[j];
      readBack(job, sizes, true);
      return fail("cannot place buffer '" + r.name + "' in memory");
    };
    if (i < kept.size() && kept[i]) {  // in the target since the previous job: placed from there
      sizes[i] = kept[i];
      if (copyInPlace(r.base, kept[i])) continue;
      return cannotPlace();
    }
    if (bytes.empty()) continue;
    if (!(job.releaseWhileRunning ? placeReleasing(r.base, bytes)
                                  : debug(tlm::TLM_WRITE_COMMAND, r.base, bytes.data(), static_cast<unsigned>(bytes.size()))))
      return cannotPlace();
    if (!job.releaseWhileRunning) continue;
    sizes[i] = bytes.size();
    std::vector<uint8_t>().swap(bytes);
  }
  // 2. Program the control registers and launch.
  const auto& l = job.launch;
  const std::pair<Reg, uint32_t> writes[] = {
      {Reg::Entry, job.codeAddress}, {Reg::GridX, l.grid.x}, {Reg::GridY, l.grid.y},
      {Reg::GridZ, l.grid.z}, {Reg::BlockX, l.block.x}, {Reg::BlockY, l.block.y},
      {Reg::BlockZ, l.block.z}, {Reg::ParamAddr, paramAddr},
      {Reg::ParamWords, static_cast<uint32_t>(params.size())}, {Reg::SharedBytes, k.sharedBytes},
      {Reg::RegsPerThread, static_cast<uint32_t>(k.numRegs)},
      {Reg::NumInstrs, static_cast<uint32_t>(k.size())}, {Reg::LocalAddr, launch.localBase},
      {Reg::LocalBytes, k.localBytes}, {Reg::IrqEnable, 1}, {Reg::Launch, 1}};
  for (const auto& [reg, value] : writes)
    if (!writeReg(static_cast<uint32_t>(reg), value)) return fail("control register write refused");
  // 3. Wait for the interrupt, read status and cycles, acknowledge.
  uint32_t status = 0;
  readReg(static_cast<uint32_t>(Reg::Status), status);
  // STATUS was sampled before the access's delay elapsed: a kernel that completed during it
  // already raised irq, so look at its level before waiting for an edge.
  if (!(status & model::kDone) && !irq.read()) wait(irq.posedge_event());
  uint32_t err = 0, lo = 0, hi = 0;
  readReg(static_cast<uint32_t>(Reg::ErrorCode), err);
  readReg(static_cast<uint32_t>(Reg::CycleLo), lo);
  readReg(static_cast<uint32_t>(Reg::CycleHi), hi);
  writeReg(static_cast<uint32_t>(Reg::Status), model::kDone | model::kError);
  result.done = true;
  result.errorCode = err;
  result.cycles = static_cast<uint64_t>(hi) << 32 | lo;
  // 4. Read the buffers back, or leave them in the target for the next job (the local space,
  // which the next launch zeroes in the host's copy, comes back).
  if (job.keepInTarget && job.releaseWhileRunning && err == 0) {
    const std::string local = isa::kLocalBufferName;
    std::vector<size_t> keep(sizes.size(), 0);
    for (size_t i = 0; i < sizes.size(); ++i)
      if (job.memory->regions()[i].name.rfind(local, 0) != 0) std::swap(sizes[i], keep[i]);
    kept_ = job;
    keptSizes_ = std::move(keep);
    if (const std::string bad = readBack(job, sizes, true); !bad.empty()) return fail("cannot read buffer '" + bad + "' back");
    return result;
  }
  if (const std::string bad = readBack(job, sizes, false); !bad.empty()) return fail("cannot read buffer '" + bad + "' back");
  return result;
}

std::string HostDriver::restoreKept() {
  if (!kept_.memory) return "";
  const HostJob job = kept_;
  std::vector<size_t> sizes;
  sizes.swap(keptSizes_);
  kept_ = HostJob{};
  return readBack(job, sizes, true);
}

bool HostDriver::placeReleasing(uint64_t base, std::vector<uint8_t>& bytes) {
  // A chunk at a time, each chunk's whole pages handed back to the system once written (the
  // buffer is freed after; what reads as zero now is never read), so the buffer does not stand
  // in both the host and the target's memory. A debug write's effect is per byte: the same as
  // one write of the whole buffer.
  uintptr_t freed = reinterpret_cast<uintptr_t>(bytes.data());
  for (size_t done = 0; done < bytes.size(); done += kChunk) {
    const unsigned n = static_cast<unsigned>(std::min(kChunk, bytes.size() - done));
    if (!debug(tlm::TLM_WRITE_COMMAND, base + done, bytes.data() + done, n)) {
      // The written part is in the target only: read it back (the rest is still here).
      debug(tlm::TLM_READ_COMMAND, base, bytes.data(), static_cast<unsigned>(done));
      return false;
    }
#ifdef __linux__
    static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    const uintptr_t from = (freed + page - 1) / page * page;
    const uintptr_t to = (reinterpret_cast<uintptr_t>(bytes.data()) + done + n) / page * page;
    if (to > from && madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED) == 0) freed = to;
#endif
  }
  return true;
}

bool HostDriver::copyInPlace(uint64_t base, size_t size) {
  std::vector<unsigned char> chunk(std::min(kChunk, size));
  for (size_t done = 0; done < size; done += kChunk) {
    const unsigned n = static_cast<unsigned>(std::min(kChunk, size - done));
    if (!debug(tlm::TLM_READ_COMMAND, base + done, chunk.data(), n) ||
        !debug(tlm::TLM_WRITE_COMMAND, base + done, chunk.data(), n))
      return false;
  }
  return true;
}

bool HostDriver::readBuffer(const HostJob& job, const isa::GlobalMemory::Region& r, std::vector<uint8_t>& bytes,
                            size_t size) {
  // A released buffer grows a chunk at a time as it is read: zero-filled whole first, all its
  // pages would stand beside the target's copy before onReadBack could free any of that.
  if (bytes.size() != size) {
    bytes.clear();
    bytes.reserve(size);
  }
  for (size_t done = 0; done < size; done += kChunk) {
    const unsigned n = static_cast<unsigned>(std::min(kChunk, size - done));
    if (bytes.size() < done + n) bytes.resize(done + n);
    if (!debug(tlm::TLM_READ_COMMAND, r.base + done, bytes.data() + done, n)) {
      bytes.resize(size);
      return false;
    }
    if (onReadBack) onReadBack(job, r, done + n);
  }
  return true;
}

std::string HostDriver::readBack(const HostJob& job, const std::vector<size_t>& sizes, bool releasedOnly) {
  std::string bad;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (releasedOnly && !sizes[i]) continue;
    const auto& r = job.memory->regions()[i];
    std::vector<uint8_t>& bytes = job.memory->bytes(i);
    const size_t size = sizes[i] ? sizes[i] : bytes.size();
    if (!readBuffer(job, r, bytes, size) && bad.empty()) bad = r.name;  // every released buffer gets its size back
  }
  return bad;
}

}  // namespace simtlm::gpu
