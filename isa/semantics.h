// Per-lane semantics of every ALU opcode (the lane expressions of opcodes.def) and the helpers
// they are written with. Pure functions: used by the interpreter and by the timing model.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <limits>

#include "isa/opcode.h"

namespace simtlm::isa {

inline int32_t S(uint32_t x) { return static_cast<int32_t>(x); }
inline float F(uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
// The bits of an FP result. A NaN is the canonical 0x7fffffff (an NVIDIA GPU's FP32 NaN): which
// NaN the host returns depends on how the compiler ordered commutative operands, which differs
// between the whole-warp and the one-lane loops of the semantic functions, and kernels can see
// the bits.
inline uint32_t U(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return f != f ? 0x7FFFFFFFu : x;
}

inline uint32_t mulHiS32(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>((static_cast<int64_t>(S(a)) * S(b)) >> 32);
}
inline uint32_t mulHiU32(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
}
// Division never traps: x/0 gives all ones (unsigned) or -1 (signed), x%0 gives x, and
// INT_MIN / -1 gives INT_MIN with remainder 0 (the RISC-V convention).
inline uint32_t divU32(uint32_t a, uint32_t b) { return b == 0 ? 0xFFFFFFFFu : a / b; }
inline uint32_t remU32(uint32_t a, uint32_t b) { return b == 0 ? a : a % b; }
inline uint32_t divS32(uint32_t a, uint32_t b) {
  if (b == 0) return 0xFFFFFFFFu;
  if (a == 0x80000000u && b == 0xFFFFFFFFu) return a;
  return static_cast<uint32_t>(S(a) / S(b));
}
inline uint32_t remS32(uint32_t a, uint32_t b) {
  if (b == 0) return a;
  if (a == 0x80000000u && b == 0xFFFFFFFFu) return 0;
  return static_cast<uint32_t>(S(a) % S(b));
}
// Arithmetic shift: amounts of 32 and more fill with the sign bit.
inline uint32_t shrS32(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>(S(a) >> (b >= 32 ? 31 : b));
}
// min/max.f32: a NaN operand yields the other operand; two NaNs yield the canonical NaN.
inline uint32_t minF32(uint32_t a, uint32_t b) {
  float x = F(a), y = F(b);
  if (std::isnan(x) && std::isnan(y)) return 0x7FFFFFFFu;
  if (std::isnan(x)) return b;
  if (std::isnan(y)) return a;
  if (x == y) return (a | b);  // min(-0, +0) = -0
  return x < y ? a : b;
}
inline uint32_t maxF32(uint32_t a, uint32_t b) {
  float x = F(a), y = F(b);
  if (std::isnan(x) && std::isnan(y)) return 0x7FFFFFFFu;
  if (std::isnan(x)) return b;
  if (std::isnan(y)) return a;
  if (x == y) return (a & b);  // max(-0, +0) = +0
  return x > y ? a : b;
}
// Float to integer conversions saturate; NaN converts to 0.
inline uint32_t cvtS32(float f) {
  if (std::isnan(f)) return 0;
  if (f <= -2147483648.0f) return 0x80000000u;
  if (f >= 2147483648.0f) return 0x7FFFFFFFu;
  return static_cast<uint32_t>(static_cast<int32_t>(f));
}
inline uint32_t cvtU32(float f) {
  if (std::isnan(f) || f <= 0.0f) return 0;
  if (f >= 4294967296.0f) return 0xFFFFFFFFu;
  return static_cast<uint32_t>(f);
}

// Bit manipulation (PTX semantics). The field of bfe/bfi is packed: position = f & 0xff,
// length = (f >> 8) & 0xff; bits past bit 31 are not part of the field.
inline uint32_t popcB32(uint32_t a) { return static_cast<uint32_t>(__builtin_popcount(a)); }
inline uint32_t clzB32(uint32_t a) { return a == 0 ? 32u : static_cast<uint32_t>(__builtin_clz(a)); }
inline uint32_t brevB32(uint32_t a) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) r |= ((a >> i) & 1u) << (31 - i);
  return r;
}
inline uint32_t bfeB32(uint32_t a, uint32_t f, bool isSigned) {
  const uint32_t pos = f & 0xffu, len = (f >> 8) & 0xffu;
  const uint32_t sbit = (isSigned && len != 0) ? (a >> std::min(pos + len - 1, 31u)) & 1u : 0u;
  uint32_t d = 0;
  for (uint32_t i = 0; i < 32; ++i) d |= ((i < len && pos + i <= 31) ? (a >> (pos + i)) & 1u : sbit) << i;
  return d;
}
inline uint32_t bfiB32(uint32_t a, uint32_t b, uint32_t f) {
  const uint32_t pos = f & 0xffu, len = (f >> 8) & 0xffu;
  uint32_t d = b;
  for (uint32_t i = 0; i < len && pos + i <= 31; ++i) d = (d & ~(1u << (pos + i))) | (((a >> i) & 1u) << (pos + i));
  return d;
}
// Flush to zero: a subnormal becomes a zero of the same sign (PTX .ftz).
inline float ftz(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

// The result of one lane of an ALU opcode (formats Unary..PredUnary) or the new memory word of
// an atomic (a = old word). Opcodes without a lane expression return 0.
uint32_t evalLane(Op op, uint32_t a, uint32_t b, uint32_t c);

// A warp-wide ALU operation: d[l] = op(a[l], b[l], c[l]) for every lane l set in mask.
// Sources may be broadcast (stride 0) for immediates and uniform values.
using WarpAluFn = void (*)(const uint32_t* a, int sa, const uint32_t* b, int sb,
                           const uint32_t* c, int sc, uint32_t* d, uint32_t mask, int lanes);
WarpAluFn warpAlu(Op op);

}  // namespace simtlm::isa
