// Loading the `launches:` of a scenario: a kernel file or a workload, its shape and parameters.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "isa/cfg.h"
#include "isa/darsie_analysis.h"
#include "cli/scenario_parse.h"
#include "isa/diagnostics.h"
#include "isa/ptx/ptx_translate.h"
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

// The first `declared` parameters of `k` (a PTX kernel's hidden ones come from constants:).
std::vector<Param> parseParams(const yaml::Value& v, const Scenario& s, const isa::Kernel& k, size_t declared) {
  std::vector<Param> out;
  if (v.isMap()) {  // by name: {A: a, N: 1024}
    std::vector<std::string> names;
    for (size_t i = 0; i < declared; ++i) names.push_back(k.params[i].name);
    yaml::Map m(v, names);
    for (const auto& n : names) out.push_back(parseParam(m.get(n), s));
    return out;
  }
  auto items = v.items();
  for (const auto& item : items) out.push_back(parseParam(item, s));
  if (out.size() != declared) {
    std::string msg = "kernel '" + k.name + "' takes " + std::to_string(declared) + " parameters";
    for (size_t i = 0; i < declared; ++i) msg += (i ? ", " : " (") + k.params[i].name + (i + 1 == declared ? ")" : "");
    v.fail(msg + ", found " + std::to_string(out.size()));
  }
  return out;
}

void parseWorkload(const yaml::Map& m, Launch& l) {
  for (const char* key : {"kernel", "grid", "block", "warp_size", "params", "entry", "constants"})
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
  if (auto src = m.opt("source")) {
    const std::string t = src->str();
    if (t == "cuda") l.source = workloads::KernelSource::Cuda;
    else if (t == "assembly") l.source = workloads::KernelSource::Assembly;
    else src->fail("source is 'assembly' (the hand-written kernels, the default) or 'cuda' (the nvcc-compiled twins, docs/ptx.md; the default of a CUDA-only workload), not '" + t + "'");
    try {
      workloads::resolveSource(*l.workload, l.source);
    } catch (const std::invalid_argument& e) {
      src->fail(e.what());
    }
  }
  l.kernels = workloads::loadKernels(*l.workload, l.source);
}

// `constants: {SYMBOL: {buffer: NAME}}`: the buffer whose address each of a PTX kernel's
// __constant__ symbols (its hidden parameters after the declared ones) stands for.
void parseConstants(const yaml::Map& m, const Scenario& s, Launch& l, size_t declared) {
  const isa::Kernel& k = l.kernels.at(0);
  std::vector<std::string> symbols;
  for (size_t i = declared; i < k.params.size(); ++i) symbols.push_back(k.params[i].name);
  auto cv = m.opt("constants");
  if (!cv) {
    if (!symbols.empty())
      m.get("kernel").fail("kernel '" + k.name + "' reads __constant__ data (" + yaml::listNames(symbols) +
                           "): bind each to a buffer with constants: {SYMBOL: {buffer: NAME}}");
    return;
  }
  if (l.entry.empty() && !isa::ptx::isPtxPath(l.kernelFile)) cv->fail("constants: bind the __constant__ data of a PTX kernel; this kernel is not PTX");
  yaml::Map cm(*cv, symbols);
  for (const auto& sym : symbols) {
    yaml::Map b(cm.get(sym), {"buffer"});
    yaml::Value name = b.get("buffer");
    if (!s.findBuffer(name.name())) name.fail("no buffer named '" + name.name() + "'");
    l.constants.push_back(name.name());
  }
}

}  // namespace

Launch parseLaunch(const yaml::Value& v, const Scenario& s, const std::string& baseDir) {
  yaml::Map m(v, {"kernel", "workload", "options", "source", "entry", "constants", "grid", "block", "warp_size", "params"});
  Launch l;
  l.where = v.where();
  l.path = v.path();
  std::string form = m.oneOf({"kernel", "workload"});
  if (form == "workload") {
    parseWorkload(m, l);
    return l;
  }
  if (auto o = m.opt("options")) o->fail("options apply to a workload launch; a kernel launch takes params");
  if (auto o = m.opt("source")) o->fail("source applies to a workload launch; a kernel launch names its file (.s, .bin or .ptx)");
  yaml::Value kv = m.get("kernel");
  l.kernelFile = resolvePath(kv.str(), {baseDir, workloads::kernelDir()});
  std::error_code ec;
  if (std::filesystem::is_directory(l.kernelFile, ec)) kv.fail("'" + l.kernelFile + "' is a folder, not a kernel file");
  if (!std::filesystem::is_regular_file(l.kernelFile, ec))
    kv.fail("cannot find kernel '" + kv.str() + "' (looked next to the scenario and in " + workloads::kernelDir() + ")");
  if (auto e = m.opt("entry")) {
    if (!isa::ptx::isPtxPath(l.kernelFile)) e->fail("entry names a kernel of a PTX module; '" + kv.str() + "' is not a .ptx file");
    l.entry = e->str();
  }
  isa::Kernel& k = l.kernels.emplace_back(loadKernelFile(l.kernelFile, l.entry));  // errors name file, line, column
  const size_t declared = k.params.size() - k.constantParams;
  // A scenario's assembly is compiled: the compiler's DARSIE pass writes the hint bits (Sec. 4.2),
  // which the baseline ignores. A .bin keeps the hints it was written with.
  if (l.kernelFile.size() < 4 || l.kernelFile.substr(l.kernelFile.size() - 4) != ".bin")
    isa::applyStaticHints(k, isa::markRedundancy(k, isa::Cfg(k)));
  if (auto g = m.opt("grid")) l.grid = parseDim3(*g, {0x7FFFFFFF, 65535, 65535});
  yaml::Value bv = m.get("block");
  l.block = parseDim3(bv, {1024, 1024, 64});
  if (l.block.count() > 1024) bv.fail(std::to_string(l.block.count()) + " threads per block, at most 1024");
  if (auto w = m.opt("warp_size")) l.warpSize = static_cast<uint32_t>(w->integer(1, 32));
  parseConstants(m, s, l, declared);
  if (auto p = m.opt("params")) {
    l.params = parseParams(*p, s, k, declared);
  } else if (declared > 0) {
    v.fail("missing key 'params' (kernel '" + k.name + "' takes " + std::to_string(k.params.size()) + ")");
  }
  return l;
}

}  // namespace simtlm::scenario
