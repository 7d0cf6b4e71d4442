#include "writers.hpp"

#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "entry_json.hpp"
#include "gpuhist/statistics.hpp"

namespace gpuhist::cli {
namespace {

// Per file: a header line, then one row of statistics per channel.
class TableWriter final : public Writer {
 public:
  explicit TableWriter(std::ostream& out) : out_(out) {}
  void begin(bool) override {}
  void write(const Entry& entry) override {
    if (!first_) out_ << '\n';
    first_ = false;
    out_ << entry.file;
    if (entry.files) {
      out_ << "  total of " << *entry.files << " files";
    } else {
      out_ << "  " << entry.width << 'x' << entry.height << "  " << to_string(*entry.format);
    }
    out_ << "  " << entry.histogram.bins() << " bins  strategy " << to_string(entry.strategy)
         << '\n';
    out_ << line("channel", "count", "min", "max", "mean", "stddev", "median", "p1", "p99");
    for (Channel channel : entry.histogram.channels()) {
      const ChannelStats s = statistics(entry.histogram.counts(channel));
      out_ << line(std::string(to_string(channel)), std::to_string(s.count), std::to_string(s.min),
                   std::to_string(s.max), fixed(s.mean), fixed(s.stddev), std::to_string(s.median),
                   std::to_string(s.p1), std::to_string(s.p99));
    }
    out_.flush();
  }
  void end() override {}

 private:
  static std::string fixed(double value) {
    std::array<char, 32> text{};
    std::snprintf(text.data(), text.size(), "%.3f", value);
    return text.data();
  }
  template <typename... Cells>
  static std::string line(const std::string& name, const Cells&... cells) {
    std::array<char, 16> first{};
    std::snprintf(first.data(), first.size(), "%-10s", name.c_str());
    std::string text = first.data();
    for (const std::string& cell : {std::string(cells)...}) {
      std::array<char, 32> padded{};
      std::snprintf(padded.data(), padded.size(), " %11s", cell.c_str());
      text += padded.data();
    }
    return text + '\n';
  }
  std::ostream& out_;
  bool first_ = true;
};

// One object for a single entry, an array for several.
class JsonWriter final : public Writer {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}
  void begin(bool many) override {
    many_ = many;
    if (many_) out_ << "[\n";
  }
  void write(const Entry& entry) override {
    if (many_ && count_ > 0) out_ << ",\n";
    out_ << entry_json(entry).dump();
    if (!many_) out_ << '\n';
    ++count_;
    out_.flush();
  }
  void end() override {
    if (many_) out_ << (count_ > 0 ? "\n]\n" : "]\n");
  }

 private:
  std::ostream& out_;
  bool many_ = false;
  std::size_t count_ = 0;
};

// file,bin,red,green,blue,luminance — one row per bin; grey files leave R, G, B empty.
class CsvWriter final : public Writer {
 public:
  explicit CsvWriter(std::ostream& out) : out_(out) {}
  void begin(bool) override { out_ << "file,bin,red,green,blue,luminance\n"; }
  void write(const Entry& entry) override {
    const std::string file = quote(entry.file);
    const Histogram& h = entry.histogram;
    for (std::uint32_t bin = 0; bin < h.bins(); ++bin) {
      out_ << file << ',' << bin;
      for (Channel channel : kAllChannels) {
        out_ << ',';
        if (h.has(channel)) out_ << h.counts(channel)[bin];
      }
      out_ << '\n';
    }
    out_.flush();
  }
  void end() override {}

 private:
  static std::string quote(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) {
      if (c == '"') out += '"';
      out += c;
    }
    return out + '"';
  }
  std::ostream& out_;
};

// NumPy .npy, little-endian uint64: shape (4, bins) for one entry, (entries,
// 4, bins) for several; channel rows R, G, B, L, with zero R, G, B rows for
// grey images. Written at the end, once the shape is known.
class NpyWriter final : public Writer {
 public:
  explicit NpyWriter(std::ostream& out) : out_(out) {}
  void begin(bool many) override { many_ = many; }
  void write(const Entry& entry) override {
    bins_ = entry.histogram.bins();
    for (Channel channel : kAllChannels) {
      if (entry.histogram.has(channel)) {
        const auto counts = entry.histogram.counts(channel);
        data_.insert(data_.end(), counts.begin(), counts.end());
      } else {
        data_.insert(data_.end(), bins_, 0);
      }
    }
    ++count_;
  }
  void end() override {
    if (count_ == 0 && !many_) return;
    std::string shape = "(";
    if (many_) shape.append(std::to_string(count_)).append(", ");
    shape.append("4, ").append(std::to_string(bins_)).append(")");
    std::string header = "{'descr': '<u8', 'fortran_order': False, 'shape': " + shape + ", }";
    // Magic (6) + version (2) + length (2) + header + '\n', padded to a multiple of 64.
    const std::size_t unpadded = 10 + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header += '\n';
    out_.write("\x93NUMPY\x01\x00", 8);
    const auto length = static_cast<std::uint16_t>(header.size());
    const std::array<char, 2> le = {static_cast<char>(length & 0xFF),
                                    static_cast<char>(length >> 8)};
    out_.write(le.data(), 2);
    out_ << header;
    for (std::uint64_t value : data_) {
      std::array<char, 8> bytes{};
      for (std::size_t i = 0; i < 8; ++i) bytes[i] = static_cast<char>((value >> (8 * i)) & 0xFF);
      out_.write(bytes.data(), 8);
    }
    out_.flush();
  }

 private:
  std::ostream& out_;
  bool many_ = false;
  std::size_t count_ = 0;
  std::uint32_t bins_ = 0;
  std::vector<std::uint64_t> data_;
};

}  // namespace

std::unique_ptr<Writer> make_writer(OutputFormat format, std::ostream& out) {
  switch (format) {
    case OutputFormat::Table:
      return std::make_unique<TableWriter>(out);
    case OutputFormat::Json:
      return std::make_unique<JsonWriter>(out);
    case OutputFormat::Csv:
      return std::make_unique<CsvWriter>(out);
    case OutputFormat::Npy:
      return std::make_unique<NpyWriter>(out);
  }
  return std::make_unique<TableWriter>(out);
}

}  // namespace gpuhist::cli
