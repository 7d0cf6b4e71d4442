#include "writers.hpp"

#include <array>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "entry_json.hpp"
#include "messages.hpp"

namespace gpuhist::cli {
namespace {

// Per file: a header line, one row of statistics per channel, then (with a
// reference) one row of comparison metrics per channel.
class TableWriter final : public Writer {
 public:
  TableWriter(std::ostream& out, const ReportFields& fields) : out_(out), fields_(fields) {}
  void begin(bool) override {}
  void write(const Entry& entry) override {
    if (!first_) out_ << '\n';
    first_ = false;
    // A name's line breaks and control characters written escaped, as in messages: one line.
    out_ << one_line(entry.file);
    if (entry.files) {
      out_ << "  total of " << *entry.files << " files";
    } else {
      out_ << "  " << entry.width << 'x' << entry.height << "  "
           << file_format_name(*entry.format, entry.alpha);
      if (entry.alpha) out_ << " (alpha not counted)";
    }
    out_ << "  " << entry.histogram.bins() << " bins  strategy " << to_string(entry.strategy)
         << '\n';
    bool header = true;
    for (Channel channel : entry.histogram.channels()) {
      const auto stats = stats_json(entry.histogram.counts(channel), fields_.percentiles);
      if (std::exchange(header, false)) out_ << names(stats, 11);
      out_ << values(channel, stats, 11);
    }
    if (fields_.reference != nullptr) {
      out_ << "compared with " << one_line(fields_.reference_file) << '\n';
      header = true;
      const auto comparison = comparison_json(entry.histogram, fields_);
      for (const auto& [name, metrics] : comparison.items()) {
        if (!metrics.is_object()) continue;  // the reference's name
        if (std::exchange(header, false)) out_ << names(metrics, 14);
        out_ << metric_values(name, metrics, 14);
      }
    }
    out_.flush();
  }
  void end() override {}

 private:
  static std::string names(const nlohmann::ordered_json& object, int width) {
    std::string text = pad("channel", -10);
    for (const auto& item : object.items()) text += ' ' + pad(item.key(), width);
    return text + '\n';
  }
  // Fractions of pixels as percentages, other reals with three decimals.
  static std::string values(Channel channel, const nlohmann::ordered_json& stats, int width) {
    std::string text = pad(std::string(to_string(channel)), -10);
    for (const auto& item : stats.items()) {
      std::string cell;
      if (item.value().is_null()) {
        cell = "-";  // nothing counted
      } else if (item.key() == "shadows" || item.key() == "highlights") {
        cell = fixed(100.0 * item.value().get<double>(), 3) + '%';
      } else if (item.value().is_number_float()) {
        cell = fixed(item.value().get<double>(), 3);
      } else {
        cell = json_text(item.value());
      }
      text += ' ' + pad(cell, width);
    }
    return text + '\n';
  }
  static std::string metric_values(const std::string& channel,
                                   const nlohmann::ordered_json& metrics, int width) {
    std::string text = pad(channel, -10);
    for (const auto& item : metrics.items()) {
      text += ' ' + pad(item.value().is_null() ? "-" : fixed(item.value().get<double>(), 6), width);
    }
    return text + '\n';
  }
  static std::string fixed(double value, int decimals) {
    std::array<char, 48> text{};
    std::snprintf(text.data(), text.size(), "%.*f", decimals, value);
    return text.data();
  }
  // Right-aligned in `width` characters, or left-aligned in -width.
  static std::string pad(const std::string& text, int width) {
    const auto size = static_cast<std::size_t>(width < 0 ? -width : width);
    if (text.size() >= size) return text;
    const std::string fill(size - text.size(), ' ');
    return width < 0 ? text + fill : fill + text;
  }
  std::ostream& out_;
  const ReportFields& fields_;
  bool first_ = true;
};

// One object for a single entry, an array for several.
class JsonWriter final : public Writer {
 public:
  JsonWriter(std::ostream& out, const ReportFields& fields) : out_(out), fields_(fields) {}
  void begin(bool many) override {
    many_ = many;
    if (many_) out_ << "[\n";
  }
  void write(const Entry& entry) override {
    if (many_ && count_ > 0) out_ << ",\n";
    out_ << json_text(entry_json(entry, fields_));
    if (!many_) out_ << '\n';
    ++count_;
    out_.flush();
  }
  void end() override {
    if (many_) out_ << (count_ > 0 ? "\n]\n" : "]\n");
  }

 private:
  std::ostream& out_;
  const ReportFields& fields_;
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
  // RFC 4180: a field holding a comma, a quote or a line break (\n or \r)
  // quoted; names in UTF-8, as in the JSON output.
  static std::string quote(const std::string& name) {
    const std::string text = valid_utf8(name);
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
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
// grey images and zero rows for a file not read. Written at the end, once the
// shape is known.
class NpyWriter final : public Writer {
 public:
  NpyWriter(std::ostream& out, std::uint32_t bins) : out_(out), bins_(bins) {}
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
  void unread(const std::string&) override {
    data_.insert(data_.end(), std::size_t{4} * bins_, 0);
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
  std::uint32_t bins_;
  std::vector<std::uint64_t> data_;
};

}  // namespace

std::unique_ptr<Writer> make_writer(OutputFormat format, std::ostream& out,
                                    const ReportFields& fields, std::uint32_t bins) {
  switch (format) {
    case OutputFormat::Table:
      return std::make_unique<TableWriter>(out, fields);
    case OutputFormat::Json:
      return std::make_unique<JsonWriter>(out, fields);
    case OutputFormat::Csv:
      return std::make_unique<CsvWriter>(out);
    case OutputFormat::Npy:
      return std::make_unique<NpyWriter>(out, bins);
  }
  return std::make_unique<TableWriter>(out, fields);
}

}  // namespace gpuhist::cli
