// The exchanges of a build split across MPI ranks (mpi_exchange.hpp).
#include "mpi_exchange.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/rank_shares.hpp"
#include "cgtb/reachable_index.hpp"

#ifdef CGTB_HAVE_MPI
#include <mpi.h>
#endif

namespace cgtb::tools {

#ifdef CGTB_HAVE_MPI
namespace {

/// Sampled keys a rank, on average, from which a level's splitters are drawn
/// (docs/distributed.md: 4096 kept every level within 6 % of the mean share).
constexpr std::uint64_t kSamplePerRank = 4096;

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw resource_error(std::string("MPI ") + what + " failed");
}

/// An MPI count: throws resource_error past what one call carries.
int count_of(std::uint64_t n) {
  if (n > static_cast<std::uint64_t>(INT_MAX))
    throw resource_error("an exchange of " + std::to_string(n) +
                         " items between two ranks is more than one MPI call sends");
  return static_cast<int>(n);
}

class mpi_level_exchange final : public level_exchange {
 public:
  mpi_level_exchange(std::uint64_t split_from, std::uint64_t batch_keys)
      : split_from_(split_from), batch_(std::max<std::uint64_t>(batch_keys, 1)) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
  }
  int rank() const override { return rank_; }
  int ranks() const override { return ranks_; }

  std::vector<std::uint64_t> own_keys(int level, const std::vector<std::uint64_t>& generated, std::uint64_t part,
                                      std::uint64_t parts) override {
    if (part > 0) return own_part_keys(level, generated, part + 1 == parts);
    const std::vector<std::uint64_t> counts = all_gather(generated.size());
    std::uint64_t total = 0;
    for (std::uint64_t c : counts) total += c;
    // The splitters: quantiles of a sample of the level's distinct keys (an
    // empty list: the level stays whole on rank 0). A key is sampled by its
    // hash, so that every rank that generated it samples it or none does:
    // once the samples' repeats are removed, each distinct key of the level
    // was drawn with the same chance, however many ranks generated it (a
    // sample of each rank's keys would weigh a class by the ranks that
    // reach it). About kSamplePerRank keys a rank are drawn from all
    // generated keys of part 0, repeats included (parts are classes drawn by
    // a hash of their images: part 0's keys are a fair sample of the level's).
    std::vector<std::uint64_t> splitters;
    if (split_across_ranks(total * std::max<std::uint64_t>(parts, 1), static_cast<std::uint32_t>(ranks_),
                           split_from_)) {
      const double rate = std::min(1.0, static_cast<double>(kSamplePerRank) * ranks_ / static_cast<double>(total));
      const std::uint64_t below = rate >= 1.0 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(rate * 0x1p64);
      std::vector<std::uint64_t> sample;
      for (std::uint64_t k : generated)
        if (mix64(k) <= below) sample.push_back(k);
      std::vector<std::uint64_t> drawn = all_gather_keys(sample);
      std::sort(drawn.begin(), drawn.end());
      drawn.erase(std::unique(drawn.begin(), drawn.end()), drawn.end());
      splitters = range_splitters(std::move(drawn), static_cast<std::uint32_t>(ranks_));
    }
    splitters_[level] = splitters;
    // Later parts use the same splitters; the split decision above counts
    // the whole level (part 0's count times the parts).
    own_count_ = 0;
    return own_part_keys(level, generated, parts <= 1);
  }
  /// One part's keys sent to their owners under level `level`'s splitters;
  /// on the `last` part, the worst share of the level is noted.
  std::vector<std::uint64_t> own_part_keys(int level, const std::vector<std::uint64_t>& generated, bool last) {
    const std::vector<std::uint64_t>& splitters = splitters_.at(level);
    std::vector<std::uint64_t> own =
        all_to_all(generated.data(), partition(generated.data(), generated.size(), splitters));
    std::sort(own.begin(), own.end());
    own.erase(std::unique(own.begin(), own.end()), own.end());
    own_count_ += own.size();
    if (last && !splitters.empty()) {
      const std::vector<std::uint64_t> shares = all_gather(own_count_);
      std::uint64_t sum = 0, largest = 0;
      for (std::uint64_t p : shares) {
        sum += p;
        largest = std::max(largest, p);
      }
      const double share = sum ? static_cast<double>(largest) * ranks_ / static_cast<double>(sum) : 1.0;
      if (share > figures_.worst_share) {
        figures_.worst_share = share;
        figures_.worst_share_level = level;
      }
    }
    return own;
  }

