// Loading the `launches:` of a scenario: a kernel file or a workload, its shape and parameters.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "isa/cfg.h"
#include "isa/darsie_analysis.h"
#include "cli/scenario_parse.h"
#include "isa/diagnostics.h"
#include "workloads/data_dir.h"

namespace simtlm::scenario {

std::string Launch::label() const {
  return workload ? "workload " + workload->name() : "kernel " + kernels.at(0).name;
}

namespace {

// An integer or a list of one to three integers, each within its limit.
isa::Dim3 parseDim3(const yaml::Value& v, const uint32_t (&hi)[3]) {
  isa::Dim3 d;
  uint32_t* parts[3] = {&d.x, &d.y, &d.z};
  if (v.isScalar()) {
    d.x = static_cast<uint32_t>(v.integer(1, hi[0]));
    return d;
  }
  if (!v.isSequence()) v.fail("expected an integer or a list [x, y, z]");
  auto items = v.items();
  if (items.empty() || items.size() > 3) v.fail("expected one to three dimensions, found " + std::to_string(items.size()));
  for (size_t i = 0; i < items.size(); ++i) *parts[i] = static_cast<uint32_t>(items[i].integer(1, hi[i]));
  return d;
}

// A buffer name (its address) or a number: an integer, or a float passed as its f32 bits.
Param parseParam(const yaml::Value& v, const Scenario& s) {
  Param p;
  p.where = v.where();
  std::string text = v.str();
  char c0 = text.empty() ? ' ' : text[0];
  if (v.looksInteger()) {
    p.value = static_cast<uint32_t>(v.integer(-(int64_t{1} << 31), 0xFFFFFFFFll));
  } else if (std::isdigit(static_cast<unsigned char>(c0)) || c0 == '-' || c0 == '+' || c0 == '.') {
    Number n = parseNumber(v, ElemType::F32);
    p.value = toWord(n, ElemType::F32);
  } else {
    p.buffer = v.name();
    if (!s.findBuffer(p.buffer)) {
      std::vector<std::string> names;
      for (const auto& b : s.buffers) names.push_back(b.name);
      v.fail("no buffer named '" + p.buffer + "'" +
             (names.empty() ? " (the scenario declares no buffers)" : " (buffers: " + yaml::listNames(names) + ")"));
    }
  }
  return p;
}

std::vector<Param> parseParams(const yaml::Value& v, const Scenario& s, const isa::Kernel& k) {
  std::vector<Param> out;
  if (v.isMap()) {  // by name: {A: a, N: 1024}
    std::vector<std::string> names;
    for (const auto& d : k.params) names.push_back(d.name);
    yaml::Map m(v, names);
    for (const auto& d : k.params) out.push_back(parseParam(m.get(d.name), s));
    return out;
  }
  auto items = v.items();
  for (const auto& item : items) out.push_back(parseParam(item, s));
  if (out.size() != k.params.size()) {
    std::string msg = "kernel '" + k.name + "' takes " + std::to_string(k.params.size()) + " parameters";
    for (size_t i = 0; i < k.params.size(); ++i) msg += (i ? ", " : " (") + k.params[i].name + (i + 1 == k.params.size() ? ")" : "");
    v.fail(msg + ", found " + std::to_string(out.size()));
  }
  return out;
}

void parseWorkload(const yaml::Map& m, Launch& l) {
  for (const char* key : {"kernel", "grid", "block", "warp_size", "params"})
    if (auto v = m.opt(key))
      v->fail("a workload launch takes its kernel, grid, block, warp size and parameters from the workload");
  yaml::Value name = m.get("workload");
  std::string n = name.name();
  auto known = workloads::workloadNames();
  if (std::find(known.begin(), known.end(), n) == known.end())
    name.fail("unknown workload '" + n + "' (known: " + yaml::listNames(known) + ")");
  if (auto opts = m.opt("options")) {
    yaml::Map om(*opts, {});
    for (const auto& [key, val] : om.entries()) l.options[key] = val.integer(-(int64_t{1} << 40), int64_t{1} << 40);
  }
  try {
    l.workload = workloads::makeWorkload(n, l.options);
  } catch (const std::invalid_argument& e) {
    (m.has("options") ? m.get("options") : name).fail(e.what());
  }
  l.kernels = workloads::loadKernels(*l.workload);
}

}  // namespace

Launch parseLaunch(const yaml::Value& v, const Scenario& s, const std::string& baseDir) {
  yaml::Map m(v, {"kernel", "workload", "options", "grid", "block", "warp_size", "params"});
  Launch l;
  l.where = v.where();
  l.path = v.path();
  std::string form = m.oneOf({"kernel", "workload"});
  if (form == "workload") {
    parseWorkload(m, l);
    return l;
  }
  if (auto o = m.opt("options")) o->fail("options apply to a workload launch; a kernel launch takes params");
  yaml::Value kv = m.get("kernel");
  l.kernelFile = resolvePath(kv.str(), {baseDir, workloads::kernelDir()});
  std::error_code ec;
  if (std::filesystem::is_directory(l.kernelFile, ec)) kv.fail("'" + l.kernelFile + "' is a folder, not a kernel file");
  if (!std::filesystem::is_regular_file(l.kernelFile, ec))
    kv.fail("cannot find kernel '" + kv.str() + "' (looked next to the scenario and in " + workloads::kernelDir() + ")");
  isa::Kernel& k = l.kernels.emplace_back(loadKernelFile(l.kernelFile));  // errors name file, line, column
  // A scenario's assembly is compiled: the compiler's DARSIE pass writes the hint bits (Sec. 4.2),
  // which the baseline ignores. A .bin keeps the hints it was written with.
  if (l.kernelFile.size() < 4 || l.kernelFile.substr(l.kernelFile.size() - 4) != ".bin")
    isa::applyStaticHints(k, isa::markRedundancy(k, isa::Cfg(k)));
  if (auto g = m.opt("grid")) l.grid = parseDim3(*g, {0x7FFFFFFF, 65535, 65535});
  yaml::Value bv = m.get("block");
  l.block = parseDim3(bv, {1024, 1024, 64});
  if (l.block.count() > 1024) bv.fail(std::to_string(l.block.count()) + " threads per block, at most 1024");
  if (auto w = m.opt("warp_size")) l.warpSize = static_cast<uint32_t>(w->integer(1, 32));
  if (auto p = m.opt("params")) {
    l.params = parseParams(*p, s, k);
  } else if (!k.params.empty()) {
    v.fail("missing key 'params' (kernel '" + k.name + "' takes " + std::to_string(k.params.size()) + ")");
  }
  return l;
}

}  // namespace simtlm::scenario
