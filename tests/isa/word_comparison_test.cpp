// Verification a piece at a time (issue 39, peak memory): WordComparison reports what
// compareWords over the whole buffer would, and the workloads that verify per batch or band
// (fwt, dct8x8) still find a wrong word, at its index in the whole buffer.
#include <gtest/gtest.h>

#include "workloads/workload.h"

using namespace simtlm;

namespace {

void setWord(isa::GlobalMemory& mem, const std::string& name, size_t i, uint32_t w) {
  std::memcpy(mem.bytes(name).data() + 4 * i, &w, 4);
}

// Runs the workload on the interpreter, checks it verifies, then spoils the words at `bad`
// of buffer "dst" and returns what verify says.
std::string verifySpoiled(const std::string& name, const workloads::Options& o, const std::vector<size_t>& bad) {
  auto w = workloads::makeWorkload(name, o);
  isa::GlobalMemory mem;
  workloads::runOnInterpreter(*w, mem);
  EXPECT_EQ(w->verify(mem), "") << name;
  for (size_t i : bad) setWord(mem, "dst", i, 0x7fc00001u);
  return w->verify(mem);
}

}  // namespace

TEST(WordComparison, PiecesInAnyOrderReportAsTheWholeBuffer) {
  isa::GlobalMemory mem;
  mem.allocate("out", 64 * 4);
  workloads::fillWords(mem, "out", [](size_t i) { return static_cast<uint32_t>(i); });
  std::vector<uint32_t> want(64);
  for (size_t i = 0; i < want.size(); ++i) want[i] = static_cast<uint32_t>(i);
  for (size_t i : {3, 9, 17, 33, 34, 40, 63}) want[i] = 0x100 + static_cast<uint32_t>(i);  // 7 differ
  const std::string whole = workloads::compareWords("out", mem, want);
  EXPECT_EQ(whole,
            "out[3] = 0x3, expected 0x103\nout[9] = 0x9, expected 0x109\nout[17] = 0x11, expected 0x111\n"
            "out[33] = 0x21, expected 0x121\nout[34] = 0x22, expected 0x122\n7 of 64 words differ");
  workloads::WordComparison pieces("out", mem, 64);
  for (size_t first : {48, 32, 16, 0}) pieces.check(first, want.data() + first, 16);
  EXPECT_EQ(pieces.report(), whole);
  workloads::WordComparison right("out", mem, 64);
  for (size_t first = 0; first < 64; first += 8) {
    std::vector<uint32_t> piece(8);
    for (size_t i = 0; i < 8; ++i) piece[i] = static_cast<uint32_t>(first + i);
    right.check(first, piece);
  }
  EXPECT_EQ(right.report(), "");
  EXPECT_EQ(workloads::WordComparison("out", mem, 65).report(), "out: buffer too small");
}

TEST(WordComparison, FwtVerifiesBatchByBatch) {
  const std::string got = verifySpoiled("fwt", {{"batches", 3}, {"log2n", 10}}, {2053, 7});
  EXPECT_EQ(got.rfind("dst[7] = 0x7fc00001, expected 0x", 0), 0u) << got;
  EXPECT_NE(got.find("\ndst[2053] = 0x7fc00001, expected 0x"), std::string::npos) << got;
  EXPECT_NE(got.find("\n2 of 3072 words differ"), std::string::npos) << got;
  const std::string odd = verifySpoiled("fwt", {{"batches", 2}, {"log2n", 5}}, {63});
  EXPECT_NE(odd.find("dst[63] = 0x7fc00001"), std::string::npos) << odd;
  EXPECT_NE(odd.find("1 of 64 words differ"), std::string::npos) << odd;
}

TEST(WordComparison, Dct8x8VerifiesBandByBand) {
  // 32x24: the last band's last word, and one in the first band.
  const std::string got = verifySpoiled("dct8x8", {{"width", 32}, {"height", 24}}, {32 * 24 - 1, 33});
  EXPECT_EQ(got.rfind("dst[33] = 0x7fc00001, expected 0x", 0), 0u) << got;
  EXPECT_NE(got.find("\ndst[767] = 0x7fc00001, expected 0x"), std::string::npos) << got;
  EXPECT_NE(got.find("\n2 of 768 words differ"), std::string::npos) << got;
}

TEST(WordComparison, SradVerifiesColumnByColumn) {
  auto w = workloads::makeWorkload("srad", {{"rows", 16}, {"cols", 8}});
  isa::GlobalMemory mem;
  workloads::runOnInterpreter(*w, mem);
  EXPECT_EQ(w->verify(mem), "");
  setWord(mem, "dE", 16 * 7 + 15, 0x7fc00001u);  // the last column's last row
  setWord(mem, "c", 0, 0x7fc00001u);
  const std::string got = w->verify(mem);
  EXPECT_EQ(got.rfind("dE[127] = 0x7fc00001, expected 0x", 0), 0u) << got;
  EXPECT_NE(got.find("\n1 of 128 words differc[0] = 0x7fc00001, expected 0x"), std::string::npos) << got;
  EXPECT_EQ(got.substr(got.size() - 21), "1 of 128 words differ") << got;
}
