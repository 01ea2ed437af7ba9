// Operand collectors and bank arbitration: exact cycle counts (docs/regfile.md).
// Banks use the interleaved mapping here (bank = register % 4), so each case's banks are plain.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "model/common/config.h"
#include "model/regfile/operand_collectors.h"

using namespace simtlm;
using namespace simtlm::regfile;

namespace {

config::GpuConfig::RegFile rf(int collectors, int collectorPorts, int bankPorts = 1) {
  return {/*banks=*/4, bankPorts, collectors, collectorPorts, /*lane_group=*/8};
}
PhysReg R(uint32_t p) { return PhysReg{p}; }

struct Bench {
  OperandCollectors oc;
  explicit Bench(config::GpuConfig::RegFile c) : oc(c, BankMapping::Interleaved) {}
  // Ticks cycles from..to (inclusive).
  void run(uint64_t from, uint64_t to) {
    for (uint64_t c = from; c <= to; ++c) {
      oc.tick(c);
      oc.countFullCycle();  // (the SM counts after its issue step)
    }
  }
  // The first cycle >= from in which the collector's instruction is dispatchable, ticking
  // each cycle after asking (the SM's order: dispatch, then tick).
  uint64_t readyCycle(CollectorId id, uint64_t from) {
    for (uint64_t c = from; c < from + 100; ++c) {
      for (const auto& r : oc.readyToDispatch(c))
        if (r.id == id) return c;
      oc.tick(c);
    }
    return ~0ull;
  }
};

}  // namespace

TEST(OperandCollectors, ThreeOperandsInThreeBanksReadInOneCycle) {
  Bench b(rf(2, 3));
  CollectorId id = b.oc.accept(7, {R(0), R(1), R(2)}, 0);
  EXPECT_FALSE(b.oc.tick(0));  // accepted this cycle: reads start next cycle
  EXPECT_TRUE(b.oc.tick(1));
  EXPECT_EQ(b.oc.pendingOperands(id), 0);
  EXPECT_TRUE(b.oc.readyToDispatch(1).empty());  // read in cycle 1, dispatchable in cycle 2
  ASSERT_EQ(b.oc.readyToDispatch(2).size(), 1u);
  EXPECT_EQ(b.oc.readyToDispatch(2)[0].tag, 7u);
  EXPECT_TRUE(b.oc.dispatch(id, 2, true));
  EXPECT_TRUE(b.oc.idle());
  const auto& c = b.oc.counters();
  EXPECT_EQ(c.reads.value, 3u);
  EXPECT_EQ(c.conflicts.value, 0u);
  EXPECT_EQ(c.readCycles.value, 1u);
  EXPECT_EQ(c.residency.value, 2u);
}

TEST(OperandCollectors, ThreeOperandsInOneBankTakeThreeCycles) {
  Bench b(rf(2, 3));
  CollectorId id = b.oc.accept(0, {R(0), R(4), R(8)}, 0);
  EXPECT_EQ(b.readyCycle(id, 0), 4u);  // reads in cycles 1, 2, 3
  const auto& c = b.oc.counters();
  EXPECT_EQ(c.reads.value, 3u);
  EXPECT_EQ(c.conflicts.value, 3u);  // 2 denied in cycle 1, 1 in cycle 2
  EXPECT_EQ(b.oc.bankCounters(BankId{0}).reads.value, 3u);
  EXPECT_EQ(b.oc.bankCounters(BankId{0}).conflicts.value, 3u);
  EXPECT_EQ(b.oc.bankCounters(BankId{1}).reads.value, 0u);
  EXPECT_EQ(c.readCycles.value, 3u);
}

TEST(OperandCollectors, TwoPortsPerBankHalveTheSerialization) {
  Bench b(rf(2, 3, /*bankPorts=*/2));
  CollectorId id = b.oc.accept(0, {R(0), R(4), R(8)}, 0);
  EXPECT_EQ(b.readyCycle(id, 0), 3u);
  EXPECT_EQ(b.oc.counters().conflicts.value, 1u);
}

