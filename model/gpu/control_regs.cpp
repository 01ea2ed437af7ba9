#include "model/gpu/control_regs.h"

#include <cstring>

#include "model/common/log.h"

namespace simtlm::model {

using namespace sc_core;

ControlRegs::ControlRegs(sc_module_name name)
    : sc_module(name), control("control"), irq("irq"), log_(log::get("gpu.regs")) {
  control.register_b_transport(this, &ControlRegs::b_transport);
  control.register_transport_dbg(this, &ControlRegs::transport_dbg);
  SC_METHOD(driveIrq);
  sensitive << irqChanged_;
  dont_initialize();
}

void ControlRegs::driveIrq() {
  if (irq.get_interface()) irq.write(irqLevel_);
}

void ControlRegs::b_transport(tlm::tlm_generic_payload& p, sc_time& delay) {
  p.set_response_status(access(p, false));
  delay += sc_time(1, SC_NS);  // one register access
}

unsigned ControlRegs::transport_dbg(tlm::tlm_generic_payload& p) {
  return access(p, true) == tlm::TLM_OK_RESPONSE ? p.get_data_length() : 0;
}

tlm::tlm_response_status ControlRegs::access(tlm::tlm_generic_payload& p, bool debug) {
  const uint64_t addr = p.get_address();
  const unsigned len = p.get_data_length();
  if (p.get_byte_enable_ptr() || p.get_streaming_width() < len)
    return refuse(p, debug, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, "byte enables and streaming are not supported");
  if (len != 4 || (addr & 3)) return refuse(p, debug, tlm::TLM_BURST_ERROR_RESPONSE, "registers are aligned 4-byte words");
  if (addr + 4 > kRegSpace) return refuse(p, debug, tlm::TLM_ADDRESS_ERROR_RESPONSE, "past the register space");
  const uint32_t off = static_cast<uint32_t>(addr);
  if (p.is_read()) {
    uint32_t v = read(off);
    std::memcpy(p.get_data_ptr(), &v, 4);
  } else if (p.is_write()) {
    uint32_t v;
    std::memcpy(&v, p.get_data_ptr(), 4);
    if (debug && (off == static_cast<uint32_t>(Reg::Launch) || off == static_cast<uint32_t>(Reg::Reset)))
      return refuse(p, debug, tlm::TLM_COMMAND_ERROR_RESPONSE, "launching and resetting are timed actions");
    write(off, v);
  } else {
    return refuse(p, debug, tlm::TLM_COMMAND_ERROR_RESPONSE, "neither a read nor a write");
  }
  return tlm::TLM_OK_RESPONSE;
}

tlm::tlm_response_status ControlRegs::refuse(const tlm::tlm_generic_payload& p, bool debug, tlm::tlm_response_status s,
                                             const char* why) {
  log_.warn("{}{} of {} B at offset 0x{:x} refused: {}", debug ? "debug " : "", p.is_read() ? "read" : "write",
            p.get_data_length(), p.get_address(), why);
  return s;
}

uint32_t ControlRegs::read(uint32_t off) const {
  switch (static_cast<Reg>(off)) {
    case Reg::Id: return kIdValue;
    case Reg::Entry: return regs_.entry;
    case Reg::GridX: return regs_.grid[0];
    case Reg::GridY: return regs_.grid[1];
    case Reg::GridZ: return regs_.grid[2];
    case Reg::BlockX: return regs_.block[0];
    case Reg::BlockY: return regs_.block[1];
    case Reg::BlockZ: return regs_.block[2];
    case Reg::ParamAddr: return regs_.paramAddr;
    case Reg::ParamWords: return regs_.paramWords;
    case Reg::SharedBytes: return regs_.sharedBytes;
    case Reg::RegsPerThread: return regs_.regsPerThread;
    case Reg::NumInstrs: return regs_.numInstrs;
    case Reg::LocalAddr: return regs_.localAddr;
    case Reg::LocalBytes: return regs_.localBytes;
    case Reg::Status: return status_;
    case Reg::ErrorCode: return error_;
    case Reg::CycleLo: return static_cast<uint32_t>(cycles_);
    case Reg::CycleHi: return static_cast<uint32_t>(cycles_ >> 32);
    case Reg::IrqEnable: return irqEnable_;
    default: return 0;  // Launch and Reset read as 0
  }
}

void ControlRegs::write(uint32_t off, uint32_t v) {
  switch (static_cast<Reg>(off)) {
    case Reg::Entry: regs_.entry = v; break;
    case Reg::GridX: regs_.grid[0] = v; break;
    case Reg::GridY: regs_.grid[1] = v; break;
    case Reg::GridZ: regs_.grid[2] = v; break;
    case Reg::BlockX: regs_.block[0] = v; break;
    case Reg::BlockY: regs_.block[1] = v; break;
    case Reg::BlockZ: regs_.block[2] = v; break;
    case Reg::ParamAddr: regs_.paramAddr = v; break;
    case Reg::ParamWords: regs_.paramWords = v; break;
    case Reg::SharedBytes: regs_.sharedBytes = v; break;
    case Reg::RegsPerThread: regs_.regsPerThread = v; break;
    case Reg::NumInstrs: regs_.numInstrs = v; break;
    case Reg::LocalAddr: regs_.localAddr = v; break;
    case Reg::LocalBytes: regs_.localBytes = v; break;
    case Reg::IrqEnable: irqEnable_ = v & 1u; updateIrq(); break;
    case Reg::Status:  // write 1 to clear done / error
      status_ &= ~(v & (kDone | kError));
      if (v & kError) error_ = 0;
      updateIrq();
      break;
    case Reg::Launch:
      if (!(v & 1u)) break;
      if (busy()) {  // the running kernel continues; the refused launch is reported
        log_.warn("launch refused: a kernel is running (error code {})", static_cast<int>(ErrorCode::LaunchWhileBusy));
        error_ = static_cast<uint32_t>(ErrorCode::LaunchWhileBusy);
        status_ |= kError;
        updateIrq();
        break;
      }
      status_ &= ~(kDone | kError);
      error_ = 0;
      cycles_ = 0;
      if (!launchValid()) {
        log_.info("launch refused: invalid launch registers (error code {})", static_cast<int>(ErrorCode::BadLaunch));
        error_ = static_cast<uint32_t>(ErrorCode::BadLaunch);
        status_ |= kDone | kError;
        updateIrq();
        break;
      }
      status_ |= kBusy;
      updateIrq();
      if (onLaunch) onLaunch(regs_);
      break;
    case Reg::Reset:
      if (!(v & 1u)) break;
      if (onReset) onReset();
      regs_ = LaunchRegs{};
      status_ = error_ = irqEnable_ = 0;
      cycles_ = 0;
      updateIrq();
      break;
    default: break;  // read-only registers ignore writes
  }
}

bool ControlRegs::launchValid() const {
  uint64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if (regs_.grid[i] == 0 || regs_.block[i] == 0) return false;
    threads *= regs_.block[i];
  }
  return threads <= 1024 && regs_.regsPerThread >= 1 && regs_.regsPerThread <= 64 &&
         regs_.numInstrs >= 1 && (regs_.entry & 7) == 0 && (regs_.paramAddr & 3) == 0 &&
         regs_.paramWords <= 4096 && (regs_.sharedBytes & 3) == 0 && (regs_.localAddr & 3) == 0 &&
         (regs_.localBytes & 3) == 0 && regs_.localBytes <= 512 * 1024;
}

void ControlRegs::complete(ErrorCode error, uint64_t cycles) {
  cycles_ = cycles;
  status_ = (status_ & ~kBusy) | kDone;
  if (error != ErrorCode::None) {
    status_ |= kError;
    error_ = static_cast<uint32_t>(error);
  }
  updateIrq();
}

void ControlRegs::updateIrq() {
  irqLevel_ = irqEnable_ && (status_ & (kDone | kError));
  irqChanged_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace simtlm::model