  void fetch_records(int level, const std::uint64_t* wanted, std::uint64_t n, std::size_t record_bytes,
                     const record_lookup& lookup, void* out) override {
    const auto it = splitters_.find(level);
    if (it == splitters_.end())
      throw internal_error("records of level " + std::to_string(level) + " asked before its keys");
    const std::vector<std::uint64_t>& splitters = it->second;
    std::uint64_t rounds = (n + batch_ - 1) / batch_;
    check(MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD), "Allreduce");
    figures_.keys_requested += n;
    unsigned char* to = static_cast<unsigned char*>(out);
    std::vector<unsigned char> answers;
    for (std::uint64_t round = 0, at = 0; round < rounds; ++round) {
      const std::uint64_t m = std::min(batch_, n - std::min(n, at));
      const std::vector<std::uint64_t> sent = partition(wanted + at, m, splitters);
      std::vector<std::uint64_t> asked_of_me_counts;
      const std::vector<std::uint64_t> asked = all_to_all(wanted + at, sent, &asked_of_me_counts);
      answers.resize(asked.size() * record_bytes);
      if (!asked.empty()) lookup(asked.data(), asked.size(), answers.data());
      // The answers go back in the order the requests came: each source's
      // run of requests, in rank order, as each rank sent its sorted keys.
      std::vector<std::uint64_t> answer_bytes(asked_of_me_counts), reply_bytes(sent);
      for (auto& c : answer_bytes) c *= record_bytes;
      for (auto& c : reply_bytes) c *= record_bytes;
      void* const replies = to + at * record_bytes;
      exchange_bytes(answers.data(), answer_bytes, &replies, reply_bytes);
      at += m;
    }
  }

  std::vector<std::uint64_t> counts(std::uint64_t n) override { return all_gather(n); }

  std::string send_one(int to, const std::string& bytes) override {
    std::vector<std::uint64_t> send(static_cast<std::size_t>(ranks_), 0), got_bytes;
    if (to >= 0 && to < ranks_ && to != rank_) send[static_cast<std::size_t>(to)] = bytes.size();
    const std::vector<unsigned char> got = exchange_bytes(bytes.data(), send, nullptr, got_bytes);
    return std::string(got.begin(), got.end());
  }

  void gather_in_order(const std::string& bytes, const std::function<void(const std::string&)>& take) override {
    // Point to point, one rank after another, in pieces one MPI call carries.
    constexpr std::uint64_t kPiece = std::uint64_t{1} << 30;
    constexpr int kTag = 41;
    if (rank_ != 0) {
      std::uint64_t size = bytes.size();
      check(MPI_Send(&size, 1, MPI_UINT64_T, 0, kTag, MPI_COMM_WORLD), "Send");
      for (std::uint64_t at = 0; at < size; at += kPiece)
        check(MPI_Send(bytes.data() + at, count_of(std::min(kPiece, size - at)), MPI_BYTE, 0, kTag, MPI_COMM_WORLD),
              "Send");
      figures_.bytes_sent += size;
      return;
    }
    take(bytes);
    std::string got;
    for (int r = 1; r < ranks_; ++r) {
      std::uint64_t size = 0;
      check(MPI_Recv(&size, 1, MPI_UINT64_T, r, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "Recv");
      got.resize(size);
      for (std::uint64_t at = 0; at < size; at += kPiece)
        check(MPI_Recv(got.data() + at, count_of(std::min(kPiece, size - at)), MPI_BYTE, r, kTag, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE),
              "Recv");
      take(got);
    }
  }

  std::uint64_t sum(std::uint64_t v) override {
    check(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD), "Allreduce");
    return v;
  }
  std::uint64_t max(std::uint64_t v) override {
    check(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD), "Allreduce");
    return v;
  }

  const exchange_figures& figures() const { return figures_; }

 private:
  /// v from every rank, in rank order.
  std::vector<std::uint64_t> all_gather(std::uint64_t v) {
    std::vector<std::uint64_t> all(static_cast<std::size_t>(ranks_));
    check(MPI_Allgather(&v, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD), "Allgather");
    return all;
  }
  /// Every rank's `keys`, one after another.
  std::vector<std::uint64_t> all_gather_keys(const std::vector<std::uint64_t>& keys) {
    const std::vector<std::uint64_t> counts = all_gather(keys.size());
    std::vector<int> c(ranks_), at(ranks_);
    std::uint64_t total = 0;
    for (int r = 0; r < ranks_; ++r) {
      c[r] = count_of(counts[r]);
      at[r] = count_of(total);
      total += counts[r];
    }
    std::vector<std::uint64_t> all(total);
    check(MPI_Allgatherv(keys.data(), count_of(keys.size()), MPI_UINT64_T, all.data(), c.data(), at.data(),
                         MPI_UINT64_T, MPI_COMM_WORLD),
          "Allgatherv");
    return all;
  }
  /// How many of the ascending `keys` each rank owns under `splitters` (an
  /// empty list: rank 0 owns them all).
  std::vector<std::uint64_t> partition(const std::uint64_t* keys, std::uint64_t n,
                                       const std::vector<std::uint64_t>& splitters) const {
    std::vector<std::uint64_t> counts(static_cast<std::size_t>(ranks_), 0);
    if (splitters.empty()) {
      counts[0] = n;
      return counts;
    }
    std::uint64_t from = 0;
    for (int r = 0; r < ranks_; ++r) {
      const std::uint64_t to =
          r + 1 < ranks_ ? static_cast<std::uint64_t>(std::lower_bound(keys, keys + n, splitters[r]) - keys) : n;
      counts[r] = to - from;
      from = to;
    }
    return counts;
  }
  /// Sends counts[r] keys (consecutive in `keys`) to each rank r; returns
  /// what the ranks sent this one, in rank order (and, where asked, how many
  /// came from each). Each run goes delta-coded: the differences of
  /// consecutive keys (the first from 0) as LEB128 varints, a few bytes a
  /// key for the ascending runs both exchanges send (any order decodes
  /// right: the differences wrap modulo 2^64).
  std::vector<std::uint64_t> all_to_all(const std::uint64_t* keys, const std::vector<std::uint64_t>& counts,
                                        std::vector<std::uint64_t>* received_counts = nullptr) {
    std::uint64_t total = 0;
    for (std::uint64_t c : counts) total += c;
    std::vector<unsigned char> coded;
    coded.reserve(total * 3);
    std::vector<std::uint64_t> bytes(static_cast<std::size_t>(ranks_), 0), got_bytes;
    const std::uint64_t* k = keys;
    for (int r = 0; r < ranks_; ++r) {
      const std::size_t start = coded.size();
      std::uint64_t previous = 0;
      for (std::uint64_t j = 0; j < counts[r]; ++j) {
        std::uint64_t d = k[j] - previous;
        previous = k[j];
        for (; d >= 0x80; d >>= 7) coded.push_back(static_cast<unsigned char>(d | 0x80));
        coded.push_back(static_cast<unsigned char>(d));
      }
      bytes[r] = coded.size() - start;
      k += counts[r];
    }
    const std::vector<unsigned char> got = exchange_bytes(coded.data(), bytes, nullptr, got_bytes);
    std::vector<std::uint64_t> out;
    out.reserve(got.size() / 2);
    if (received_counts) received_counts->assign(static_cast<std::size_t>(ranks_), 0);
    std::size_t at = 0;
    for (int r = 0; r < ranks_; ++r) {
      const std::size_t end = at + got_bytes[r];
      std::uint64_t previous = 0, n = 0;
      while (at < end) {
        std::uint64_t d = 0;
        int shift = 0;
        for (;; shift += 7) {
          if (at >= end || shift > 63) throw internal_error("a rank's coded keys ended inside a key");
          const unsigned char b = got[at++];
          d |= static_cast<std::uint64_t>(b & 0x7f) << shift;
          if (!(b & 0x80)) break;
        }
        previous += d;
        out.push_back(previous);
        ++n;
      }
      if (received_counts) (*received_counts)[r] = n;
    }
    return out;
  }
  /// One MPI_Alltoallv of bytes: send_bytes[r] bytes of `send` to rank r.
  /// With `into`, the bytes received land at *into and recv_bytes must hold
  /// what each rank sends (nothing is returned); else recv_bytes is filled
  /// from an MPI_Alltoall of the counts and the bytes are returned.
  std::vector<unsigned char> exchange_bytes(const void* send, const std::vector<std::uint64_t>& send_bytes,
                                            void* const* into, std::vector<std::uint64_t>& recv_bytes) {
    if (!into) {
      recv_bytes.assign(static_cast<std::size_t>(ranks_), 0);
      check(MPI_Alltoall(send_bytes.data(), 1, MPI_UINT64_T, recv_bytes.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD),
            "Alltoall");
    }
    std::vector<int> sc(ranks_), sd(ranks_), rc(ranks_), rd(ranks_);
    std::uint64_t s_total = 0, r_total = 0;
    for (int r = 0; r < ranks_; ++r) {
      sc[r] = count_of(send_bytes[r]);
      rc[r] = count_of(recv_bytes[r]);
      sd[r] = count_of(s_total);
      rd[r] = count_of(r_total);
      s_total += send_bytes[r];
      r_total += recv_bytes[r];
      if (r != rank_) figures_.bytes_sent += send_bytes[r];
    }
    std::vector<unsigned char> got(into ? 0 : r_total);
    check(MPI_Alltoallv(send, sc.data(), sd.data(), MPI_BYTE, into ? *into : got.data(), rc.data(), rd.data(), MPI_BYTE,
                        MPI_COMM_WORLD),
          "Alltoallv");
    return got;
  }

  int rank_ = 0, ranks_ = 1;
  std::uint64_t split_from_, batch_;
  std::uint64_t own_count_ = 0;                          ///< forward pass: this rank's keys of the level's parts so far
  std::map<int, std::vector<std::uint64_t>> splitters_;  ///< by level: ranks - 1 splitters, or none (rank 0 owns all)
  exchange_figures figures_;
};

}  // namespace

std::unique_ptr<level_exchange> make_mpi_exchange(std::uint64_t split_from, std::uint64_t batch_keys) {
  int ready = 0, size = 1;
  MPI_Initialized(&ready);
  if (!ready) return nullptr;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) return nullptr;
  return std::make_unique<mpi_level_exchange>(split_from, batch_keys);
}

exchange_figures exchange_totals(level_exchange& x) {
  exchange_figures f = static_cast<mpi_level_exchange&>(x).figures();
  f.bytes_sent = x.sum(f.bytes_sent);
  f.keys_requested = x.sum(f.keys_requested);
  return f;
}

#else

std::unique_ptr<level_exchange> make_mpi_exchange(std::uint64_t, std::uint64_t) { return nullptr; }
exchange_figures exchange_totals(level_exchange&) { return {}; }

#endif

}  // namespace cgtb::tools
