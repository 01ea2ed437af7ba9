// Cross-field checks and the JSON form of a configuration.
#include "model/common/config.h"

#include <iterator>

#include "model/common/params.h"

namespace simtlm::config {

namespace {

bool isPowerOfTwo(long long v) { return v > 0 && (v & (v - 1)) == 0; }

// "name = value" of a field, for messages.
std::string kv(const GpuConfig& c, const std::string& key) {
  return key + " = " + findParam(key)->format(c);
}

void require(bool ok, const std::string& message) {
  if (!ok) throw ConfigError(message);
}

void checkCache(const GpuConfig& c, const std::string& unit, const std::string& prefix, int size,
                int line, int assoc) {
  require(isPowerOfTwo(line), kv(c, prefix + "line") + " must be a power of two");
  require(size % (static_cast<long long>(line) * assoc) == 0,
          kv(c, prefix + "size") + " must be a multiple of " + prefix + "line * " + prefix +
              "assoc = " + std::to_string(static_cast<long long>(line) * assoc) + " (whole " +
              unit + " sets)");
}

}  // namespace

void checkConfig(const GpuConfig& c) {
  require(c.sm.num_warps % c.issue.schedulers == 0,
          kv(c, "sm.num_warps") + " must be a multiple of " + kv(c, "issue.schedulers") +
              " (warps are partitioned statically among the schedulers)");
  require(c.sm.max_blocks <= c.sm.num_warps,
          kv(c, "sm.max_blocks") + " exceeds " + kv(c, "sm.num_warps") +
              " (every resident block needs at least one warp)");
  require(c.sm.num_registers % c.gpu.warp_size == 0,
          kv(c, "sm.num_registers") + " must be a multiple of " + kv(c, "gpu.warp_size") +
              " (registers are allocated as whole warp registers)");
  require((c.sm.num_registers / c.gpu.warp_size) % c.regfile.banks == 0,
          kv(c, "sm.num_registers") + " / gpu.warp_size must be a multiple of " +
              kv(c, "regfile.banks") + " (every bank holds the same number of warp registers)");
  require(c.regfile.collectors >= c.issue.schedulers,
          kv(c, "regfile.collectors") + " is less than " + kv(c, "issue.schedulers") +
              " (each scheduler needs a collector to issue into)");
  require(c.uv.fault_sm < c.gpu.num_sms,
          kv(c, "uv.fault.sm") + " must name an SM below " + kv(c, "gpu.num_sms"));
  require(c.gpu.warp_size % c.exec.simd_width == 0,
          kv(c, "gpu.warp_size") + " must be a multiple of " + kv(c, "exec.simd_width"));
  require(c.gpu.warp_size % c.exec.sfu_width == 0,
          kv(c, "gpu.warp_size") + " must be a multiple of " + kv(c, "exec.sfu_width"));
  require(c.gpu.warp_size % c.exec.ldst_width == 0,
          kv(c, "gpu.warp_size") + " must be a multiple of " + kv(c, "exec.ldst_width"));
  require(c.frontend.icache_line % (8 * c.frontend.fetch_width) == 0,
          kv(c, "frontend.icache_line") + " must hold whole fetch groups of " +
              kv(c, "frontend.fetch_width") + " 8-byte instructions");
  checkCache(c, "instruction cache", "frontend.icache_", c.frontend.icache_size,
             c.frontend.icache_line, c.frontend.icache_assoc);
  // (The L1 caches ld.global.nc loads even when l1.enabled is false.)
  checkCache(c, "L1", "l1.", c.l1.size, c.l1.line, c.l1.assoc);
  require(c.const_cache.size % (static_cast<long long>(c.l1.line) * c.const_cache.assoc) == 0,
          kv(c, "const_cache.size") + " must be a multiple of l1.line * const_cache.assoc = " +
              std::to_string(static_cast<long long>(c.l1.line) * c.const_cache.assoc) +
              " (whole constant cache sets; its line is l1.line)");
  if (c.l2.enabled) {
    checkCache(c, "L2", "l2.", c.l2.size, c.l2.line, c.l2.assoc);
    const long long slices = static_cast<long long>(c.dram.channels) * c.l2.sub_partitions;
    require(c.l2.size % (slices * c.l2.line * c.l2.assoc) == 0,
            kv(c, "l2.size") + " must be a multiple of dram.channels * l2.sub_partitions * " +
                "l2.line * l2.assoc = " + std::to_string(slices * c.l2.line * c.l2.assoc) +
                " (every slice holds whole sets)");
    require(c.l1.line <= c.l2.line,
            kv(c, "l1.line") + " must be at most " + kv(c, "l2.line") +
                " (a line request, store or atomic must stay within one L2 slice)");
    require(c.dram.interleave % (static_cast<long long>(c.l2.line) * c.l2.sub_partitions) == 0,
            kv(c, "dram.interleave") + " must be a multiple of l2.line * l2.sub_partitions = " +
                std::to_string(static_cast<long long>(c.l2.line) * c.l2.sub_partitions) +
                " (a channel's granule holds a line of each of its slices)");
  }
  require(c.shared.size % c.shared.bank_width == 0,
          kv(c, "shared.size") + " must be a multiple of " + kv(c, "shared.bank_width"));
  require(isPowerOfTwo(c.dram.interleave), kv(c, "dram.interleave") + " must be a power of two");
  if (c.dram.scheduler == DramScheduler::Frfcfs)
    require(isPowerOfTwo(c.dram.banks_per_channel),
            kv(c, "dram.banks_per_channel") +
                " must be a power of two with dram.scheduler=frfcfs (banks are address bits)");
}

nlohmann::json toJson(const GpuConfig& c) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& p : params()) j[p.key] = p.json(c);
  return j;
}

}  // namespace simtlm::config

namespace simtlm::config {

namespace {
constexpr const char* kMechanismNames[] = {"baseline", "darsie", "darsie-ignore-store",
                                           "darsie-no-cf-sync", "darsie-early-skip", "uv-token", "uv-irb", "uv",
                                           "uv-srf", "uv-srf-irb", "dac-ideal", "affine-a",
                                           "affine-ab", "affine-abm", "bow", "bow-wr",
                                           "bow-wr-half", "rfc"};
constexpr int kMechanisms = static_cast<int>(std::size(kMechanismNames));
}  // namespace

const char* mechanismName(Mechanism m) {
  const auto i = static_cast<size_t>(m);
  return i < std::size(kMechanismNames) ? kMechanismNames[i] : "?";
}

Mechanism mechanismFromName(const std::string& name) {
  std::string known;
  for (int i = 0; i < kMechanisms; ++i) {
    if (name == kMechanismNames[i]) return static_cast<Mechanism>(i);
    known += std::string(i == 0 ? "" : i == kMechanisms - 1 ? " or " : ", ") + kMechanismNames[i];
  }
  throw ConfigError("unknown mechanism '" + name.substr(0, 40) + "' (known: " + known + ")");
}

}  // namespace simtlm::config
