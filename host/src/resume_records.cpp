#include "cgtb/resume_records.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "cgtb/error.hpp"

namespace cgtb {

// Payload, this machine's byte order: i64 last level solved, i64 K (levels
// carried), i64 bytes per stored value, i64 dictionary entries E; K pairs
// i64 (level, positions n); the n stored values of each of the K levels, in
// that order; the E entries of the record dictionary.

resume_records::resume_records(std::vector<int> levels, int span, std::size_t stored_bytes, std::size_t entry_bytes)
    : levels_(std::move(levels)), span_(span), stored_bytes_(stored_bytes), entry_bytes_(entry_bytes) {}

std::size_t resume_records::index_of(int level) const {
  const auto it = std::lower_bound(levels_.begin(), levels_.end(), level);
  if (it == levels_.end() || *it != level) throw std::logic_error("resume_records: no level " + std::to_string(level));
  return static_cast<std::size_t>(it - levels_.begin());
}

std::vector<std::size_t> resume_records::reached_after(std::size_t i) const {
  std::vector<std::size_t> out;
  if (i + 1 >= levels_.size()) return out;
  const int next = levels_[i + 1];  // the lowest level still to solve reaches the most
  for (std::size_t j = 0; j <= i; ++j)
    if (span_ == 0 || levels_[j] >= next - span_) out.push_back(j);
  return out;
}

std::vector<tablebase_writer::payload_piece> resume_records::after_level(int level, std::uint64_t n, const void* stored,
                                                                         const void* entries,
                                                                         std::uint64_t entry_count) {
  const std::size_t i = index_of(level);
  const std::vector<std::size_t> carried = reached_after(i);
  // Copies no checkpoint from here on carries go.
  for (auto it = copies_.begin(); it != copies_.end();)
    it = std::any_of(carried.begin(), carried.end(), [&](std::size_t j) { return levels_[j] == it->first; })
             ? std::next(it)
             : copies_.erase(it);
  // This level is carried again by the next checkpoint when the level after
  // the next still reaches it: keep a copy (its values are valid only now).
  const std::vector<std::size_t> next_carried =
      i + 1 < levels_.size() ? reached_after(i + 1) : std::vector<std::size_t>{};
  if (std::find(next_carried.begin(), next_carried.end(), i) != next_carried.end())
    copies_[level].assign(static_cast<const char*>(stored), n * stored_bytes_);
  head_[0] = level;
  head_[1] = static_cast<std::int64_t>(carried.size());
  head_[2] = static_cast<std::int64_t>(stored_bytes_);
  head_[3] = static_cast<std::int64_t>(entries ? entry_count : 0);
  table_.clear();
  std::vector<tablebase_writer::payload_piece> pieces = {{head_, sizeof head_}, {nullptr, 0}};
  for (std::size_t j : carried) {
    const int l = levels_[j];
    if (l == level) {
      table_.insert(table_.end(), {l, static_cast<std::int64_t>(n)});
      pieces.push_back({stored, n * stored_bytes_});
    } else {
      const std::string& c = copies_.at(l);
      table_.insert(table_.end(), {l, static_cast<std::int64_t>(c.size() / stored_bytes_)});
      pieces.push_back({c.data(), c.size()});
    }
  }
  pieces[1] = {table_.data(), table_.size() * sizeof(std::int64_t)};
  if (entries) pieces.push_back({entries, entry_count * entry_bytes_});
  return pieces;
}

int resume_records::resume_from(const tablebase_writer& w, const std::string& output) {
  const int last = parse(w.resumed_payload(), output);
  if (w.levels().empty() || w.levels().back().level != last)
    throw input_error("checkpoint of '" + output + "' does not match this build; remove its partial files");
  return last;
}

int resume_records::resume_from(std::string payload, const std::string& output) {
  owned_ = std::move(payload);
  return parse(owned_, output);
}

void resume_records::load(int level, std::uint64_t n, void* dst, std::string* entries) {
  if (load_from(owned_, level, n, dst, entries)) std::string().swap(owned_);
}

void resume_records::load(tablebase_writer& w, int level, std::uint64_t n, void* dst, std::string* entries) {
  if (load_from(w.resumed_payload(), level, n, dst, entries)) w.release_resumed_payload();
}

int resume_records::parse(const std::string& pl, const std::string& output) {
  auto mismatch = [&] {
    return input_error("checkpoint of '" + output + "' does not match this build; remove its partial files");
  };
  if (pl.size() < sizeof head_) throw input_error("checkpoint of '" + output + "' holds no records");
  std::memcpy(head_, pl.data(), sizeof head_);
  const std::int64_t k = head_[1];
  if (head_[2] != static_cast<std::int64_t>(stored_bytes_) || k < 0 || head_[3] < 0 ||
      static_cast<std::uint64_t>(k) > levels_.size() ||
      !std::binary_search(levels_.begin(), levels_.end(), static_cast<int>(head_[0])))
    throw mismatch();
  std::size_t pos = sizeof head_ + static_cast<std::size_t>(k) * 2 * sizeof(std::int64_t);
  if (pl.size() < pos) throw mismatch();
  table_.resize(static_cast<std::size_t>(k) * 2);
  if (k) std::memcpy(table_.data(), pl.data() + sizeof head_, table_.size() * sizeof(std::int64_t));
  resumed_.clear();
  for (std::int64_t j = 0; j < k; ++j) {
    const std::int64_t level = table_[static_cast<std::size_t>(2 * j)], n = table_[static_cast<std::size_t>(2 * j + 1)];
    if (n < 0 || level > head_[0] || static_cast<std::uint64_t>(n) > (pl.size() - pos) / stored_bytes_ ||
        !resumed_.emplace(static_cast<int>(level), std::make_pair(pos, static_cast<std::uint64_t>(n))).second)
      throw mismatch();
    pos += static_cast<std::size_t>(n) * stored_bytes_;
  }
  if (pl.size() != pos + static_cast<std::size_t>(head_[3]) * entry_bytes_) throw mismatch();
  entries_at_ = pos;
  loaded_ = 0;
  return static_cast<int>(head_[0]);
}

bool resume_records::load_from(const std::string& pl, int level, std::uint64_t n, void* dst, std::string* entries) {
  const auto it = resumed_.find(level);
  if (it == resumed_.end() || it->second.second != n)
    throw input_error("the checkpoint holds no records of level " + std::to_string(level) + " with " +
                      std::to_string(n) + " positions");
  if (pl.size() < entries_at_) throw std::logic_error("checkpoint records read after they were freed");
  std::memcpy(dst, pl.data() + it->second.first, n * stored_bytes_);
  // The first checkpoint of this build carries it again: keep a copy.
  const std::size_t i = index_of(static_cast<int>(head_[0]));
  if (i + 1 < levels_.size()) {
    const std::vector<std::size_t> next_carried = reached_after(i + 1);
    if (std::find(next_carried.begin(), next_carried.end(), index_of(level)) != next_carried.end())
      copies_[level].assign(pl.data() + it->second.first, n * stored_bytes_);
  }
  if (entries) entries->assign(pl.data() + entries_at_, static_cast<std::size_t>(head_[3]) * entry_bytes_);
  // Read once: the solver holds the records now.
  return ++loaded_ == resumed_.size();
}

}  // namespace cgtb
