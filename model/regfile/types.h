// Index types and the bank mapping of the banked vector register file (docs/regfile.md).
// Pure C++, no SystemC.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace simtlm::regfile {

// A physical vector register of one SM (one warp register: warp_size x 32 bits).
enum class PhysReg : uint32_t {};
// A register-file bank of one SM.
enum class BankId : uint32_t {};
// An operand collector unit of one SM.
enum class CollectorId : uint32_t {};

constexpr uint32_t index(PhysReg p) { return static_cast<uint32_t>(p); }
constexpr uint32_t index(BankId b) { return static_cast<uint32_t>(b); }
constexpr uint32_t index(CollectorId c) { return static_cast<uint32_t>(c); }

// Where a physical register lives. Both mappings are functions of the physical register alone
// (not of the warp reading it), so a register renamed to another warp's physical register
// (a mechanism's renaming) is read from that register's bank. Each bank holds exactly one register
// of every row of `banks` consecutive physical registers; the row is the entry index.
enum class BankMapping : uint8_t {
  Interleaved,  // bank = p % banks
  Skewed,       // bank = (p + p / banks) % banks: each row rotated by its row number
};
// Skewed is the default: with a register count that is a multiple of the bank count, every
// warp's rN would otherwise sit in one bank; skewing gives warp w's rN bank (N + w) % banks,
// GPGPU-Sim's warp-offset mapping, in that case.
inline constexpr BankMapping kDefaultBankMapping = BankMapping::Skewed;

constexpr BankId bankOf(PhysReg p, uint32_t banks, BankMapping m = kDefaultBankMapping) {
  const uint32_t r = index(p);
  return BankId{m == BankMapping::Interleaved ? r % banks : (r + r / banks) % banks};
}

// "interleaved" | "skewed" (the factory a configuration key would use).
std::optional<BankMapping> bankMappingByName(std::string_view name);
std::string_view bankMappingName(BankMapping m);

}  // namespace simtlm::regfile
