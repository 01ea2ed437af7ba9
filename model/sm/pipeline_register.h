// A pipeline register between two SM units: a bounded FIFO channel that implements the standard
// sc_fifo_in_if<T> / sc_fifo_out_if<T>, so a unit can be bound to it, to an sc_fifo<T>, or to any
// user channel implementing those interfaces.
//
// Semantics: exactly those of sc_fifo<T> of the same size as observed between delta cycles, with
// sc_fifo's update phase replaced by UpdateList::commit():
//   - num_available() = values readable at the last commit, minus those read since; a value
//     written since the last commit is not readable until the next one;
//   - num_free() = size - values readable at the last commit - values written since; a read frees
//     room only at the next commit (as in sc_fifo, where reads leave num_free unchanged until
//     update());
//   - nb_read / nb_write fail exactly when num_available() / num_free() is 0; FIFO order.
// Why commit() exists: the default scheduling ticks an SM's units in a plain C++ loop (no process,
// no event, no delta cycle), and calls commit() after the writing unit's tick (GridEngine: after
// the LD/ST step), which does for every channel touched since the last commit what sc_fifo's
// update() does between two deltas. The `systemc` scheduling uses a plain sc_fifo instead
// (global_access.h), updated by the kernel between the units' delta cycles.
//
// Events cost nothing unless used: commit() notifies data_written_event / data_read_event
// (SC_ZERO_TIME, as sc_fifo does) only once someone asked for that event, which creates it.
// Blocking read()/write() ask for it, so they work inside an SC_THREAD, as sc_fifo's do.
#pragma once

#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

namespace simtlm::sm {

// The channels touched since the last commit; commit() applies their pending update.
class UpdateList {
 public:
  class Client {
   public:
    virtual ~Client() = default;

   protected:
    friend class UpdateList;
    virtual void update() = 0;
  };

  UpdateList() { touched_.reserve(16); }
  UpdateList(const UpdateList&) = delete;
  UpdateList& operator=(const UpdateList&) = delete;

  // Called by a channel on its first read or write since the last commit.
  void add(Client* c) { touched_.push_back(c); }
  // A channel destroyed before the commit takes itself off (rare: linear search is fine).
  void remove(Client* c) {
    for (auto& p : touched_)
      if (p == c) p = nullptr;
  }

  void commit() {
    // Index loop: an update never adds, but a vector is cheapest walked this way anyway.
    for (size_t i = 0; i < touched_.size(); ++i)
      if (touched_[i]) touched_[i]->update();
    touched_.clear();
  }
  bool empty() const { return touched_.empty(); }
  size_t size() const { return touched_.size(); }

 private:
  std::vector<Client*> touched_;
};

template <class T>
class PipelineRegister : public sc_core::sc_fifo_in_if<T>,
                         public sc_core::sc_fifo_out_if<T>,
                         private UpdateList::Client {
 public:
  // Throws std::invalid_argument, naming the channel, for a capacity below 1.
  PipelineRegister(std::string name, int capacity, UpdateList& list)
      : name_(std::move(name)), size_(checked(name_, capacity)), buf_(new T[size_]), list_(list) {}
  ~PipelineRegister() override {
    if (pending_) list_.remove(this);
  }
  PipelineRegister(const PipelineRegister&) = delete;
  PipelineRegister& operator=(const PipelineRegister&) = delete;

  // sc_fifo_in_if<T>
  int num_available() const override { return readable_ - read_; }
  bool nb_read(T& v) override {
    if (num_available() == 0) return false;
    v = std::move(buf_[ri_]);  // moving out leaves e.g. a shared_ptr empty, as sc_fifo's T() does
    ri_ = next(ri_);
    ++free_;
    ++read_;
    touch();
    return true;
  }
  void read(T& v) override {
    while (num_available() == 0) sc_core::wait(data_written_event());
    nb_read(v);
  }
  T read() override {
    T v;
    read(v);
    return v;
  }
  const sc_core::sc_event& data_written_event() const override { return event(written_ev_); }

  // sc_fifo_out_if<T>
  int num_free() const override { return size_ - readable_ - written_; }
  bool nb_write(const T& v) override {
    if (num_free() == 0) return false;
    buf_[wi_] = v;
    wi_ = next(wi_);
    --free_;
    ++written_;
    touch();
    return true;
  }
  void write(const T& v) override {
    while (num_free() == 0) sc_core::wait(data_read_event());
    nb_write(v);
  }
  const sc_core::sc_event& data_read_event() const override { return event(read_ev_); }

  const char* name() const { return name_.c_str(); }
  const char* kind() const { return "simtlm_pipeline_register"; }
  int size() const { return size_; }
  // Every value held, oldest first, including those written since the last commit.
  void print(std::ostream& os) const {
    for (int i = 0, at = ri_; i < size_ - free_; ++i, at = next(at)) os << buf_[at] << '\n';
  }

 private:
  static int checked(const std::string& name, int capacity) {
    if (capacity < 1)
      throw std::invalid_argument("pipeline register '" + name + "': capacity " +
                                  std::to_string(capacity) + " is out of range (allowed: 1 or more)");
    return capacity;
  }
  int next(int i) const { return i + 1 == size_ ? 0 : i + 1; }
  void touch() {
    if (!pending_) {
      pending_ = true;
      list_.add(this);
    }
  }
  static const sc_core::sc_event& event(std::unique_ptr<sc_core::sc_event>& e) {
    if (!e) e = std::make_unique<sc_core::sc_event>();
    return *e;
  }
  // What sc_fifo<T>::update() does.
  void update() override {
    if (read_ > 0 && read_ev_) read_ev_->notify(sc_core::SC_ZERO_TIME);
    if (written_ > 0 && written_ev_) written_ev_->notify(sc_core::SC_ZERO_TIME);
    readable_ = size_ - free_;
    read_ = written_ = 0;
    pending_ = false;
  }

  std::string name_;
  int size_;
  std::unique_ptr<T[]> buf_;
  UpdateList& list_;
  int ri_ = 0, wi_ = 0;  // next read, next write
  int free_ = size_;     // slots not holding a value
  int readable_ = 0;     // values held at the last commit
  int read_ = 0, written_ = 0;  // since the last commit
  bool pending_ = false;        // on list_ since the last commit
  // Created on first request (a port's sensitivity, a blocking call); null means nobody waits.
  mutable std::unique_ptr<sc_core::sc_event> read_ev_, written_ev_;
};

}  // namespace simtlm::sm
