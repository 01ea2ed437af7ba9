// DARSIE's storage per SM (Sec. 6.3 "Area Estimation"): the bits of the PC skip table, the
// majority-path masks and the register rename/version tables, from the machine configuration
// (sm.max_blocks, sm.num_warps, darsie.skip_entries, darsie.rename_regs) and the field widths a
// designer chooses (StorageParams). Pure arithmetic: no SystemC, no simulation.
//
// With the paper's parameters (32 TBs per SM, 8 skip entries and 32 rename entries per TB, 32
// warps per TB, 48-bit PC, 8+8+5-bit rename entries) it gives the paper's figures:
//   PC skip table      256 entries x 82 bits = 20992 bits (2624 bytes)
//   majority masks      32 entries x 32 bits =  1024 bits ( 128 bytes)
//   rename/version    1024 entries x 21 bits = 21504 bits (2688 bytes)
//   total                                     43520 bits (5440 bytes = 5.3125 kB)
// The paper prints "20092 bits (2624 bytes)" for the skip table: 256 x 82 = 20992 bits, which
// is 2624 bytes, so 20092 is a typo (20092 bits would be 2511.5 bytes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/common/config.h"

namespace simtlm::darsie {

// Field widths a designer varies. Defaults are the paper's (Sec. 6.3).
struct StorageParams {
  int pcBits = 48;         // PC field of a skip-table entry
  int namedRegBits = 8;    // named register of a rename entry (CUDA: up to 255 per thread)
  int physTagBits = 8;     // physical register tag of a rename entry
  int versionBits = 5;     // version number of a rename entry
  // Warps one thread block can have: the width of the warp-waiting mask and of a majority-path
  // mask. 0 derives it: CUDA's 1024 threads per block / gpu.warp_size (32 for 32-wide warps,
  // the paper's figure). Either way it is capped by sm.num_warps (a block never has more
  // warps than the SM).
  int maxWarpsPerTb = 0;
};

// One structure: `entries` entries of `bitsPerEntry` bits.
struct StorageRow {
  std::string name;
  uint64_t entries = 0;
  uint64_t bitsPerEntry = 0;
  uint64_t bits = 0;  // entries x bitsPerEntry
};

struct DarsieStorage {
  // Inputs as used.
  int maxTbs = 0;           // sm.max_blocks
  int warpsPerTb = 0;       // warp mask width (StorageParams::maxWarpsPerTb, resolved)
  int skipEntriesPerTb = 0; // darsie.skip_entries
  int renameEntriesPerTb = 0;  // darsie.rename_regs
  StorageParams params;

  // PC skip table: skipEntriesPerTb x maxTbs entries of PC + warp-waiting mask + IsLoad + LeaderWB.
  uint64_t skipTableEntries = 0, skipTableEntryBits = 0, skipTableBits = 0;
  // Majority-path masks: one per TB, one bit per warp.
  uint64_t majorityMaskEntries = 0, majorityMaskEntryBits = 0, majorityMaskBits = 0;
  // Rename + version tables: renameEntriesPerTb x maxTbs entries of named reg + phys tag + version.
  uint64_t renameEntries = 0, renameEntryBits = 0, renameBits = 0;

  uint64_t totalBits = 0;
  double totalBytes() const { return static_cast<double>(totalBits) / 8.0; }
  double totalKiB() const { return totalBytes() / 1024.0; }  // 1 kB = 1024 bytes, as the paper

  // The three structures in order, then nothing else (the total is the fields above).
  std::vector<StorageRow> rows() const;
};

// Throws std::invalid_argument for a field width outside [1, 64] (maxWarpsPerTb: 0 or [1, 1024]).
DarsieStorage computeStorage(const config::GpuConfig& cfg, const StorageParams& p = {});

// The table `simtlm darsie-storage` prints: inputs, one line per structure, the total.
std::string formatStorage(const DarsieStorage& s);
// The same as JSON: inputs, field widths, rows and totals (bits, bytes, kB).
nlohmann::json toJson(const DarsieStorage& s);

}  // namespace simtlm::darsie
