// TIFF files made by hand for the tests: one directory of the fields given
// (in tag order, as TIFF wants them), each field's values in its entry where
// they fit and after the directory otherwise, then the blobs of data
// (strips, tiles) that offset fields point at. Classic or BigTIFF, either
// byte order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpuhist::test {

class TiffBuilder {
 public:
  explicit TiffBuilder(bool little = true, bool big_tiff = false);

  // A field of `values`, of TIFF type `type` (1 BYTE, 3 SHORT, 4 LONG, 16 LONG8).
  TiffBuilder& field(std::uint16_t tag, std::uint16_t type, std::vector<std::uint64_t> values);
  // A field of the offsets of `blobs` (as blob() numbers them): LONG, or
  // LONG8 in a BigTIFF.
  TiffBuilder& offsets(std::uint16_t tag, std::vector<std::size_t> blobs);
  // `bytes` placed after the directory and its values; its number for offsets().
  std::size_t blob(std::string bytes);

  [[nodiscard]] std::string build() const;

 private:
  struct Field {
    std::uint16_t tag = 0;
    std::uint16_t type = 0;
    std::vector<std::uint64_t> values;
    std::vector<std::size_t> blobs;  // an offsets field's, in place of values
  };
  bool little_;
  bool big_;
  std::vector<Field> fields_;
  std::vector<std::string> blobs_;
};

}  // namespace gpuhist::test
