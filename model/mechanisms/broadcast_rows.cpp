#include "model/mechanisms/broadcast_rows.h"

#include <algorithm>

namespace simtlm::mechanisms {

uint32_t* BroadcastRows::mapSource(isa::WarpContext& ctx, uint8_t r) {
  uint32_t* row = rows_[mapped_.size()].data();
  ctx.mapReg(r, row);
  mapped_.push_back(r);
  return row;
}

void BroadcastRows::mapDestination(isa::WarpContext& ctx, uint8_t r) {
  if (std::find(mapped_.begin(), mapped_.end(), r) != mapped_.end()) return;
  ctx.mapReg(r, scratch());
  mapped_.push_back(r);
}

void BroadcastRows::unmapAll(isa::WarpContext& ctx, std::optional<uint8_t> writtenAtExecute) {
  for (uint8_t r : mapped_) {
    if (writtenAtExecute == r) std::copy(ctx.reg(r), ctx.reg(r) + ctx.lanes(), ctx.privateReg(r));
    ctx.unmapReg(r);
  }
  mapped_.clear();
}

}  // namespace simtlm::mechanisms