TEST(OperandCollectors, SingleCollectorPortSerializesWithoutConflicts) {
  Bench b(rf(2, 1));
  CollectorId id = b.oc.accept(0, {R(0), R(1), R(2)}, 0);
  EXPECT_EQ(b.readyCycle(id, 0), 4u);
  EXPECT_EQ(b.oc.counters().conflicts.value, 0u);
}

TEST(OperandCollectors, TwoInstructionsConflicting) {
  Bench b(rf(2, 3));
  CollectorId a = b.oc.accept(1, {R(0), R(1)}, 0);  // banks 0, 1
  CollectorId c = b.oc.accept(2, {R(4), R(5)}, 0);  // banks 0, 1 too
  b.run(0, 1);
  EXPECT_EQ(b.oc.pendingOperands(a), 0);
  EXPECT_EQ(b.oc.pendingOperands(c), 2);  // both denied in cycle 1
  b.run(2, 2);
  EXPECT_EQ(b.oc.pendingOperands(c), 0);
  ASSERT_EQ(b.oc.readyToDispatch(3).size(), 2u);
  EXPECT_EQ(b.oc.readyToDispatch(3)[0].id, a);  // oldest first
  EXPECT_EQ(b.oc.counters().conflicts.value, 2u);
  EXPECT_TRUE(b.oc.dispatch(a, 3, true));
  EXPECT_TRUE(b.oc.dispatch(c, 3, true));
  EXPECT_EQ(b.oc.counters().residency.value, 6u);  // 3 + 3
  // Different banks do not conflict.
  Bench d(rf(2, 3));
  CollectorId x = d.oc.accept(1, {R(0), R(1)}, 0);
  CollectorId y = d.oc.accept(2, {R(2), R(3)}, 0);
  d.run(0, 1);
  EXPECT_EQ(d.oc.pendingOperands(x) + d.oc.pendingOperands(y), 0);
}

TEST(OperandCollectors, RoundRobinIsFairAndDeterministic) {
  for (int rep = 0; rep < 2; ++rep) {
    Bench b(rf(3, 1));
    // Three instructions, two operands each, all in bank 0: one read per cycle in total.
    CollectorId c0 = b.oc.accept(0, {R(0), R(4)}, 0);
    CollectorId c1 = b.oc.accept(1, {R(8), R(12)}, 0);
    CollectorId c2 = b.oc.accept(2, {R(16), R(20)}, 0);
    std::vector<int> left;
    for (uint64_t cyc = 1; cyc <= 6; ++cyc) {
      b.oc.tick(cyc);
      left.push_back(b.oc.pendingOperands(c0) * 100 + b.oc.pendingOperands(c1) * 10 +
                     b.oc.pendingOperands(c2));
    }
    // Grants rotate c0, c1, c2, c0, c1, c2.
    EXPECT_EQ(left, (std::vector<int>{122, 112, 111, 11, 1, 0}));
    // Every operand a collector had a free port for but whose bank was taken is a conflict:
    // cycle 1: c1 and c2 two each; 2: c2 two, c0 one; 3: c0, c1; 4: c1, c2; 5: c2.
    EXPECT_EQ(b.oc.counters().conflicts.value, 4u + 3 + 2 + 2 + 1);
  }
}

TEST(OperandCollectors, RoundRobinStartsAfterTheLastServedCollector) {
  Bench b(rf(2, 1));
  CollectorId c0 = b.oc.accept(0, {R(0)}, 0);
  b.run(0, 1);  // c0 served: collector 1 now has priority
  ASSERT_TRUE(b.oc.dispatch(c0, 2, true));
  CollectorId n0 = b.oc.accept(1, {R(4)}, 2);  // reuses collector 0
  CollectorId n1 = b.oc.accept(2, {R(8)}, 2);
  EXPECT_EQ(n0, CollectorId{0});
  b.run(2, 3);
  EXPECT_EQ(b.oc.pendingOperands(n0), 1);
  EXPECT_EQ(b.oc.pendingOperands(n1), 0);
}

