#include "workloads/workload.h"

#include <cstdlib>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "isa/assembler.h"
#include "isa/cfg.h"
#include "isa/darsie_analysis.h"
#include "isa/ptx/ptx_translate.h"

namespace simtlm::workloads {

namespace {

// Every workload, in the order `simtlm` lists them. One line per workload.
struct Entry {
  const char* name;
  std::unique_ptr<Workload> (*make)(const Options&);
};
const Entry kWorkloads[] = {
    {"vecadd", makeVecAdd},
    {"matmul", makeMatmul},
    {"fig3", makeFig3},
    // DARSIE Table 1, 2D blocks (matmul above) ...
    {"dct8x8", makeDct8x8},
    {"hotspot", makeHotspot},
    {"backprop", makeBackprop},
    {"floydwarshall", makeFloydWarshall},
    {"cp", makeCp},
    {"convsep", makeConvSep},
    {"nlm", makeNlm},
    // ... and 1D blocks.
    {"binomial", makeBinomial},
    {"pathfinder", makePathfinder},
    {"fwt", makeFwt},
    {"srad", makeSrad},
    {"libor", makeLibor},
    // UV paper Table 3, CUDA-only (no hand-written assembly: KernelSource::Default runs CUDA).
    {"scalarprod", makeScalarProd},
    {"mersenne", makeMersenne},
    {"fft", makeFft},
    {"nqueens", makeNQueens},
    {"dxtc", makeDxtc},
    // Kim et al. ISCA 2013 Table 1 (GP-SIMT), CUDA-only.
    {"bfs", makeBfs},
    {"kmeans", makeKMeans},
    {"lps", makeLps},
    {"median", makeMedian},
    // BOW paper Table III (Parboil, Rodinia) and UV paper Table 3 (ISPASS-2009), CUDA-only.
    {"sad", makeSad},
    {"nw", makeNw},
    {"gaussian", makeGaussian},
    {"ray", makeRay},
    {"heartwall", makeHeartWall},
};

}  // namespace

std::vector<std::string> workloadNames() {
  std::vector<std::string> names;
  for (const auto& e : kWorkloads) names.push_back(e.name);
  return names;
}

std::unique_ptr<Workload> makeWorkload(const std::string& name, const Options& o) {
  for (const auto& e : kWorkloads)
    if (name == e.name) return e.make(o);
  std::string all;
  for (const auto& n : workloadNames()) all += (all.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown workload '" + name + "' (known: " + all + ")");
}

// With the DARSIE compiler pass's hint bits (Sec. 4.2), as the scenario loader compiles.
namespace {
isa::Kernel withHints(isa::Kernel k) {
  isa::applyStaticHints(k, isa::markRedundancy(k, isa::Cfg(k)));
  return k;
}
std::vector<isa::Kernel> compileAll(const Workload& w, KernelSource source) {
  std::vector<isa::Kernel> ks;
  if (resolveSource(w, source) == KernelSource::Assembly) {
    for (const auto& f : w.kernelFiles()) ks.push_back(withHints(isa::assembleFile(kernelDir() + "/" + f)));
    return ks;
  }
  for (const auto& c : w.cudaKernels()) ks.push_back(withHints(isa::ptx::loadPtxFile(cudaDir() + "/" + c.ptxFile, c.entry)));
  return ks;
}
}  // namespace

KernelSource resolveSource(const Workload& w, KernelSource source) {
  const bool assembly = !w.kernelFiles().empty();
  if (source == KernelSource::Default) return assembly ? KernelSource::Assembly : KernelSource::Cuda;
  if (source == KernelSource::Assembly && !assembly)
    throw std::invalid_argument("workload " + w.name() +
                                " is CUDA-only: it has no hand-written assembly kernel (use source: cuda, its default)");
  if (source == KernelSource::Cuda && w.cudaKernels().empty())
    throw std::invalid_argument("workload " + w.name() + " has no CUDA kernels (source: cuda)");
  return source;
}

isa::Kernel loadKernel(const Workload& w, KernelSource source) { return compileAll(w, source).at(0); }

std::vector<isa::Kernel> loadKernels(const Workload& w, KernelSource source) { return compileAll(w, source); }

std::vector<uint32_t> kernelParams(const Workload& w, const isa::Kernel& kernel, const std::vector<uint32_t>& declared,
                                   const isa::GlobalMemory& mem) {
  std::vector<uint32_t> out = declared;
  const auto bindings = w.constantBuffers();
  for (size_t i = kernel.params.size() - kernel.constantParams; i < kernel.params.size(); ++i) {
    const std::string& sym = kernel.params[i].name;
    auto it = bindings.find(sym);
    if (it == bindings.end())
      throw std::invalid_argument("workload " + w.name() + ": kernel " + kernel.name + " reads __constant__ '" + sym +
                                  "', which constantBuffers() does not bind to a buffer");
    out.push_back(mem.region(it->second).base);
  }
  return out;
}

isa::ExecCounts runOnInterpreter(const Workload& w, isa::GlobalMemory& mem, isa::ExecObserver* observer, KernelSource source) {
  const auto kernels = loadKernels(w, source);
  isa::ExecCounts sum;
  for (auto step : w.launches(mem)) {
    const isa::Kernel& k = kernels.at(step.kernel);
    step.launch.params = kernelParams(w, k, step.launch.params, mem);
    isa::ExecCounts c = isa::Interpreter(k, mem).run(step.launch, observer);
    sum += c;
  }
  return sum;
}

long option(const Options& o, const std::string& key, long def, long lo, long hi) {
  auto it = o.find(key);
  long v = it == o.end() ? def : it->second;
  if (v < lo || v > hi)
    throw std::invalid_argument("option " + key + " = " + std::to_string(v) + " is outside [" +
                                std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

void rejectUnknown(const Options& o, const std::vector<std::string>& known, const std::string& workload) {
  for (const auto& [k, v] : o) {
    bool ok = false;
    for (const auto& n : known) ok = ok || n == k;
    if (!ok) {
      std::string all;
      for (const auto& n : known) all += (all.empty() ? "" : ", ") + n;
      throw std::invalid_argument("workload " + workload + " has no option '" + k + "' (options: " + all + ")");
    }
  }
}

namespace {

template <class Got>
std::string compareWordsOf(const std::string& buffer, size_t gotWords, Got got, const std::vector<uint32_t>& want) {
  if (gotWords < want.size()) return buffer + ": buffer too small";
  std::ostringstream s;
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const uint32_t g = got(i);
    if (g == want[i]) continue;
    if (bad < 5) s << buffer << "[" << i << "] = 0x" << std::hex << g << ", expected 0x" << want[i] << std::dec << "\n";
    ++bad;
  }
  if (bad) s << bad << " of " << want.size() << " words differ";
  return s.str();
}

}  // namespace

WordComparison::WordComparison(std::string buffer, const isa::GlobalMemory& mem, size_t words)
    : buffer_(std::move(buffer)), bytes_(mem.region(buffer_).bytes), words_(words) {}

void WordComparison::check(size_t first, const uint32_t* want, size_t n) {
  if (bytes_.size() / 4 < words_) return;  // report() says the buffer is too small
  for (size_t i = 0; i < n; ++i) {
    uint32_t g;
    std::memcpy(&g, bytes_.data() + 4 * (first + i), 4);
    if (g == want[i]) continue;
    ++bad_;
    first_.emplace(first + i, std::make_pair(g, want[i]));
    if (first_.size() > 5) first_.erase(std::prev(first_.end()));
  }
}

std::string WordComparison::report() const {
  if (bytes_.size() / 4 < words_) return buffer_ + ": buffer too small";
  std::ostringstream s;
  for (const auto& [i, gw] : first_)
    s << buffer_ << "[" << i << "] = 0x" << std::hex << gw.first << ", expected 0x" << gw.second << std::dec << "\n";
  if (bad_) s << bad_ << " of " << words_ << " words differ";
  return s.str();
}

std::string compareWords(const std::string& buffer, const std::vector<uint32_t>& got,
                         const std::vector<uint32_t>& want) {
  return compareWordsOf(buffer, got.size(), [&](size_t i) { return got[i]; }, want);
}

std::string compareWords(const std::string& buffer, const isa::GlobalMemory& mem, const std::vector<uint32_t>& want) {
  const std::vector<uint8_t>& bytes = mem.region(buffer).bytes;
  return compareWordsOf(buffer, bytes.size() / 4, [&](size_t i) {
    uint32_t w;
    std::memcpy(&w, bytes.data() + 4 * i, 4);
    return w;
  }, want);
}

}  // namespace simtlm::workloads
