// Bounded misère classes of small Cram regions: how many classes the misère
// sums of regions tell apart (`cgtb quotient cram`), a lower bound on the
// elements of their misère quotient (Plambeck and Siegel, "Misère quotients
// for impartial games", J. Combin. Theory A 115 (2008)); docs/misere.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cgtb {

/// One class of regions that no test sum told apart.
struct region_class {
  std::string representative;  ///< its smallest member: fewest cells, then least canonical key ("" = no cell)
  int cells = 0;               ///< the representative's empty cells
  std::uint64_t members = 0;
  std::string genus;  ///< the representative's genus symbol (Winning Ways ch. 13)
  bool tame = false;
};

/// Result of cram_region_classes.
struct region_classes_report {
  int max_cells = 0, company = 0;
  std::uint64_t regions =
      0;                    ///< the set: every connected region of 1..max_cells cells up to symmetry, and the empty one
  std::uint64_t tests = 0;  ///< test sums applied (of tests_total)
  std::uint64_t tests_total = 0;      ///< every test sum of up to `company` regions
  bool sampled = false;               ///< the tests of `company` regions were a random sample
  std::uint64_t sums = 0;             ///< misère outcomes computed
  std::uint64_t skipped = 0;          ///< (test, class) pairs the tame rule settled without a search
  std::vector<region_class> classes;  ///< by the representative's cells, then key
  double seconds = 0;
  std::size_t memory_bytes = 0;  ///< the search's memo and caches at the end

  /// Every region of the set is hereditarily tame (it and all its followers
  /// have a tame genus). Then each plays, in every sum of such regions, like
  /// the Nim position of its genus (Winning Ways ch. 13), and the quotient of
  /// the set is misère Nim's on the heaps those positions use.
  bool hereditarily_tame = false;
  unsigned max_grundy = 0;  ///< the largest Grundy value of a region of the set
  /// The quotient when the set is hereditarily tame with Grundy values <= 3:
  /// misère Nim's on the heaps its regions play like — the trivial monoid
  /// (values 0 only), T1 = <a | a^2 = 1> (values up to 1), or T2 = <a, b |
  /// a^2 = 1, b^3 = b>, order 6, P-portion {a, b^2}, where *1 is a, *2 is b
  /// and *3 is ab (Plambeck and Siegel, section on misère Nim); empty
  /// otherwise.
  std::string quotient;
  std::vector<std::string> elements;            ///< each class's quotient element ("1", "a", "b", "ab", "b^2", "ab^2")
  std::uint64_t checked = 0, check_agreed = 0;  ///< the check of the quotient (region_classes_options::check)
};

/// What cram_region_classes computes.
struct region_classes_options {
  int max_cells = 6;  ///< regions of 1..max_cells cells (1..12), and the empty one
  int company = 2;    ///< test sums of up to this many further regions (0..3)
  /// With sample > 0, the tests of `company` regions are `sample` multisets
  /// drawn at random (seeded by `seed`) instead of all of them; the tests of
  /// fewer regions are all applied. The count is then a lower bound on the
  /// bounded count too.
  std::uint64_t sample = 0, seed = 1;
  /// When the quotient is found (region_classes_report::quotient), compare
  /// its prediction (map each region to its element, multiply, read the
  /// P-portion) with a search without shortcuts on this many random sums of
  /// 1..4 regions of the set.
  std::uint64_t check = 0;
};

/// The bounded misère classes of Cram regions: two regions of the set are in
/// one class when every misère sum of either with up to `company` further
/// regions of the set has the same outcome. Found by partition refinement:
/// the classes start as one; each test sum T (none, then each region, then
/// each pair, ...) splits every class of two or more by the outcome of
/// R + T; the work stops when every class is a single region. A class of
/// hereditarily tame regions of one genus is not searched against a test of
/// hereditarily tame regions: the tame rule (Winning Ways ch. 13) gives all
/// its members one outcome. The count is
/// a lower bound on the number of elements of the misère quotient (Plambeck
/// and Siegel, "Misère quotients for impartial games", J. Combin. Theory A
/// 115 (2008)) that the regions take: regions the tests separate differ in
/// the quotient, and regions they do not may still differ in a larger sum.
/// `progress` gets a line every few seconds (may be empty). Throws
/// input_error for max_cells outside 1..12 or company outside 0..3.
region_classes_report cram_region_classes(const region_classes_options& opt,
                                          const std::function<void(const std::string&)>& progress = {});

}  // namespace cgtb
