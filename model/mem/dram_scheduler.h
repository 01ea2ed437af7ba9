// FrFcfsDram: the timing of DRAM channels with banks and open rows, served first-ready
// first-come-first-served (FR-FCFS), in plain C++ (no SystemC) so that DramTarget's timing is
// tested on its own. All times are in core cycles; DramTarget converts the DRAM's timing
// parameters (given in DRAM command-clock cycles, as GPGPU-Sim's -gpgpu_dram_timing_opt) once.
//
// Address mapping (GPGPU-Sim's dramid@8 with RBBBCCCC.BCCSSSSS, generalised):
//   channel = (a / interleave) % channels; the channel's own address removes those bits:
//   local   = (a / interleave / channels) * interleave + a % interleave
//   bank    = bit 7 of local | (local >> 12) % (banks / 2) << 1   (banks a power of two, >= 2)
//   row     = local >> (12 + log2(banks / 2))                      (2 KB rows per bank)
// Each channel holds at most queue_depth requests accepted but not yet started. Whenever a
// bank is free, it starts, among the queued requests for it, the oldest one to its open row
// (a row hit), else the oldest one (FR-FCFS, per bank as GPGPU-Sim). Starting request r at t:
//   hit:      column command at t
//   closed:   activate at t, column at t + tRCD
//   conflict: precharge at max(t, activate + tRAS), activate tRP later, column tRCD after that
// Requests start only while the channel's data bus is booked at most tRP + tRCD + CL cycles
// ahead (else they stay queued, so a full queue withholds END_REQ at the bus's rate).
//   data      = column + (write ? WL : CL); the channel's data bus carries ceil(len / atom)
//               bursts of tCCD each (converted once to `burst` cycles per atom count) from the
//               first free slot at or after `data`; the bank takes its next column command
//               when this one's bursts end (so hits to an open row follow each other at tCCD)
//   answered  = end of the transfer + latency (the fixed pipeline of GPGPU-Sim's -dram_latency)
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

namespace simtlm::mem {

struct DramTimings {  // core cycles
  unsigned channels = 1, banks = 16, interleave = 256;
  unsigned queue_depth = 64;
  unsigned t_rcd = 10, t_rp = 10, t_ras = 22, t_cl = 10, t_wl = 4;
  unsigned atom_bytes = 32;
  double burst_per_atom = 1.184;  // cycles of data bus per atom (tCCD converted, fractional)
  unsigned latency = 100;
};

class FrFcfsDram {
 public:
  struct Request {
    void* tag;               // the caller's handle (a payload)
    std::uint64_t address;
    unsigned length;
    bool write;
  };
  struct Started {
    void* tag;
    std::uint64_t respond;   // cycle the answer is due
    bool row_hit, conflict;  // hit: open row; conflict: another row was open
    std::uint64_t waited;    // queued cycles (arrival to start)
  };
  struct Location {
    unsigned channel, bank;
    std::uint64_t row;
  };

  explicit FrFcfsDram(const DramTimings& t);
  Location locate(std::uint64_t address) const;
  bool hasRoom(std::uint64_t address) const;  // its channel's queue has room
  void push(const Request& r, std::uint64_t now);  // the queue must have room
  // Starts every request FR-FCFS allows at cycle `now`, oldest first, into `out`.
  void schedule(std::uint64_t now, std::vector<Started>& out);
  // The next cycle a queued request could start (UINT64_MAX: nothing queued).
  std::uint64_t nextWake() const;
  std::uint64_t burstCycles(unsigned length) const;

 private:
  struct Queued {
    Request r;
    Location at;
    std::uint64_t arrival;
  };
  struct Bank {
    std::uint64_t free = 0, activated = 0;
    std::uint64_t row = 0;
    bool open = false;
  };
  struct Channel {
    std::vector<Bank> banks;
    std::deque<Queued> queue;  // arrival order
    std::uint64_t bus_free = 0;
  };
  Started start(Channel& c, const Queued& q, std::uint64_t now);
  // How far ahead the data bus may be booked: a row conflict's lead, tRP + tRCD + CL.
  std::uint64_t horizon() const { return std::uint64_t{t_.t_rp} + t_.t_rcd + t_.t_cl; }

  DramTimings t_;
  unsigned bank_shift_;  // 12 + log2(banks / 2)
  std::vector<Channel> channels_;
  std::vector<int> hit_, oldest_;  // per bank, scratch for schedule()
  std::vector<int> chosen_;        // scratch for schedule()
};

}  // namespace simtlm::mem