TEST(OperandCollectors, WritebackStealsAReadPortForOneCycle) {
  Bench base(rf(2, 3));
  CollectorId id0 = base.oc.accept(0, {R(0)}, 0);
  EXPECT_EQ(base.readyCycle(id0, 0), 2u);

  Bench b(rf(2, 3));
  CollectorId id = b.oc.accept(0, {R(0)}, 0);
  b.oc.tick(0);
  b.oc.writeback(R(4));  // bank 0, requested in cycle 1 before the tick
  EXPECT_TRUE(b.oc.tick(1));
  EXPECT_EQ(b.oc.written(), std::vector<PhysReg>{R(4)});
  EXPECT_EQ(b.oc.pendingOperands(id), 1);
  EXPECT_EQ(b.readyCycle(id, 2), 3u);  // one cycle later than without the write
  EXPECT_EQ(b.oc.counters().writes.value, 1u);
  EXPECT_EQ(b.oc.counters().conflicts.value, 1u);
  EXPECT_EQ(b.oc.counters().writeConflicts.value, 0u);
  EXPECT_EQ(b.oc.bankCounters(BankId{0}).writes.value, 1u);
}

TEST(OperandCollectors, WritebacksBeyondThePortsWaitInOrderAndBlockReads) {
  Bench b(rf(2, 3));
  b.oc.writeback(R(0));
  b.oc.writeback(R(4));
  b.oc.writeback(R(1));
  b.oc.writeback(R(8));
  CollectorId id = b.oc.accept(0, {R(12)}, 0);
  b.oc.tick(0);
  EXPECT_EQ(b.oc.written(), (std::vector<PhysReg>{R(0), R(1)}));
  b.oc.tick(1);
  EXPECT_EQ(b.oc.written(), std::vector<PhysReg>{R(4)});
  b.oc.tick(2);
  EXPECT_EQ(b.oc.written(), std::vector<PhysReg>{R(8)});
  EXPECT_EQ(b.oc.pendingOperands(id), 1);  // bank 0 taken by writes in cycles 1 and 2
  b.oc.tick(3);
  EXPECT_EQ(b.oc.pendingOperands(id), 0);
  EXPECT_EQ(b.oc.counters().writeConflicts.value, 3u);  // R4 twice, R8 once (cycle 0 and 1)
  EXPECT_EQ(b.oc.counters().conflicts.value, 5u);       // + the read, denied in cycles 1 and 2
  EXPECT_EQ(b.oc.pendingWritebacks(), 0u);
}

TEST(OperandCollectors, FullCollectorsRefuse) {
  Bench b(rf(2, 1));
  EXPECT_TRUE(b.oc.canAccept());
  CollectorId a = b.oc.accept(0, {R(0)}, 0);
  b.oc.accept(1, {R(1)}, 0);
  EXPECT_FALSE(b.oc.canAccept());
  EXPECT_THROW(b.oc.accept(2, {R(2)}, 0), std::logic_error);
  b.run(0, 1);
  EXPECT_EQ(b.oc.counters().fullCycles.value, 2u);
  EXPECT_FALSE(b.oc.dispatch(a, 2, /*unitFree=*/false));  // unit busy: stays
  EXPECT_FALSE(b.oc.canAccept());
  EXPECT_EQ(b.oc.counters().dispatchStalls.value, 1u);
  EXPECT_TRUE(b.oc.dispatch(a, 3, true));
  EXPECT_TRUE(b.oc.canAccept());
  EXPECT_EQ(b.oc.counters().residency.value, 3u);
}

TEST(OperandCollectors, DispatchBeforeReadyThrows) {
  Bench b(rf(2, 1));
  CollectorId a = b.oc.accept(0, {R(0)}, 0);
  EXPECT_THROW(b.oc.dispatch(a, 1, true), std::logic_error);
  b.oc.tick(1);
  EXPECT_THROW(b.oc.dispatch(a, 1, true), std::logic_error);  // read in cycle 1
  EXPECT_THROW(b.oc.dispatch(CollectorId{1}, 2, true), std::logic_error);  // free collector
  EXPECT_TRUE(b.oc.dispatch(a, 2, true));
}

