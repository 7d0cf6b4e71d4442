// Output formats of `gpuhist compute`: a readable table, JSON, CSV and NumPy
// .npy. Writers stream: each entry is written as soon as it is computed, so a
// batch that fails part-way keeps everything before the failure.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gpuhist/histogram.hpp"
#include "gpuhist/image_view.hpp"
#include "gpuhist/strategy.hpp"
#include "report_fields.hpp"

namespace gpuhist::cli {

// The histograms of one file, or (with `files` set) the total over several.
struct Entry {
  std::string file;         // the path as given, or "(total)"
  std::uint32_t width = 0;  // 0 for a total
  std::uint32_t height = 0;
  std::optional<PixelFormat> format;  // absent for a total
  bool alpha = false;                 // the file has alpha, which is never counted
  std::optional<std::size_t> files;   // number of files summed, for a total
  Strategy strategy = Strategy::Cpu;
  Histogram histogram;
  std::string warning;             // the decoder's warning of possible damage, or empty
  std::vector<std::string> notes;  // reading_notes() of the image
};

enum class OutputFormat { Table, Json, Csv, Npy };

class Writer {
 public:
  Writer() = default;
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  Writer(Writer&&) = delete;
  Writer& operator=(Writer&&) = delete;
  virtual ~Writer() = default;
  // `many`: the output holds several entries (an array in JSON and NPY).
  virtual void begin(bool many) = 0;
  virtual void write(const Entry& entry) = 0;
  // A file that could not be read, in its place among the entries: NPY
  // writes it zero counts, so that each entry stays at its file's index;
  // the others name their files and leave it out.
  virtual void unread(const std::string& file) { (void)file; }
  virtual void end() = 0;
};

// A writer of that format on `out`, which must outlive it, as must `fields`.
// Table and JSON write the statistics and comparisons of `fields`; CSV and NPY
// write counts only, of `bins` bins (an NPY array of no entries keeps its N).
[[nodiscard]] std::unique_ptr<Writer> make_writer(OutputFormat format, std::ostream& out,
                                                  const ReportFields& fields, std::uint32_t bins);

}  // namespace gpuhist::cli
