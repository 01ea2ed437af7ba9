#include "model/mechanisms/darsie/storage.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace simtlm::darsie {
namespace {

constexpr int kMaxThreadsPerTb = 1024;  // CUDA's limit on threads per block

void checkWidth(const char* name, int v) {
  if (v < 1 || v > 64)
    throw std::invalid_argument(std::string(name) + " " + std::to_string(v) + " is outside [1, 64] bits");
}

// Bytes of `bits`: an integer when whole, else with the fraction (x.125 .. x.875).
std::string bytesText(uint64_t bits) {
  char b[32];
  if (bits % 8 == 0) std::snprintf(b, sizeof b, "%llu", static_cast<unsigned long long>(bits / 8));
  else std::snprintf(b, sizeof b, "%.3f", static_cast<double>(bits) / 8.0);
  return b;
}

}  // namespace

DarsieStorage computeStorage(const config::GpuConfig& cfg, const StorageParams& p) {
  checkWidth("PC bits", p.pcBits);
  checkWidth("named-register bits", p.namedRegBits);
  checkWidth("physical-register tag bits", p.physTagBits);
  checkWidth("version bits", p.versionBits);
  if (p.maxWarpsPerTb < 0 || p.maxWarpsPerTb > 1024)
    throw std::invalid_argument("max warps per thread block " + std::to_string(p.maxWarpsPerTb) +
                                " is outside [1, 1024] (0: derive from gpu.warp_size)");
  if (cfg.gpu.warp_size < 1 || cfg.sm.max_blocks < 1 || cfg.sm.num_warps < 1)
    throw std::invalid_argument("gpu.warp_size, sm.max_blocks and sm.num_warps must be positive");

  DarsieStorage s;
  s.params = p;
  s.maxTbs = cfg.sm.max_blocks;
  const int derived = (kMaxThreadsPerTb + cfg.gpu.warp_size - 1) / cfg.gpu.warp_size;
  s.warpsPerTb = std::min(p.maxWarpsPerTb > 0 ? p.maxWarpsPerTb : derived, cfg.sm.num_warps);
  s.skipEntriesPerTb = cfg.darsie.skip_entries;
  s.renameEntriesPerTb = cfg.darsie.rename_regs;

  const uint64_t tbs = static_cast<uint64_t>(s.maxTbs);
  const uint64_t warps = static_cast<uint64_t>(s.warpsPerTb);
  s.skipTableEntries = static_cast<uint64_t>(s.skipEntriesPerTb) * tbs;
  s.skipTableEntryBits = static_cast<uint64_t>(p.pcBits) + warps + 1 /* IsLoad */ + 1 /* LeaderWB */;
  s.skipTableBits = s.skipTableEntries * s.skipTableEntryBits;
  s.majorityMaskEntries = tbs;
  s.majorityMaskEntryBits = warps;
  s.majorityMaskBits = s.majorityMaskEntries * s.majorityMaskEntryBits;
  s.renameEntries = static_cast<uint64_t>(s.renameEntriesPerTb) * tbs;
  s.renameEntryBits = static_cast<uint64_t>(p.namedRegBits + p.physTagBits + p.versionBits);
  s.renameBits = s.renameEntries * s.renameEntryBits;
  s.totalBits = s.skipTableBits + s.majorityMaskBits + s.renameBits;
  return s;
}

std::vector<StorageRow> DarsieStorage::rows() const {
  return {{"PC skip table", skipTableEntries, skipTableEntryBits, skipTableBits},
          {"majority-path masks", majorityMaskEntries, majorityMaskEntryBits, majorityMaskBits},
          {"rename/version tables", renameEntries, renameEntryBits, renameBits}};
}

std::string formatStorage(const DarsieStorage& s) {
  std::ostringstream o;
  char line[160];
  o << "DARSIE storage per SM (DARSIE Sec. 6.3): " << s.maxTbs << " thread blocks (sm.max_blocks), "
    << s.warpsPerTb << " warps per block, " << s.skipEntriesPerTb << " skip entries and "
    << s.renameEntriesPerTb << " rename entries per block\n";
  std::snprintf(line, sizeof line, "  %-22s %8s %11s %10s %10s\n", "structure", "entries", "bits/entry", "bits", "bytes");
  o << line;
  for (const auto& r : s.rows()) {
    std::snprintf(line, sizeof line, "  %-22s %8llu %11llu %10llu %10s\n", r.name.c_str(),
                  static_cast<unsigned long long>(r.entries), static_cast<unsigned long long>(r.bitsPerEntry),
                  static_cast<unsigned long long>(r.bits), bytesText(r.bits).c_str());
    o << line;
  }
  std::snprintf(line, sizeof line, "  %-22s %8s %11s %10llu %10s  = %.4f kB (1 kB = 1024 bytes)\n", "total", "", "",
                static_cast<unsigned long long>(s.totalBits), bytesText(s.totalBits).c_str(), s.totalKiB());
  o << line;
  o << "  skip entry: PC " << s.params.pcBits << " + warp-waiting mask " << s.warpsPerTb
    << " + IsLoad 1 + LeaderWB 1 bits; majority mask: " << s.warpsPerTb << " bits per block;\n"
    << "  rename entry: named register " << s.params.namedRegBits << " + physical tag "
    << s.params.physTagBits << " + version " << s.params.versionBits << " bits\n";
  return o.str();
}

nlohmann::json toJson(const DarsieStorage& s) {
  nlohmann::json j;
  j["max_blocks"] = s.maxTbs;
  j["warps_per_block"] = s.warpsPerTb;
  j["skip_entries_per_block"] = s.skipEntriesPerTb;
  j["rename_entries_per_block"] = s.renameEntriesPerTb;
  j["field_bits"] = {{"pc", s.params.pcBits}, {"warp_mask", s.warpsPerTb}, {"is_load", 1}, {"leader_wb", 1},
                     {"named_register", s.params.namedRegBits}, {"physical_tag", s.params.physTagBits},
                     {"version", s.params.versionBits}};
  j["structures"] = nlohmann::json::array();
  for (const auto& r : s.rows())
    j["structures"].push_back({{"name", r.name}, {"entries", r.entries}, {"bits_per_entry", r.bitsPerEntry},
                               {"bits", r.bits}, {"bytes", static_cast<double>(r.bits) / 8.0}});
  j["total"] = {{"bits", s.totalBits}, {"bytes", s.totalBytes()}, {"kB", s.totalKiB()}};
  return j;
}

}  // namespace simtlm::darsie
