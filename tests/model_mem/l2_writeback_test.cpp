// L2Cache with WriteBackAllocate between a MemPort and DramTarget: writes stay in the cache
// until their line is evicted, the write-back carries exactly the dirty bytes, a fill merges
// under bytes written before it, atomics and debug reads see the written bytes, and a random
// mix of reads, partial writes and atomics reads and leaves what a flat memory would.
//
// Timing (1 ns cycles): L2 hit latency 20; DRAM latency 50 at 32 bytes/cycle, so a line fill
// costs 20 + 50 + 4 cycles.
#include "model/mem/dram_target.h"
#include "model/mem/l2_cache.h"
#include "model/mem/mem_port.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

using namespace sc_core;
using simtlm::isa::Op;
using simtlm::mem::DramConfig;
using simtlm::mem::DramTarget;
using simtlm::mem::L2Cache;
using simtlm::mem::L2Config;
using simtlm::mem::MemPort;
using simtlm::mem::MemResult;
using simtlm::mem::WordOps;
using Bytes = std::vector<unsigned char>;

namespace {

const sc_time ns(1, SC_NS);

L2Config wbConfig() {
  L2Config c;
  c.size = 256;  // one set of two 128-byte ways
  c.line = 128;
  c.assoc = 2;
  c.hit_latency = 20;
  c.mshrs = 4;
  c.write_policy = L2Config::WritePolicy::WriteBackAllocate;
  return c;
}

Bytes pattern(std::uint64_t a, unsigned n) {
  Bytes v(n);
  for (unsigned i = 0; i < n; ++i) v[i] = static_cast<unsigned char>((a + i) * 7 + 3);
  return v;
}

struct Bench {
  MemPort cpu;
  L2Cache l2;
  DramTarget dram;
  explicit Bench(const L2Config& c = wbConfig())
      : cpu("cpu", MemPort::Config{}), l2("l2", c), dram("dram", [] {
          DramConfig d;
          d.size = 1 << 20;
          d.latency_cycles = 50;
          return d;
        }()) {
    cpu.to_memory.bind(l2.from_bus);
    l2.to_memory.bind(dram.from_bus);
    const Bytes p = pattern(0, 1 << 16);
    dram.store().write(0, p.data(), p.size());
  }
  Bytes inDram(std::uint64_t a, unsigned n) {
    Bytes v(n);
    dram.store().read(a, v.data(), n);
    return v;
  }
};

// A 4-byte write allocates line 0 without reading it and is answered after the hit latency;
// DRAM is untouched until lines 0x100 and 0x200 fill the set and evict line 0 (LRU): then
// exactly the 4 written bytes reach DRAM, the rest of the line keeps its old bytes.
TEST(L2WriteBack, DirtyLineReachesDramOnlyOnEvictionWithItsBytes) {
  Bench b;
  const unsigned char w[4] = {0xde, 0xad, 0xbe, 0xef};
  sc_time written;
  Bytes dramAfterWrite;
  b.cpu.write(0x10, w, 4, [&](const MemResult& r) {
    EXPECT_TRUE(r.ok());
    written = r.completed;
    dramAfterWrite = b.inDram(0x10, 4);
    b.cpu.read(0x100, 8, [&](const MemResult&) { b.cpu.read(0x200, 8, [](const MemResult&) {}); });
  });
  sc_start();
  EXPECT_EQ(written, 20 * ns);
  EXPECT_EQ(dramAfterWrite, pattern(0x10, 4));  // not written through
  Bytes expect = pattern(0, 128);
  std::memcpy(&expect[0x10], w, 4);
  EXPECT_EQ(b.inDram(0, 128), expect);
  EXPECT_EQ(b.l2.stats().writebacks, 1u);
  EXPECT_EQ(b.l2.stats().write_misses, 1u);
  EXPECT_EQ(b.l2.stats().evictions, 1u);
  EXPECT_EQ(b.l2.stats().bytes_to_memory, 128u);  // one line, 4 bytes enabled
  EXPECT_EQ(b.dram.stats().writes, 1u);
  EXPECT_FALSE(b.l2.contains(0));
}

// A read of the partly written line fetches it and merges memory's bytes under the written
// ones: the reader sees both; DRAM still has the old bytes; a debug read through the L2 sees
// the new ones.
TEST(L2WriteBack, FillMergesUnderBytesWrittenBeforeIt) {
  Bench b;
  const unsigned char w[2] = {0x11, 0x22};
  Bytes got;
  b.cpu.write(0x42, w, 2, [&](const MemResult&) {
    b.cpu.read(0x40, 8, [&](const MemResult& r) { got.assign(r.data, r.data + r.size); });
  });
  sc_start();
  Bytes expect = pattern(0x40, 8);
  expect[2] = 0x11;
  expect[3] = 0x22;
  EXPECT_EQ(got, expect);
  EXPECT_EQ(b.inDram(0x42, 2), pattern(0x42, 2));
  EXPECT_EQ(b.l2.stats().partial_fills, 1u);
  Bytes dbg(8);
  EXPECT_EQ(b.cpu.debug_read(0x40, dbg.data(), 8), 8u);
  EXPECT_EQ(dbg, expect);
}

// An atomic on a dirty word is performed in the L2, as GPGPU-Sim performs global atomics at the
// memory partition's L2: its old value is the written one, the result stays in the (dirty) line,
// DRAM is untouched, and a debug read sees the result.
TEST(L2WriteBack, AtomicOnADirtyWordIsPerformedInTheCache) {
  Bench b;
  const std::uint32_t v = 41;
  WordOps ops;
  ops.push(0, 1);
  std::uint32_t old = 0;
  b.cpu.write(0x300, reinterpret_cast<const unsigned char*>(&v), 4, [&](const MemResult&) {
    b.cpu.atomic(0x300, Op::ATOM_G_ADD_U32, ops,
                 [&](const MemResult& r) { std::memcpy(&old, r.data, 4); });
  });
  sc_start();
  EXPECT_EQ(old, 41u);
  EXPECT_EQ(b.inDram(0x300, 4), pattern(0x300, 4));  // not written back
  std::uint32_t seen = 0;
  b.cpu.debug_read(0x300, reinterpret_cast<unsigned char*>(&seen), 4);
  EXPECT_EQ(seen, 42u);
  EXPECT_EQ(b.l2.stats().writebacks, 0u);
  EXPECT_EQ(b.dram.stats().atomics, 0u);
  EXPECT_TRUE(b.l2.contains(0x300));
}

// An atomic on a line the L2 holds is answered with the hit latency (20), not a DRAM round trip.
TEST(L2WriteBack, AtomicOnAResidentLineTakesTheHitLatency) {
  Bench b;
  WordOps ops;
  ops.push(4, 5);
  sc_time issued, answered;
  std::uint32_t old = 0;
  b.cpu.read(0x400, 8, [&](const MemResult& r) {
    issued = r.completed;
    b.cpu.atomic(0x400, Op::ATOM_G_ADD_U32, ops, [&](const MemResult& a) {
      answered = a.completed;
      std::memcpy(&old, a.data, 4);
    });
  });
  sc_start();
  EXPECT_EQ(answered - issued, 20 * ns);
  std::uint32_t before = 0;
  const Bytes p = pattern(0x404, 4);
  std::memcpy(&before, p.data(), 4);
  EXPECT_EQ(old, before);
  EXPECT_EQ(b.dram.stats().atomics, 0u);
}

// An atomic on an absent line fills it first (20 + 50 + 4 cycles, as a read miss), then is
// performed there; the result reaches DRAM when the line is evicted.
TEST(L2WriteBack, AtomicMissFillsTheLineThenIsPerformedThere) {
  Bench b;
  WordOps ops;
  ops.push(0, 7);
  sc_time answered;
  b.cpu.atomic(0x500, Op::ATOM_G_ADD_U32, ops, [&](const MemResult& a) {
    answered = a.completed;
    b.cpu.read(0x100, 8, [&](const MemResult&) { b.cpu.read(0x200, 8, [](const MemResult&) {}); });
  });
  sc_start();
  EXPECT_EQ(answered, 74 * ns);
  std::uint32_t before = 0, now = 0;
  const Bytes p = pattern(0x500, 4);
  std::memcpy(&before, p.data(), 4);
  b.dram.store().read(0x500, reinterpret_cast<unsigned char*>(&now), 4);
  EXPECT_EQ(now, before + 7);  // written back on eviction
  EXPECT_EQ(b.l2.stats().writebacks, 1u);
  EXPECT_EQ(b.dram.stats().atomics, 0u);
}

// 400 random reads, byte-enabled writes and atomics over 6 lines of a 2-way cache (evictions,
// partial fills, merges behind fills): every read returns, and memory ends with, what a flat
// memory gives in the same order.
TEST(L2WriteBack, RandomMixMatchesAFlatMemory) {
  L2Config c = wbConfig();
  c.mshr_merge = 3;
  Bench b(c);
  Bytes flat = pattern(0, 1024);
  std::mt19937 rng(16);
  struct Expect {
    Bytes data;
    Bytes got;
  };
  std::vector<Expect> reads;
  reads.reserve(400);
  std::vector<Bytes> keep;  // write data stay alive until sent
  keep.reserve(400);
  std::vector<Bytes> enables;
  enables.reserve(400);
  for (int i = 0; i < 400; ++i) {
    const unsigned line = rng() % 6 * 128, kind = rng() % 10;
    if (kind < 5) {  // read up to 32 bytes within the line
      const unsigned off = rng() % 96, n = 1 + rng() % 32;
      reads.push_back({Bytes(flat.begin() + line + off, flat.begin() + line + off + n), {}});
      Expect* e = &reads.back();
      b.cpu.read(line + off, n, [e](const MemResult& r) {
        EXPECT_TRUE(r.ok());
        e->got.assign(r.data, r.data + r.size);
      });
    } else if (kind < 9) {  // write with byte enables
      const unsigned off = rng() % 96, n = 1 + rng() % 32;
      keep.emplace_back(n);
      enables.emplace_back(n);
      for (unsigned k = 0; k < n; ++k) {
        keep.back()[k] = static_cast<unsigned char>(rng());
        enables.back()[k] = rng() % 3 ? 0xff : 0x00;
        if (enables.back()[k]) flat[line + off + k] = keep.back()[k];
      }
      b.cpu.write(line + off, keep.back().data(), n, [](const MemResult& r) { EXPECT_TRUE(r.ok()); },
                  enables.back().data(), n);
    } else {  // atomic add on one word
      const unsigned off = rng() % 32 * 4;
      WordOps ops;
      ops.push(0, 5);
      std::uint32_t w;
      std::memcpy(&w, &flat[line + off], 4);
      reads.push_back({Bytes(reinterpret_cast<unsigned char*>(&w), reinterpret_cast<unsigned char*>(&w) + 4), {}});
      w += 5;
      std::memcpy(&flat[line + off], &w, 4);
      Expect* e = &reads.back();
      b.cpu.atomic(line + off, Op::ATOM_G_ADD_U32, ops, [e](const MemResult& r) {
        EXPECT_TRUE(r.ok());
        e->got.assign(r.data, r.data + 4);
      });
    }
  }
  sc_start();
  for (std::size_t i = 0; i < reads.size(); ++i) EXPECT_EQ(reads[i].got, reads[i].data) << "read " << i;
  Bytes end(768);
  EXPECT_EQ(b.cpu.debug_read(0, end.data(), 768), 768u);
  EXPECT_EQ(end, Bytes(flat.begin(), flat.begin() + 768));
  EXPECT_GT(b.l2.stats().writebacks, 10u);
  EXPECT_GT(b.l2.stats().partial_fills, 0u);
  EXPECT_GT(b.l2.stats().merged, 0u);
}

}  // namespace

