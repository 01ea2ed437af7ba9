// UV: uniform vector instructions (docs/uv.md; UV paper Sec. 3.1.1 and 3.2), a mechanism of the
// SM attached through its hooks (model/sm/sm_mechanism.h). Three configuration names share it:
//   uv-token  intra-warp: a uniform instruction is computed on one lane (UV Sec. 3.1.1);
//   uv-irb    inter-warp: uniform instructions look up the instruction reuse buffer, a hit
//             supplies the stored result and skips execution (Sec. 3.2); the rest run as vectors;
//   uv        both (Sec. 5.1's combined design).
//
// A token bit per vector register of a warp marks a uniform value. With scalar execution its
// scalar lives in one lane of the register, N = warp size - SIMD width (0 when the unit is a
// warp wide): the other lanes are stale and are never read. An ALU instruction whose sources are
// all uniform (token registers, immediates, special registers the same in every thread),
// executed by the whole warp, is uniform: with scalar execution it is computed on lane N alone
// in one cycle of its unit; its destination gets the token. A vector instruction reads a token
// register through the broadcast path: lane N's value in every lane. A vector write to a token
// register clears the token; one that leaves lanes unwritten (divergence, a guard, a partial
// warp) first copies the scalar into every lane (copy-on-write, an inserted vector move). A load
// whose address is uniform, by the whole warp, returns one value through the broadcast path:
// its destination gets the token.
//
// uv-srf and uv-srf-irb keep the scalars in a scalar register file instead (UV Sec. 3.1.2,
// scalar_register_file.h): a uniform instruction reads its sources from the SRF, computes on
// lane N and writes a newly renamed scalar register; the vector register is not touched. Vector
// instructions read renamed registers from the SRF through the broadcast path. When the SRF
// has no free register, a uniform instruction executes as a vector one.
//
// With uv.reliability (Sec. 3.3) a converted instruction is computed on two lanes, N and M (the
// lane beside it), and the two results compared; a scalar is stored twice (lanes N and M, or the
// SRF and lane N of the vector register) and its copies compared when it is read.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "model/mechanisms/broadcast_rows.h"
#include "model/mechanisms/uv/reliability.h"
#include "model/mechanisms/uv/scalar_register_file.h"
#include "model/sm/sm_mechanism.h"

namespace simtlm::uv {

struct UvVariant {
  bool scalar;  // uniform instructions computed on lane N (intra-warp)
  bool irb;     // the instruction reuse buffer (inter-warp)
  bool srf;     // scalars live in a scalar register file (Sec. 3.1.2), not in lane N of the VRF
};

class UvMechanism final : public sm::SmMechanism {
 public:
  UvMechanism(sm::SmContext& sm, stats::Registry& stats, UvVariant variant);

  void kernelStarted() override;
  void blockAdmitted(int blockSlot) override;
  void blockRetired(int blockSlot) override;
  void planExecute(int slot, const isa::Instr& in, uint32_t pc, sm::ExecutePlan& plan) override;
  void afterExecute(int slot, const isa::Instr& in) override;

 private:
  // One IRB entry (UV Sec. 4: a 10-bit partial PC tag, the opcode, three source values, the
  // result, LRU state).
  struct IrbEntry {
    bool valid = false;
    uint32_t tag = 0;
    isa::Op op = isa::Op::NOP;
    std::array<uint32_t, 3> src{};
    uint32_t result = 0;
    uint64_t used = 0;  // LRU: the last lookup that touched it
  };

  // The warp's registers that hold a scalar (token bits, or renamed to the SRF).
  uint64_t scalarRegs(int slot) const;
  bool uniformSources(const isa::Instr& in, uint64_t scalars) const;
  void decide(int slot, const isa::Instr& in, uint32_t pc, sm::ExecutePlan& plan);
  void writeBack(int slot, const isa::Instr& in);
  // The scalar of register r (lane N, or the SRF), its copies compared under reliability.
  uint32_t readScalar(int slot, uint8_t r);
  // The registers holding a second copy of their scalar (reliability).
  uint64_t twoCopies(int slot) const;
  // Before a partial write to a register holding a scalar: the scalar into every lane.
  void copyOnWrite(int slot, uint8_t r, sm::ExecutePlan& plan);
  // Maps the scalar registers the instruction reads onto rows holding the scalar in every lane.
  void broadcastSources(int slot, const isa::Instr& in, sm::ExecutePlan& plan);
  // The IRB for a uniform instruction: true on a hit (the plan then skips execution).
  bool lookUp(int slot, const isa::Instr& in, uint32_t pc, sm::ExecutePlan& plan);
  void remember(uint32_t result);  // after a miss or a mismatch: the instruction's result
  // The warp's token bits become `mask`; the token file's occupancy is integrated over cycles.
  void setTokens(int slot, uint64_t mask);

  sm::SmContext& sm_;
  UvVariant variant_;
  int lane_ = 0;                  // N: the lane that holds a token register's scalar
  std::vector<uint64_t> tokens_;  // per warp slot, bit r for register r
  uint64_t tokensSet_ = 0, tokensSince_ = 0;  // token bits set on the SM, since that cycle
  std::vector<IrbEntry> irb_;
  ScalarRegisterFile srf_;
  Reliability rel_;
  int lane2_ = -1;  // M: the second lane under reliability, or -1 (off, or a one-lane warp)
  uint64_t lookups_ = 0;
  // The instruction between planExecute and afterExecute: the registers read through the
  // broadcast path (each mapped onto a row holding its scalar in every lane; the destination row
  // takes a scalar result bound for the SRF), the token its destination gets, and what the IRB
  // found.
  mechanisms::BroadcastRows rows_;
  int destToken_ = 0;      // -1: the destination's token is cleared; 1: set; 0: no destination
  bool scalarResult_ = false;  // the result is a scalar (lane N, or a new SRF register)
  uint32_t pc_ = 0, lanes_ = 0;  // its PC and the lanes it executes
  int irbEntry_ = -1;      // the entry to fill with this instruction's result, or -1
  bool irbHit_ = false;    // the result comes from irb_[irbEntry_]
  std::array<uint32_t, 3> irbSrc_{};  // this instruction's source values (lane N)
  uint64_t uniform_ = 0, copies_ = 0, broadcastReads_ = 0, uniformLoads_ = 0, cyclesSaved_ = 0;
  uint64_t tokenPeak_ = 0, tokenCycles_ = 0;  // the token file: registers holding a token
  uint64_t srfFull_ = 0;
  uint64_t irbHits_ = 0, irbMismatches_ = 0, irbMisses_ = 0, irbReplacements_ = 0;
};

}  // namespace simtlm::uv
