// Internal to model/common: builders that turn one line of the parameter table into a Param
// whose parse/format/json functions read and write one GpuConfig field.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/common/params.h"

namespace simtlm::config {

// Selects a field of GpuConfig, for both const and non-const configs.
#define SIMTLM_FIELD(path) [](auto& c) -> auto& { return c.path; }

std::optional<long long> parseInteger(const std::string& text, bool bytes);
std::optional<double> parseReal(const std::string& text);
std::optional<bool> parseBoolean(const std::string& text);
std::optional<int> parseChoice(const std::string& text, const std::vector<std::string>& choices);
std::string formatReal(double v);

template <class F>
Param intParam(std::string key, F field, long long def, std::string unit, long long lo,
               long long hi, std::string desc) {
  Param p{std::move(key), ParamType::Int, std::to_string(def), std::move(unit), std::move(desc),
          static_cast<double>(lo), static_cast<double>(hi), {}, {}, {}, {}};
  bool bytes = p.unit == "bytes";
  std::string range = p.allowed() + (p.unit.empty() ? "" : " " + p.unit);
  p.parse = [field, lo, hi, bytes, range](GpuConfig& c, const std::string& text) -> std::string {
    auto v = parseInteger(text, bytes);
    if (!v) return bytes ? "not an integer number of bytes (K and M suffixes allowed)"
                         : "not an integer";
    if (*v < lo || *v > hi) return "out of range " + range;
    field(c) = static_cast<std::remove_reference_t<decltype(field(c))>>(*v);
    return "";
  };
  p.format = [field](const GpuConfig& c) { return std::to_string(field(c)); };
  p.json = [field](const GpuConfig& c) { return nlohmann::json(field(c)); };
  return p;
}

template <class F>
Param realParam(std::string key, F field, double def, std::string unit, double lo, double hi,
                std::string desc) {
  Param p{std::move(key), ParamType::Double, formatReal(def), std::move(unit), std::move(desc),
          lo, hi, {}, {}, {}, {}};
  std::string range = p.allowed() + (p.unit.empty() ? "" : " " + p.unit);
  p.parse = [field, lo, hi, range](GpuConfig& c, const std::string& text) -> std::string {
    auto v = parseReal(text);
    if (!v) return "not a number";
    if (*v < lo || *v > hi) return "out of range " + range;
    field(c) = *v;
    return "";
  };
  p.format = [field](const GpuConfig& c) { return formatReal(field(c)); };
  p.json = [field](const GpuConfig& c) { return nlohmann::json(field(c)); };
  return p;
}

template <class F>
Param boolParam(std::string key, F field, bool def, std::string desc) {
  Param p{std::move(key), ParamType::Bool, def ? "true" : "false", "", std::move(desc),
          0, 1, {}, {}, {}, {}};
  p.parse = [field](GpuConfig& c, const std::string& text) -> std::string {
    auto v = parseBoolean(text);
    if (!v) return "not a boolean (true|false, yes|no, on|off, 1|0)";
    field(c) = *v;
    return "";
  };
  p.format = [field](const GpuConfig& c) { return std::string(field(c) ? "true" : "false"); };
  p.json = [field](const GpuConfig& c) { return nlohmann::json(field(c)); };
  return p;
}

// `choices` lists the names in the enumerators' order.
template <class F>
Param enumParam(std::string key, F field, std::vector<std::string> choices, std::string def,
                std::string desc) {
  using E = std::remove_reference_t<decltype(field(std::declval<GpuConfig&>()))>;
  Param p{std::move(key), ParamType::Enum, std::move(def), "", std::move(desc),
          0, 0, std::move(choices), {}, {}, {}};
  auto names = p.choices;
  std::string allowed = p.allowed();
  p.parse = [field, names, allowed](GpuConfig& c, const std::string& text) -> std::string {
    auto v = parseChoice(text, names);
    if (!v) return "not one of " + allowed;
    field(c) = static_cast<E>(*v);
    return "";
  };
  p.format = [field, names](const GpuConfig& c) { return names[static_cast<size_t>(field(c))]; };
  p.json = [field, names](const GpuConfig& c) {
    return nlohmann::json(names[static_cast<size_t>(field(c))]);
  };
  return p;
}

}  // namespace simtlm::config
