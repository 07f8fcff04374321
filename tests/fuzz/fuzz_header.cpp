// Fuzz target: the tablebase header parser, tablebase_header::from_text, fed
// the whole input as header text (bounded to 1 MiB, the format's limit).
// Only input_error may come out; on success, to_text of the header must parse
// back to a header with the same to_text (the canonical text round-trips),
// and every parsed header must respect the documented limits (1..64 fields,
// block-entries 1 .. 2^24).
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (std::size_t{1} << 20)) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  cgtb::tablebase_header h;
  if (!cgtb_fuzz::expected_errors("from_text", [&] { h = cgtb::tablebase_header::from_text(text); })) return 0;
  if (h.fields.empty() || h.fields.size() > cgtb::kMaxFields || h.block_entries == 0 || h.block_entries > (1u << 24))
    cgtb_fuzz::finding("from_text accepted a header outside the documented limits");
  const std::string canon = h.to_text();
  cgtb::tablebase_header h2;
  try {
    h2 = cgtb::tablebase_header::from_text(canon);
  } catch (const std::exception& e) {
    cgtb_fuzz::finding("from_text refused the canonical text of a header it accepted: " + std::string(e.what()) + "\n" +
                       cgtb_fuzz::shown(canon));
  }
  if (h2.to_text() != canon)
    cgtb_fuzz::finding("header text does not round-trip:\n" + cgtb_fuzz::shown(canon) + "\nthen\n" +
                       cgtb_fuzz::shown(h2.to_text()));
  return 0;
}
