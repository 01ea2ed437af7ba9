// The random PTX generator's control flow (see random_ptx_gen.h): branch conditions, blocks,
// if / if-else, bounded loops with break and continue, early returns and jumped-over dead code.
#include <string>
#include <vector>

#include "tests/ptx/random_ptx_gen.h"

namespace simtlm::test::ptxgen {

// Control flow --------------------------------------------------------------------------------

// A branch condition: "@%pN" or "@!%pN", from a fresh compare (on data or on the thread
// index) or a pool predicate.
std::string Gen::cond() {
  const std::string neg = rng_.percent(40) ? "@!" : "@";
  const uint32_t k = rng_.below(100);
  if (k < 40) {
    const int c = newP();
    setp(c, false);
    return neg + p(c);
  }
  if (k < 65) {
    const int c = newP(), t = newR();
    static const char* kSrc[] = {"%tid.x", "%laneid", "%tid.y"};
    ins("mov.u32", {r(t), rng_.percent(50) ? std::string(kSrc[rng_.below(3)]) : r(gtid_)});
    if (rng_.percent(50)) {
      ins("and.b32", {r(t), r(t), num((1 << rng_.between(1, 5)) - 1)});
      ins(rng_.percent(50) ? "setp.eq.s32" : "setp.ne.s32", {p(c), r(t), num(rng_.between(0, 3))});
    } else {
      ins(rng_.percent(50) ? "setp.lt.u32" : "setp.gt.u32", {p(c), r(t), num(rng_.between(0, 70))});
    }
    return neg + p(c);
  }
  return neg + p(pp());
}

void Gen::block(int depth, int items) {
  for (int i = 0; i < items && budget_ > 0; ++i) {
    const uint32_t k = rng_.below(100);
    if (k < 7 && depth < 4) ifThen(depth);
    else if (k < 12 && depth < 4) ifElse(depth);
    else if (k < 17 && depth < 4 && loops_.size() < 2) loop(depth);
    else if (k < 20 && !loops_.empty()) breakContinue();
    else if (k < 21) earlyExit();
    else if (k < 22) deadCode();
    else simple();
  }
}

// Code that never runs, jumped over: it writes pool registers.
void Gen::deadCode() {
  const int over = newLabel();
  ins("bra.uni", {lbl(over)});
  for (int i = rng_.between(1, 4); i > 0; --i) simple();
  label(over);
}

void Gen::ifThen(int depth) {
  const int skip = newLabel();
  ins(cond(), "bra", {lbl(skip)});
  block(depth + 1, rng_.between(1, 6));
  label(skip);
}

void Gen::ifElse(int depth) {
  const int els = newLabel(), end = newLabel();
  ins(cond(), "bra", {lbl(els)});
  block(depth + 1, rng_.between(1, 6));
  ins("bra.uni", {lbl(end)});
  label(els);
  block(depth + 1, rng_.between(1, 6));
  label(end);
}

void Gen::loop(int depth) {
  const int head = newLabel(), latch = newLabel(), exit = newLabel();
  const int ctr = newR();
  std::string bound;
  if (rng_.percent(50)) {
    bound = num(rng_.between(1, 4));
  } else {  // a data-dependent trip count 1..4
    const int b = newR();
    ins("and.b32", {r(b), r(pr()), "3"});
    ins("add.s32", {r(b), r(b), "1"});
    bound = r(b);
  }
  const uint32_t shape = rng_.below(3);
  loops_.push_back({latch, exit});
  if (shape == 0) {  // do { } while (++i < n), maybe also while a data predicate holds
    ins("mov.u32", {r(ctr), "0"});
    label(head);
    block(depth + 1, rng_.between(2, 8));
    label(latch);
    ins("add.s32", {r(ctr), r(ctr), "1"});
    const int c = newP();
    if (rng_.percent(30)) ins("setp.lt.and.u32", {p(c), r(ctr), bound, p(pp())});
    else ins("setp.lt.u32", {p(c), r(ctr), bound});
    ins("@" + p(c), "bra", {lbl(head)});
  } else if (shape == 1) {  // for (i = n; i != 0; --i), tested at the bottom
    ins("mov.u32", {r(ctr), bound});
    label(head);
    block(depth + 1, rng_.between(2, 8));
    label(latch);
    ins("add.s32", {r(ctr), r(ctr), "-1"});
    const int c = newP();
    ins("setp.ne.s32", {p(c), r(ctr), "0"});
    ins("@" + p(c), "bra", {lbl(head)});
  } else {  // while (i < n) { ... ++i; }, tested at the top
    ins("mov.u32", {r(ctr), "0"});
    label(head);
    const int c = newP();
    ins("setp.ge.u32", {p(c), r(ctr), bound});
    ins("@" + p(c), "bra", {lbl(exit)});
    block(depth + 1, rng_.between(2, 8));
    label(latch);
    ins("add.s32", {r(ctr), r(ctr), "1"});
    ins("bra.uni", {lbl(head)});
  }
  label(exit);
  loops_.pop_back();
}

void Gen::breakContinue() {
  const LoopCtx& l = loops_.back();
  ins(cond(), "bra", {lbl(rng_.percent(50) ? l.exit : l.latch)});
}

// A condition that holds for a few threads: the thread index or a loaded word, masked, equal
// to a constant.
std::string Gen::rareCond() {
  const int c = newP(), t = newR();
  static const char* kSrc[] = {"%tid.x", "%laneid"};
  if (rng_.percent(60)) ins("mov.u32", {r(t), rng_.percent(50) ? std::string(kSrc[rng_.below(2)]) : r(gtid_)});
  else ins("mov.u32", {r(t), r(pr())});
  const int mask = (1 << rng_.between(2, 5)) - 1;
  ins("and.b32", {r(t), r(t), num(mask)});
  ins("setp.eq.s32", {p(c), r(t), num(rng_.between(0, mask))});
  return "@" + p(c);
}

// A return before the end: to the final stores (most often), or straight out.
void Gen::earlyExit() {
  const uint32_t k = rng_.below(100);
  if (k < 45) return ins(rareCond(), "bra", {lbl(dumpLabel_)});
  if (k < 60) return ins(rareCond(), "bra", {lbl(retLabel_)});  // a branch to a bare ret
  if (k < 75) return ins(rareCond(), "ret", {});
  // if (c) { store the checksum and more; return; }
  const int skip = newLabel();
  const std::string c = rareCond();
  ins("@!" + c.substr(1), "bra", {lbl(skip)});
  ins("st.global.u32", {addr(rd(outBase_), 0), r(acc_)});
  for (int i = rng_.between(1, 3); i > 0; --i) store();
  ins("ret", {});
  label(skip);
}

}  // namespace simtlm::test::ptxgen
