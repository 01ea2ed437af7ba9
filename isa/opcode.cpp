#include "isa/opcode.h"

#include <array>
#include <unordered_map>

namespace simtlm::isa {
namespace {
constexpr const auto& kTable = kOpTable;
}  // namespace

std::optional<Op> opByName(std::string_view name) {
  static const auto* byName = [] {
    auto* m = new std::unordered_map<std::string_view, Op>();
    for (const auto& e : kTable) m->emplace(e.name, e.op);
    return m;
  }();
  auto it = byName->find(name);
  if (it == byName->end()) return std::nullopt;
  return it->second;
}

std::string_view className(OpClass c) {
  static constexpr std::array<std::string_view, kNumOpClasses> kNames = {
      "int", "int_mul", "int_div", "fp", "fp_div", "sfu", "convert", "move", "compare",
      "predicate", "load_global", "load_shared", "load_param", "store_global", "store_shared",
      "atomic_global", "atomic_shared", "control", "barrier", "fence", "exit", "nop"};
  return kNames[static_cast<size_t>(c)];
}

bool writesGpr(Format f) {
  switch (f) {
    case Format::Unary: case Format::Binary: case Format::Ternary: case Format::Select:
    case Format::Special: case Format::Load: case Format::Atomic: case Format::AtomicCas:
      return true;
    default:
      return false;
  }
}

bool writesPred(Format f) {
  return f == Format::Compare || f == Format::PredBinary || f == Format::PredUnary;
}

bool isMemory(Format f) {
  return f == Format::Load || f == Format::Store || f == Format::Atomic ||
         f == Format::AtomicCas;
}

bool allowsImmediate(Format f) {
  return f == Format::Unary || f == Format::Binary || f == Format::Compare;
}

int numGprSources(Format f) {
  switch (f) {
    case Format::Unary: return 1;
    case Format::Binary: case Format::Select: case Format::Compare: return 2;
    case Format::Ternary: return 3;
    case Format::Store: case Format::Atomic: return 1;  // rB (data)
    case Format::AtomicCas: return 2;                   // rB, rC
    default: return 0;
  }
}

}  // namespace simtlm::isa
