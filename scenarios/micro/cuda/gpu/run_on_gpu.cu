// Runs the CUDA microbenchmarks of ../micro.cu on a real GPU, with the parameters and chains of
// the scenarios in .. (docs/microbenchmarks.md, "CUDA rows"), and prints each row's cycles per
// operation as clock64() measured them: (cycles of the launch with more operations - cycles of
// the one with fewer) / the added operations, the difference simtlm takes between whole launches.
// Each kernel times its own loop (micro.cu compiled without -DSIMTLM); thread 0's count is used.
//
//   nvcc -O3 -arch=sm_61 -Xptxas -dlcm=ca run_on_gpu.cu -o run_on_gpu   # Pascal: CUDA 12.x or older
//   nvcc -O3 -arch=sm_75 run_on_gpu.cu -o run_on_gpu                      # nvcc 13: Turing and newer
//
// With -Xptxas -dlcm=ca plain global loads are cached in the L1 (the "L1 hit" row); without it
// they are L2 hits on Pascal (the "L2 hit" row). Not part of simtlm's build (it needs a GPU).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../micro.cu"

#define CHECK(call)                                                                         \
  do {                                                                                      \
    const cudaError_t e = (call);                                                           \
    if (e != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "run_on_gpu: %s: %s\n", #call, cudaGetErrorString(e));           \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)

namespace {

unsigned* g_out;
long long* g_cycles;

// A device buffer of `words` words, word j holding first + 4j (a chain of byte offsets).
unsigned* ramp(size_t words, unsigned first) {
  std::vector<unsigned> h(words);
  for (size_t j = 0; j < words; ++j) h[j] = first + 4 * static_cast<unsigned>(j);
  unsigned* d;
  CHECK(cudaMalloc(&d, words * 4));
  CHECK(cudaMemcpy(d, h.data(), words * 4, cudaMemcpyHostToDevice));
  return d;
}

// Cycles of thread 0's loop in the launch `launch` makes.
template <class F>
long long timed(F launch) {
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  long long c;
  CHECK(cudaMemcpy(&c, g_cycles, sizeof c, cudaMemcpyDeviceToHost));
  return c;
}

// One row: a warming launch with `few`, then `few` and `many`; (cycles(many) - cycles(few)) / ops.
template <class F>
void row(const char* name, double target, F launch, int few, int many, double ops) {
  timed([&] { launch(few); });
  const long long a = timed([&] { launch(few); });
  const long long b = timed([&] { launch(many); });
  if (target > 0) std::printf("  %-36s %8.2f   Pascal [JIA]: %g\n", name, (b - a) / ops, target);
  else std::printf("  %-36s %8.2f\n", name, (b - a) / ops);
}

}  // namespace

int main() {
  CHECK(cudaMalloc(&g_out, 32 * 4));
  CHECK(cudaMalloc(&g_cycles, 32 * sizeof(long long)));
  unsigned* word;
  CHECK(cudaMalloc(&word, 4));
  CHECK(cudaMemset(word, 0, 4));
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("run_on_gpu: %s (sm_%d%d), cycles per operation from clock64()\n", p.name, p.major, p.minor);

  unsigned* chain = ramp(8192, 0x80);  // chase_cached.yaml: 64 lines of 128 bytes
  std::vector<unsigned> hc(2048);
  for (unsigned j = 0; j < 2048; ++j) hc[j] = 0x80 + 4 * j;
  CHECK(cudaMemcpyToSymbol(c_chain, hc.data(), sizeof(unsigned) * 2048));
  row("global chase (L1 or L2 hit: -dlcm)", 82, [&](int n) { chase<<<1, 1>>>(chain, 0, 64, n, g_out, g_cycles); }, 1, 5, 256);
  row("L1 hit latency, ld.global.nc", 82, [&](int n) { chase_nc<<<1, 1>>>(chain, 0, 64, n, g_out, g_cycles); }, 1, 5, 256);
  row("constant cache hit latency", 25, [&](int n) { chase_const<<<1, 1>>>(0, 64, n, g_out, g_cycles); }, 1, 5, 256);
  unsigned* far = ramp(2252800, 0x58000);  // chase_dram.yaml: 360,448-byte steps
  row("DRAM latency (misses the L2)", 0, [&](int n) { chase<<<1, 1>>>(far, 0x80, n, 1, g_out, g_cycles); }, 4, 20, 16);
  for (int w = 1; w <= 32; w *= 2) {
    const std::string name = "shared " + std::to_string(w) + "-way conflict";
    row(name.c_str(), 22 + w, [&](int n) { shared_chase<<<1, 32>>>(w, n, g_out, g_cycles); }, 4, 36, 32);
  }
  float* f = reinterpret_cast<float*>(g_out);
  row("ALU dependent chain, add.f32", 6, [&](int n) { alu_chain<<<1, 32>>>(n, f, g_cycles); }, 2, 34, 32 * 32);
  row("ALU dependent chain, fma.f32", 6, [&](int n) { fma_chain<<<1, 32>>>(n, f, g_cycles); }, 2, 34, 32 * 32);
  row("ALU dependent chain, add.u32", 6, [&](int n) { int_chain<<<1, 32>>>(n, g_out, g_cycles); }, 2, 10, 8 * 32);
  row("setp + selp dependent pair", 12, [&](int n) { setp_chain<<<1, 32>>>(n, g_out, g_cycles); }, 2, 10, 8 * 32);
  row("SFU dependent chain, rcp.f32", 14, [&](int n) { sfu_chain<<<1, 32>>>(n, f, g_cycles); }, 2, 34, 32 * 8);
  for (int lanes : {1, 32}) {
    const std::string s = std::string("shared atomic, ") + (lanes == 1 ? "no contention" : "32 on one address");
    const std::string g = std::string("global atomic, ") + (lanes == 1 ? "no contention" : "32 on one address");
    row(s.c_str(), lanes == 1 ? 15.5 : 78, [&](int n) { atomic_chain_shared<<<1, lanes>>>(n, g_out, g_cycles); }, 2, 10, 128);
    row(g.c_str(), 0, [&](int n) { atomic_chain_global<<<1, lanes>>>(n, word, g_out, g_cycles); }, 2, 10, 128);
  }
  return 0;
}