TEST(OperandCollectors, NoSourcesStillPassTheReadStage) {
  Bench b(rf(2, 1));
  CollectorId a = b.oc.accept(0, {}, 5);
  EXPECT_TRUE(b.oc.readyToDispatch(6).empty());
  ASSERT_EQ(b.oc.readyToDispatch(7).size(), 1u);
  EXPECT_TRUE(b.oc.dispatch(a, 7, true));
  EXPECT_EQ(b.oc.counters().reads.value, 0u);
}

TEST(OperandCollectors, DefaultMappingIsSkewed) {
  config::GpuConfig::RegFile c{32, 1, 4, 1, 8};
  OperandCollectors oc(c);
  EXPECT_EQ(oc.bank(PhysReg{33}), BankId{2});
  EXPECT_THROW(OperandCollectors(config::GpuConfig::RegFile{4, 0, 2, 1, 8}), std::invalid_argument);
}

// dispatchReady offers what readyToDispatch lists, in the same order, and takes, refuses
// (counting a stall) or skips (not counting) as its visitor says.
TEST(OperandCollectors, DispatchReadyWalksTheReadyInstructionsOldestFirst) {
  Bench b(rf(4, 1));
  const CollectorId x = b.oc.accept(10, {R(0)}, 0);
  const CollectorId y = b.oc.accept(11, {R(1)}, 0);
  const CollectorId z = b.oc.accept(12, {R(2)}, 0);
  b.oc.accept(13, {R(3)}, 0);
  b.run(0, 1);  // all four read in cycle 1 (four banks): dispatchable from 2
  using Offer = OperandCollectors::Offer;
  std::vector<uint64_t> seen, taken;
  const auto decide = [&](const OperandCollectors::Ready& r) {
    seen.push_back(r.tag);
    return r.tag == 10 || r.tag == 12 ? Offer::Take : r.tag == 11 ? Offer::Refuse : Offer::Skip;
  };
  const auto take = [&](const OperandCollectors::Ready& r) {
    EXPECT_TRUE(b.oc.canAccept());  // the collector is free before take runs
    taken.push_back(r.tag);
  };
  EXPECT_EQ(b.oc.dispatchReady(1, decide, take), 0);  // nothing dispatchable yet
  EXPECT_TRUE(seen.empty());
  EXPECT_EQ(b.oc.dispatchReady(2, decide, take), 2);
  EXPECT_EQ(seen, (std::vector<uint64_t>{10, 11, 12, 13}));
  EXPECT_EQ(taken, (std::vector<uint64_t>{10, 12}));
  EXPECT_EQ(b.oc.counters().dispatchStalls.value, 1u);  // 11 refused; 13 skipped, not counted
  EXPECT_EQ(b.oc.counters().dispatched.value, 2u);
  ASSERT_EQ(b.oc.readyToDispatch(3).size(), 2u);  // the two left, still oldest first
  EXPECT_EQ(b.oc.readyToDispatch(3)[0].id, y);
  EXPECT_EQ(b.oc.busyCollectors(), 2u);
  // The freed collectors are the lowest free ones again.
  EXPECT_EQ(b.oc.accept(14, {R(0)}, 3), x);
  EXPECT_EQ(b.oc.accept(15, {R(1)}, 3), z);
}

// Reads go round-robin over many collectors (more than one 64-bit word of them).
TEST(OperandCollectors, RoundRobinOverManyCollectors) {
  Bench b({/*banks=*/1, /*bank_ports=*/1, /*collectors=*/100, /*collector_ports=*/1, /*lane_group=*/8});
  std::vector<CollectorId> ids;
  for (uint32_t i = 0; i < 100; ++i) ids.push_back(b.oc.accept(i, {R(i)}, 0));
  // One bank, one port: one read per cycle, collector 0 first, then in order.
  for (uint64_t c = 1; c <= 100; ++c) {
    b.oc.tick(c);
    EXPECT_EQ(b.oc.pendingOperands(ids[c - 1]), 0) << "cycle " << c;
    if (c < 100) {
      EXPECT_EQ(b.oc.pendingOperands(ids[c]), 1) << "cycle " << c;
    }
  }
}
