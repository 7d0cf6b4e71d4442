#include "support/tiff_builder.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace gpuhist::test {
namespace {

std::size_t type_size(std::uint16_t type) {
  switch (type) {
    case 1:
      return 1;
    case 3:
      return 2;
    case 4:
      return 4;
    case 16:
      return 8;
    default:
      throw std::invalid_argument("TiffBuilder: a type of BYTE, SHORT, LONG or LONG8");
  }
}

}  // namespace

TiffBuilder::TiffBuilder(bool little, bool big_tiff) : little_(little), big_(big_tiff) {}

TiffBuilder& TiffBuilder::field(std::uint16_t tag, std::uint16_t type,
                                std::vector<std::uint64_t> values) {
  fields_.push_back({tag, type, std::move(values), {}});
  return *this;
}

TiffBuilder& TiffBuilder::offsets(std::uint16_t tag, std::vector<std::size_t> blobs) {
  fields_.push_back({tag, static_cast<std::uint16_t>(big_ ? 16 : 4), {}, std::move(blobs)});
  return *this;
}

std::size_t TiffBuilder::blob(std::string bytes) {
  blobs_.push_back(std::move(bytes));
  return blobs_.size() - 1;
}

std::string TiffBuilder::build() const {
  const std::size_t word = big_ ? 8 : 4, entry = big_ ? 20 : 12, count = big_ ? 8 : 2;
  std::vector<Field> fields = fields_;
  std::stable_sort(fields.begin(), fields.end(),
                   [](const Field& a, const Field& b) { return a.tag < b.tag; });
  const auto values_of = [](const Field& f) {
    return f.blobs.empty() ? f.values.size() : f.blobs.size();
  };
  // Where everything goes: the directory after the header, the values that do
  // not fit their entries after it (each on a word boundary), then the blobs.
  const std::size_t header = big_ ? 16 : 8;
  std::size_t at = header + count + fields.size() * entry + word;
  std::vector<std::size_t> values_at(fields.size(), 0);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::size_t bytes = values_of(fields[i]) * type_size(fields[i].type);
    if (bytes > word) {
      at += at % 2;
      values_at[i] = at;
      at += bytes;
    }
  }
  std::vector<std::size_t> blob_at;
  for (const std::string& b : blobs_) {
    at += at % 2;
    blob_at.push_back(at);
    at += b.size();
  }
  std::string out;
  const auto put = [&](std::uint64_t v, std::size_t bytes) {
    for (std::size_t i = 0; i < bytes; ++i) {
      out += static_cast<char>(v >> (little_ ? 8 * i : 8 * (bytes - 1 - i)));
    }
  };
  const auto pad_to = [&](std::size_t where) { out.resize(std::max(out.size(), where), '\0'); };
  out += little_ ? "II" : "MM";
  put(big_ ? 43 : 42, 2);
  if (big_) {
    put(8, 2);
    put(0, 2);
  }
  put(header, word);
  put(fields.size(), count);
  const auto value = [&](const Field& f, std::size_t k) -> std::uint64_t {
    return f.blobs.empty() ? f.values[k] : blob_at.at(f.blobs[k]);
  };
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const Field& f = fields[i];
    put(f.tag, 2);
    put(f.type, 2);
    put(values_of(f), word);
    const std::size_t size = type_size(f.type);
    if (values_at[i] != 0) {
      put(values_at[i], word);
    } else {
      for (std::size_t k = 0; k < values_of(f); ++k) put(value(f, k), size);
      put(0, word - values_of(f) * size);
    }
  }
  put(0, word);  // no next directory
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (values_at[i] == 0) continue;
    pad_to(values_at[i]);
    for (std::size_t k = 0; k < values_of(fields[i]); ++k) {
      put(value(fields[i], k), type_size(fields[i].type));
    }
  }
  for (std::size_t b = 0; b < blobs_.size(); ++b) {
    pad_to(blob_at[b]);
    out += blobs_[b];
  }
  return out;
}

}  // namespace gpuhist::test
