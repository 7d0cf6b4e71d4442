// ICC profiles the image library must not parse. OpenImageIO 2.4 reads the
// profile a TIFF or PNG file embeds (decode_icc_profile) trusting its tag
// table: a tag whose offset and size wrap past 2^32, a text tag shorter than
// its own header, or a localized string placed past the profile make it read
// outside the profile (a crafted TIFF crashed it). These functions find such
// a profile from the file's own framing, before the library sees the file,
// and rename it out of the library's sight in a copy of the file's bytes.
// TIFF and PNG are the common formats whose profiles the library parses in
// this process (JPEG's metadata never reaches it); PSD and JPEG 2000, which
// it parses too, are read only with --formats all, in a process of their own.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace gpuhist::images {

// Whether OpenImageIO 2.4 reads `profile` within its bounds: a profile it
// rejects at its header, or one whose every tag lies within it, is sound.
[[nodiscard]] bool icc_profile_is_sound(std::span<const unsigned char> profile);

// Where the file at `path` (`format`: "tiff" or "png") embeds a profile that
// is not sound: the offsets of the TIFF directory entries or PNG chunks that
// hold one, read from the file's framing alone. Empty for any other format
// and for a file whose framing cannot be followed (the library then fails on
// it, or finds no profile either).
[[nodiscard]] std::vector<std::uint64_t> unsound_icc_profiles(const std::filesystem::path& path,
                                                              const std::string& format);

// `bytes`, the whole file, with the profiles at `where` (as found above)
// renamed: a TIFF entry to a private tag, a PNG chunk to a private chunk
// type (its CRC made anew). Every other byte is kept.
void hide_icc_profiles(std::vector<unsigned char>& bytes, const std::vector<std::uint64_t>& where,
                       const std::string& format);

}  // namespace gpuhist::images