// A dirty line evicted while DRAM is busy waits in the L2's queue (or its port) before memory
// has its bytes; a debug read meanwhile (the host reading results back when a kernel ends)
// must still see them: found by scenarios/micro/stream_store.yaml with l2.latency=1, which lost
// 3,392 words. Set-up: 16 sets of 2 ways; DRAM bank 0 takes 1000 cycles per access and queues
// one, so three fills to bank 0 hold the port; then three writes to set 0 evict the dirty line 0.
TEST(L2WriteBack, DebugReadSeesAWriteBackStillOnItsWayToMemory) {
  L2Config c = wbConfig();
  c.size = 16 * 2 * 128;
  DramConfig d;
  d.size = 1 << 20;
  d.latency_cycles = 50;
  d.bank_busy_cycles = 1000;
  d.bank_queue_depth = 1;
  MemPort cpu("cpu", MemPort::Config{});
  L2Cache l2("l2", c);
  DramTarget dram("dram", d);
  cpu.to_memory.bind(l2.from_bus);
  l2.to_memory.bind(dram.from_bus);
  const Bytes p = pattern(0, 1 << 16);
  dram.store().write(0, p.data(), p.size());
  const unsigned char w[4] = {0xde, 0xad, 0xbe, 0xef};
  Bytes seen(4), inDram(4);
  bool checked = false;
  for (std::uint64_t a : {0x1080, 0x2080, 0x3080}) cpu.read(a, 8, [](const MemResult&) {});  // set 1, bank 0
  cpu.write(0x10, w, 4, [&](const MemResult&) {
    cpu.write(0x800, w, 4, [&](const MemResult&) {
      cpu.write(0x1000, w, 4, [&](const MemResult&) {  // evicts line 0 (LRU, dirty)
        dram.store().read(0x10, inDram.data(), 4);
        EXPECT_EQ(cpu.debug_read(0x10, seen.data(), 4), 4u);
        checked = true;
      });
    });
  });
  sc_start();
  ASSERT_TRUE(checked);
  EXPECT_EQ(inDram, pattern(0x10, 4));  // the write-back had not reached memory yet
  EXPECT_EQ(seen, Bytes(w, w + 4));
  Bytes after(4);
  dram.store().read(0x10, after.data(), 4);
  EXPECT_EQ(after, Bytes(w, w + 4));  // and it does
  EXPECT_EQ(l2.stats().writebacks, 1u);
}
