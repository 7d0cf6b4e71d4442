#include "gpuhist/video_writer.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

#include "gpuhist/error.hpp"
#include "gpuhist/output_file.hpp"
#include "io/av_error.hpp"
#include "io/file_url.hpp"
#include "io/picked_stream.hpp"
#include "io/video_colour.hpp"

namespace gpuhist {
namespace {

using io::av_message;

// Whether `path` names a pipe or a socket (a FIFO, /dev/stdout of a command
// piped on), which a file cannot be written back into.
bool is_pipe(const std::filesystem::path& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && (S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode));
}

struct CodecSpec {
  const char* name;     // as --codec takes it
  const char* encoder;  // FFmpeg's encoder
  const char* label;    // in messages
  int min_crf;          // SVT-AV1 reads a crf of 0 as none set
  int max_crf;          // 0: no crf
  bool named_presets;   // x264's preset names
  bool numbered_presets;
};

constexpr CodecSpec kCodecs[] = {
    {"h264", "libx264", "H.264", 0, 51, true, false},
    {"hevc", "libx265", "HEVC", 0, 51, true, false},
    {"vp9", "libvpx-vp9", "VP9", 0, 63, false, false},
    {"av1", "libsvtav1", "AV1", 1, 63, false, true},
    {"mpeg4", "mpeg4", "MPEG-4", 0, 0, false, false},
};

// The narrowest frame libx265 encodes without writing out of bounds, and the
// lowest it takes at all.
constexpr std::uint32_t kNarrowestHevc = 50;
constexpr std::uint32_t kLowestHevc = 16;

constexpr const char* kPresets[] = {"ultrafast", "superfast", "veryfast", "faster", "fast",
                                    "medium",    "slow",      "slower",   "veryslow", "placebo"};

const CodecSpec& codec_spec(const std::string& name) {
  const std::string wanted = name.empty() ? "h264" : name == "h265" ? "hevc" : name;
  for (const CodecSpec& spec : kCodecs) {
    if (wanted == spec.name) return spec;
  }
  throw Error(ErrorKind::InvalidArgument,
              "unknown video codec '" + name + "' (h264, hevc, vp9, av1, mpeg4)");
}

}  // namespace

bool names_video_container(const std::filesystem::path& path) {
  if (!path.has_extension()) return false;
  const AVOutputFormat* container = av_guess_format(nullptr, path.c_str(), nullptr);
  return container != nullptr && container->video_codec != AV_CODEC_ID_NONE &&
         std::string_view(container->name) != "image2";
}

namespace {

// SVT-AV1's presets in the low-delay mode frames are coded in here (in
// order): it codes presets 0 to 7 as 8, and says so only in its log.
constexpr int kFastestAv1Preset = 13;
constexpr int kSlowestLowDelayAv1Preset = 8;

// Zeroes a frame's buffers, padding and all: libswscale reads past a narrow
// frame's last column (its vector loops), and the encoders past the rows it
// writes, so that those bytes are never left uninitialised.
void zero_buffers(AVFrame& frame) {
  for (AVBufferRef* buffer : frame.buf) {
    if (buffer != nullptr) std::memset(buffer->data, 0, buffer->size);
  }
}

bool numbered_preset(const std::string& preset) {
  if (preset.empty() || preset.size() > 2) return false;
  for (const char c : preset) {
    if (c < '0' || c > '9') return false;
  }
  const int n = std::stoi(preset);
  return n >= kSlowestLowDelayAv1Preset && n <= kFastestAv1Preset;
}

// The refusal of a container that does not hold `codec` video (with `audio`
// audio, when that is copied too and may be what it refused).
// Whether `container` says it holds `codec` and writes it in its MP4 form
// alone: MOV and its kin (3GP, PSP, ISMV, F4V, iPod) with VP9 and AV1.
bool mp4_form_only(const AVOutputFormat& container, AVCodecID codec) {
  const std::string_view name = container.name;
  const bool mov_family = name == "mov" || name == "psp" || name == "3gp" || name == "3g2" ||
                          name == "ipod" || name == "ismv" || name == "f4v";
  return mov_family && (codec == AV_CODEC_ID_VP9 || codec == AV_CODEC_ID_AV1);
}

std::string cannot_hold(const std::filesystem::path& path, AVCodecID codec,
                        AVCodecID audio = AV_CODEC_ID_NONE) {
  const std::string extension = path.extension().string();
  // The containers that hold the codec, but this one.
  std::string others;
  for (const char* name : {".mp4", ".mkv", ".mov", ".avi", ".webm"}) {
    const AVOutputFormat* other =
        av_guess_format(nullptr, (std::string("x") + name).c_str(), nullptr);
    if (name == extension || other == nullptr || mp4_form_only(*other, codec) ||
        avformat_query_codec(other, codec, FF_COMPLIANCE_NORMAL) != 1) {
      continue;
    }
    others += (others.empty() ? "" : ", ") + std::string(name);
  }
  const std::size_t last = others.rfind(", ");
  if (last != std::string::npos) others.replace(last, 2, " or ");
  std::string hint = others.empty() ? "use another codec" : "use " + others;
  if (extension == ".webm") hint = "use the vp9 or av1 codec, or .mp4, .mkv, .mov or .avi";
  const std::string with =
      audio == AV_CODEC_ID_NONE ? "" : std::string(" with ") + avcodec_get_name(audio) + " audio";
  return path.string() + ": the '" + extension + "' container does not hold " +
         avcodec_get_name(codec) + " video" + with + " (" + hint + ")";
}

// Whether `container` writes a header for `video` (in ticks of `time_base`)
// with `audio` copied too where given: tried on a file in memory, since some
// muxers say they hold a codec they then refuse (FLAC in MP4, an experimental
// feature; Opus in MOV), and some refuse a frame rate (MXF).
bool writes_header(const AVOutputFormat* container, const AVStream& video,
                   const AVStream* audio,  // the source's stream
                   AVRational time_base) {
  AVFormatContext* trial = nullptr;
  if (avformat_alloc_output_context2(&trial, container, nullptr, nullptr) < 0) return false;
  bool wrote = false;
  AVStream* v = avformat_new_stream(trial, nullptr);
  AVStream* a = audio != nullptr ? avformat_new_stream(trial, nullptr) : nullptr;
  if (v != nullptr && (audio == nullptr || a != nullptr) &&
      avcodec_parameters_copy(v->codecpar, video.codecpar) >= 0 &&
      (a == nullptr || avcodec_parameters_copy(a->codecpar, audio->codecpar) >= 0) &&
      avio_open_dyn_buf(&trial->pb) >= 0) {
    v->time_base = time_base;
    v->avg_frame_rate = av_inv_q(time_base);
    v->sample_aspect_ratio = video.sample_aspect_ratio;
    if (a != nullptr) {
      a->codecpar->codec_tag = 0;
      a->time_base = audio->time_base;
    }
    wrote = avformat_write_header(trial, nullptr) >= 0;
    std::uint8_t* bytes = nullptr;
    (void)avio_close_dyn_buf(trial->pb, &bytes);
    av_free(bytes);
    trial->pb = nullptr;
  }
  avformat_free_context(trial);
  return wrote;
}

}  // namespace

void validate(const VideoEncoding& encoding) {
  const CodecSpec& spec = codec_spec(encoding.codec);
  if (encoding.crf) {
    if (spec.max_crf == 0) {
      throw Error(ErrorKind::InvalidArgument,
                  std::string("a CRF is not taken by the ") + spec.label + " encoder");
    }
    if (*encoding.crf < spec.min_crf || *encoding.crf > spec.max_crf) {
      throw Error(ErrorKind::InvalidArgument, "CRF " + std::to_string(*encoding.crf) +
                                                  " is out of " + spec.label + "'s range " +
                                                  std::to_string(spec.min_crf) + ".." +
                                                  std::to_string(spec.max_crf));
    }
  }
  if (!encoding.preset.empty()) {
    bool known = false;
    if (spec.named_presets) {
      for (const char* preset : kPresets) known = known || encoding.preset == preset;
    }
    if (spec.numbered_presets) known = numbered_preset(encoding.preset);
    if (!known) {
      throw Error(
          ErrorKind::InvalidArgument,
          "unknown preset '" + encoding.preset + "' for " + spec.label +
              (spec.named_presets      ? std::string(" (ultrafast, superfast, veryfast, faster, "
                                                          "fast, medium, slow, slower, veryslow, "
                                                          "placebo)")
               : spec.numbered_presets ? std::string(" (8..13: AV1 is coded with frames in order, "
                                                     "where the encoder takes no slower preset)")
                                       : std::string(", which takes none")));
    }
  }
  // Without libx264 a video asked for nothing in particular is MPEG-4; one
  // asked for a crf or a preset is refused rather than encoded without them.
  if (avcodec_find_encoder_by_name(spec.encoder) == nullptr &&
      !(encoding.codec.empty() && !encoding.crf && encoding.preset.empty() &&
        avcodec_find_encoder(AV_CODEC_ID_MPEG4) != nullptr)) {
    throw Error(ErrorKind::InvalidArgument, std::string("this FFmpeg has no ") + spec.label +
                                                " encoder (" + spec.encoder + ")");
  }
}

struct VideoWriter::Impl {
  std::filesystem::path path;
  // The file written: complete (committed by finish) or removed.
  std::optional<OutputFile> file;
  AVFormatContext* format = nullptr;
  AVCodecContext* codec = nullptr;
  AVStream* stream = nullptr;
  AVFrame* frame = nullptr;
  // The picture copied into rows aligned and padded as libswscale reads them.
  AVFrame* rgba = nullptr;
  AVPacket* packet = nullptr;
  SwsContext* scaler = nullptr;
  // Two clocks: the encoder counts frames of the frame rate (its time base,
  // which it declares as the stream's rate), the container keeps each frame's
  // time in its own finer ticks (a millisecond in Matroska, 1/90000 s in
  // MPEG-TS), so that a variable-rate source keeps its timing there.
  std::int64_t last_pts = -1;                 // the encoder's, in frames
  std::int64_t last_stream_pts = -1;          // the container's
  // The container counts time in frames of the frame rate (AVI, MXF, IVF, a
  // raw stream): a frame whose time falls on the last frame's tick is left
  // out, as the ffmpeg command line leaves it out, so those after it keep
  // their times.
  bool frame_ticks = false;
  std::int64_t left_out = 0;
  std::map<std::int64_t, double> seconds_at;  // each frame sent: its time, by encoder pts
  // Added to the source's times from where its clock started again (write(frame, seconds)).
  double clock_shift = 0.0;
  double last_seconds = -1.0;  // the last frame's time as written; -1 before the first
  // Audio copied from the source: its demuxer, stream index there, and stream here.
  AVFormatContext* audio_in = nullptr;
  int audio_index = -1;
  AVStream* audio_out = nullptr;
  bool audio_done = true;
  bool audio_from_zero = false;  // audio before the start is left out (see copy_audio)
  std::string audio_note;  // why the source's audio is not copied, if it is not
  std::string colour_note;  // that the colour description is not written, where it is not
  bool header_written = false;
  bool finished = false;
  bool frame_sent = false;  // the encoder took a frame
  // Added to the source's audio times from where its clock started again (copy_audio),
  // and the end of the last audio packet written, in the source's time base.
  std::int64_t audio_shift = 0;
  std::int64_t audio_end = AV_NOPTS_VALUE;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  Impl(Impl&&) = delete;
  Impl& operator=(Impl&&) = delete;

  [[noreturn]] void fail(const std::string& cause) const {
    throw Error(ErrorKind::Output, path.string() + ": cannot write video: " + cause);
  }
  void check(int code, const char* what) const {
    if (code < 0) fail(std::string(what) + ": " + av_message(code));
  }
  // Sends a frame (or nullptr to flush) and writes every packet that comes out.
  void encode(AVFrame* f) {
    check(avcodec_send_frame(codec, f), "encoding");
    frame_sent = frame_sent || f != nullptr;
    for (;;) {
      const int got = avcodec_receive_packet(codec, packet);
      if (got == AVERROR(EAGAIN) || got == AVERROR_EOF) return;
      check(got, "encoding");
      // Each frame lasts a frame of the frame rate, the last one included.
      if (packet->duration == 0) packet->duration = 1;
      const auto at = seconds_at.find(packet->pts);
      const std::int64_t shift = packet->pts - packet->dts;
      av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
      if (at != seconds_at.end()) {
        // At the frame's own time in the container's ticks, after the one before.
        const double ticks = at->second / av_q2d(stream->time_base);
        std::int64_t pts = last_stream_pts + 1;
        if (std::isfinite(ticks) && std::fabs(ticks) < 9.0e15) {
          pts = std::max<std::int64_t>(pts, std::llround(ticks));
        }
        // Encoders here emit frames in order (no B-frames): decoding time = shown time.
        packet->dts = shift == 0 ? pts : packet->dts + (pts - packet->pts);
        packet->pts = pts;
        last_stream_pts = pts;
        seconds_at.erase(seconds_at.begin(), std::next(at));
      }
      packet->stream_index = stream->index;
      check(av_interleaved_write_frame(format, packet), "writing");
    }
  }
  // Opens the audio stream of `from` that ffmpeg would copy, where the container
  // takes its codec; otherwise says in `audio_note` why it is not copied.
  // `video_held`: the container says it holds the video (whose stream is set
  // up), so a header with the audio too is tried first; where the muxer would
  // not say, its refusal of the real header names both.
  void open_audio(const std::filesystem::path& from, const std::string& extension,
                  bool video_held) {
    std::error_code ec;
    if (from.empty()) return;
    // A pipe is read once, by the video's reader: opened again, it would
    // take the bytes that reader has not read yet.
    if (!std::filesystem::is_regular_file(from, ec)) {
      audio_note = "audio not copied: the input is not a regular file";
      return;
    }
    if (io::open_file_input(&audio_in, from) != 0 ||
        avformat_find_stream_info(audio_in, nullptr) < 0) {
      avformat_close_input(&audio_in);
      return;
    }
    // The audio stream the ffmpeg command line picks (io/picked_stream.hpp).
    const int index = io::picked_stream(*audio_in, AVMEDIA_TYPE_AUDIO);
    if (index < 0) return;
    const AVCodecID id = audio_in->streams[index]->codecpar->codec_id;
    // 1: the container takes the codec; a negative answer: the muxer does not
    // say, as MPEG-TS's does not for anything but MPEG audio, though players
    // read AAC, AC-3, E-AC-3, Opus and DTS from it (others it would carry as
    // private data, which they skip).
    const int takes = avformat_query_codec(format->oformat, id, FF_COMPLIANCE_NORMAL);
    const bool ts_audio =
        std::strcmp(format->oformat->name, "mpegts") == 0 &&
        (id == AV_CODEC_ID_AAC || id == AV_CODEC_ID_AC3 || id == AV_CODEC_ID_EAC3 ||
         id == AV_CODEC_ID_OPUS || id == AV_CODEC_ID_DTS || id == AV_CODEC_ID_MP3);
    if ((takes == 1 || (takes < 0 && ts_audio)) &&
        (!video_held ||
         writes_header(format->oformat, *stream, audio_in->streams[index], stream->time_base))) {
      audio_index = index;
      return;
    }
    audio_note = std::string("audio (") + avcodec_get_name(id) + ") not copied: the '" + extension +
                 "' container does not hold it";
  }
  // Writes the source's audio packets up to `seconds` (all of them for infinity).
  void copy_audio(double seconds) {
    while (!audio_done) {
      const int read = av_read_frame(audio_in, packet);
      if (read < 0) {
        audio_done = true;
        return;
      }
      if (packet->stream_index != audio_index) {
        av_packet_unref(packet);
        continue;
      }
      const AVRational in_base = audio_in->streams[audio_index]->time_base;
      // From the file's start, as the frames are.
      if (audio_in->start_time != AV_NOPTS_VALUE) {
        const std::int64_t start = av_rescale_q(audio_in->start_time, AV_TIME_BASE_Q, in_base);
        if (packet->pts != AV_NOPTS_VALUE) packet->pts -= start;
        if (packet->dts != AV_NOPTS_VALUE) packet->dts -= start;
      }
      // The source's clock started again (a step back of more than a quarter of a
      // second), as write(frame, seconds) takes it for the frames: on from the end
      // of the last packet.
      if (packet->pts != AV_NOPTS_VALUE) {
        const std::int64_t quarter = av_rescale_q(1, AVRational{1, 4}, in_base);
        if (audio_end != AV_NOPTS_VALUE && packet->pts + audio_shift < audio_end - quarter) {
          audio_shift = audio_end - packet->pts;
        }
        packet->pts += audio_shift;
        if (packet->dts != AV_NOPTS_VALUE) packet->dts += audio_shift;
        audio_end = packet->pts + std::max<std::int64_t>(packet->duration, 0);
      }
      // What comes before the start (an AAC encoder's priming packet) moves
      // every stream of a container that cannot start before zero later by its
      // length; one that counts video time in frames (AVI) rounds that up to a
      // whole frame, so there it is left out.
      if (audio_from_zero && packet->pts != AV_NOPTS_VALUE && packet->pts < 0) {
        av_packet_unref(packet);
        continue;
      }
      const double at =
          packet->pts == AV_NOPTS_VALUE ? 0.0 : static_cast<double>(packet->pts) * av_q2d(in_base);
      av_packet_rescale_ts(packet, in_base, audio_out->time_base);
      packet->stream_index = audio_out->index;
      packet->pos = -1;
      check(av_interleaved_write_frame(format, packet), "writing audio");
      if (at > seconds) return;
    }
  }
  // Ends an SVT-AV1 encoder given up on (a header the container refused, a
  // full disk): its close waits for ever for the end of a stream it was not
  // sent, and its end waits for ever for a stream of no frame, so it is given
  // one blank frame (4:2:0), then the end; its packets are dropped. (Other
  // encoders close as they are: draining x264's or libvpx's lookahead after an
  // error would take seconds for nothing.)
  void end_abandoned_svt() {
    if (finished || codec == nullptr || packet == nullptr || avcodec_is_open(codec) == 0 ||
        std::string_view(codec->codec->name) != "libsvtav1") {
      return;
    }
    AVFrame* blank = frame_sent ? nullptr : av_frame_alloc();
    if (blank != nullptr) {
      blank->format = codec->pix_fmt;
      blank->width = codec->width;
      blank->height = codec->height;
      blank->pts = 0;
      if (av_frame_get_buffer(blank, 0) >= 0) {
        for (int p = 0; p < 3 && blank->data[p] != nullptr; ++p) {
          const int rows = p == 0 ? codec->height : (codec->height + 1) / 2;
          std::memset(
              blank->data[p], p == 0 ? 16 : 128,
              static_cast<std::size_t>(blank->linesize[p]) * static_cast<std::size_t>(rows));
        }
        (void)avcodec_send_frame(codec, blank);
      }
      av_frame_free(&blank);
    }
    if (avcodec_send_frame(codec, nullptr) >= 0) {
      while (avcodec_receive_packet(codec, packet) >= 0) av_packet_unref(packet);
    }
  }
  ~Impl() {
    end_abandoned_svt();
    avformat_close_input(&audio_in);
    sws_freeContext(scaler);
    av_packet_free(&packet);
    av_frame_free(&frame);
    av_frame_free(&rgba);
    avcodec_free_context(&codec);
    if (format != nullptr) {
      if (format->pb != nullptr) avio_closep(&format->pb);
      avformat_free_context(format);
    }
  }
};

VideoWriter::VideoWriter(const std::filesystem::path& path, std::uint32_t width,
                         std::uint32_t height, double frame_rate,
                         const std::filesystem::path& audio_from,
                         const VideoEncoding& encoding)
    : impl_(std::make_unique<Impl>()) {
  validate(encoding);
  Impl& s = *impl_;
  s.path = path;
  if (width == 0 || height == 0 || width % 2 != 0 || height % 2 != 0) {
    s.fail("frame size must be even, got " + std::to_string(width) + "x" + std::to_string(height));
  }
  const std::string extension = path.extension().string();
  if (avformat_alloc_output_context2(&s.format, nullptr, nullptr, path.c_str()) < 0 ||
      (s.format->oformat->flags & AVFMT_NOFILE) != 0) {
    throw Error(ErrorKind::InvalidArgument,
                path.string() + ": no video container is written for " +
                    (extension.empty() ? std::string("names without an extension")
                                       : "'" + extension + "' files") +
                    " (use .mp4, .mkv, .mov or .avi)");
  }
  const CodecSpec& spec = codec_spec(encoding.codec);
  const AVCodec* encoder = avcodec_find_encoder_by_name(spec.encoder);
  if (encoder == nullptr && encoding.codec.empty()) encoder = avcodec_find_encoder(AV_CODEC_ID_MPEG4);
  if (encoder == nullptr) s.fail(std::string("no ") + spec.label + " encoder");
  // 0: the container cannot hold it; a negative answer: the muxer does not say.
  const int takes_video =
      avformat_query_codec(s.format->oformat, encoder->id, FF_COMPLIANCE_NORMAL);
  // Those that do not say (MPEG-TS, MPEG-PS) write VP9 and AV1 into streams
  // that no player reads: refused too.
  const bool unsaid_vp9_or_av1 =
      takes_video < 0 && (encoder->id == AV_CODEC_ID_VP9 || encoder->id == AV_CODEC_ID_AV1);
  if (takes_video == 0 || unsaid_vp9_or_av1 || mp4_form_only(*s.format->oformat, encoder->id)) {
    throw Error(ErrorKind::InvalidArgument, cannot_hold(path, encoder->id));
  }
  s.stream = avformat_new_stream(s.format, nullptr);
  s.codec = avcodec_alloc_context3(encoder);
  s.frame = av_frame_alloc();
  s.rgba = av_frame_alloc();
  s.packet = av_packet_alloc();
  if (s.stream == nullptr || s.codec == nullptr || s.frame == nullptr || s.rgba == nullptr ||
      s.packet == nullptr) {
    s.fail("out of memory");
  }
  // MPEG-4 Part 2 counts time in at most 65535 ticks a second.
  const AVRational rate = av_d2q(frame_rate > 0 ? frame_rate : 25.0,
                                 encoder->id == AV_CODEC_ID_MPEG4 ? 65535 : 1000000);
  s.codec->width = static_cast<int>(width);
  s.codec->height = static_cast<int>(height);
  s.codec->pix_fmt = AV_PIX_FMT_YUV420P;
  const io::WrittenColour colour = io::written_colour(encoding.colour);
  s.codec->colorspace = colour.matrix;
  s.codec->color_primaries = colour.primaries;
  s.codec->color_trc = colour.transfer;
  s.codec->color_range = colour.range;
  const PixelAspect aspect = encoding.pixel_aspect;
  if (aspect.num > 0 && aspect.den > 0 && aspect.num <= INT32_MAX && aspect.den <= INT32_MAX) {
    av_reduce(&s.codec->sample_aspect_ratio.num, &s.codec->sample_aspect_ratio.den, aspect.num,
              aspect.den, INT32_MAX);
  }
  // Time in frames of the rate, as the ffmpeg command line times what it
  // encodes: the encoders declare their time base as the stream's rate (an
  // H.264 or H.265 stream's timing, an MPEG-4 Part 2 one's time resolution),
  // which players and ffmpeg read as the frame rate.
  s.codec->time_base = av_inv_q(rate);
  s.codec->framerate = rate;
  // (Keyframes as often as the encoder's own defaults put them, as the ffmpeg
  // command line leaves them: x264's every 250 frames at most.)
  // No B-frames: every frame decodes in order, with no edit list to trim the first.
  s.codec->max_b_frames = 0;
  if ((s.format->oformat->flags & AVFMT_GLOBALHEADER) != 0) {
    s.codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  }
  AVDictionary* options = nullptr;
  const std::string name = encoder->name;
  if (name == "libx264" || name == "libx265") {
    av_dict_set(&options, "preset", encoding.preset.empty() ? "veryfast" : encoding.preset.c_str(),
                0);
  } else if (!encoding.preset.empty()) {
    av_dict_set(&options, "preset", encoding.preset.c_str(), 0);
  }
  if (name == "libx265") av_dict_set(&options, "x265-params", "log-level=error", 0);
  if (name == "libsvtav1") {
    setenv("SVT_LOG", "1", 0);  // SVT-AV1 prints its configuration unless told errors only
    av_dict_set(&options, "svtav1-params", "pred-struct=1", 0);  // low delay: frames in order
  }
  if (encoding.crf) {
    av_dict_set(&options, "crf", std::to_string(*encoding.crf).c_str(), 0);
    if (name == "libvpx-vp9") s.codec->bit_rate = 0;  // constant quality, no bit-rate cap
  }
  // x265 3.5 takes frames under 50 pixels wide, then writes past its own
  // buffers while encoding them (a heap corruption, seen under valgrind); it
  // refuses those under 16 rows itself, a refusal told here in the same words.
  if (name == "libx265" && (width < kNarrowestHevc || height < kLowestHevc)) {
    av_dict_free(&options);
    throw Error(ErrorKind::InvalidArgument,
                path.string() + ": the libx265 encoder does not take " + std::to_string(width) +
                    "x" + std::to_string(height) + " frames (HEVC frames need to be at least " +
                    std::to_string(kNarrowestHevc) + "x" + std::to_string(kLowestHevc) + " here)");
  }
  const int opened = avcodec_open2(s.codec, encoder, &options);
  av_dict_free(&options);
  // (libx265 refuses sizes it takes for non-conformant, 8192x16 say, as invalid
  // data; libx264 those its parameters' check refuses as an external error.)
  if (opened == AVERROR(EINVAL) || opened == AVERROR(ERANGE) ||
      (opened == AVERROR_INVALIDDATA && name == "libx265") ||
      (opened == AVERROR_EXTERNAL && name == "libx264")) {
    // What the settings were checked for, so the size or the rate.
    throw Error(ErrorKind::InvalidArgument,
                path.string() + ": the " + encoder->name + " encoder does not take " +
                    std::to_string(width) + "x" + std::to_string(height) + " frames at " +
                    std::to_string(av_q2d(rate)).substr(0, 6) + " frames a second");
  }
  s.check(opened, "opening the encoder");
  s.check(avcodec_parameters_from_context(s.stream->codecpar, s.codec), "configuring the stream");
  // HEVC in MP4 and QuickTime tagged hvc1 (parameter sets in the sample
  // description), which Apple's players require, rather than the muxer's hev1.
  const std::string_view muxer = s.format->oformat->name;
  if (s.codec->codec_id == AV_CODEC_ID_HEVC && (muxer == "mp4" || muxer == "mov")) {
    s.stream->codecpar->codec_tag = MKTAG('h', 'v', 'c', '1');
  }
  s.stream->time_base = s.codec->time_base;
  s.stream->sample_aspect_ratio = s.codec->sample_aspect_ratio;
  // The rate as the container declares it (Matroska's default duration): a
  // reader that resamples to a constant rate, as the ffmpeg command line does
  // for raw and AVI output, then keeps one frame a frame rather than one a
  // tick of the time base.
  s.stream->avg_frame_rate = rate;
  s.open_audio(audio_from, extension, takes_video == 1);
  if (s.audio_index >= 0) {
    s.audio_out = avformat_new_stream(s.format, nullptr);
    if (s.audio_out == nullptr) s.fail("out of memory");
    s.check(avcodec_parameters_copy(s.audio_out->codecpar,
                                    s.audio_in->streams[s.audio_index]->codecpar),
            "copying the audio stream");
    s.audio_out->codecpar->codec_tag = 0;
    s.audio_out->time_base = s.audio_in->streams[s.audio_index]->time_base;
    s.audio_done = false;
    // The audio stream's tags go with it (its language), as ffmpeg copies them.
    s.check(av_dict_copy(&s.audio_out->metadata, s.audio_in->streams[s.audio_index]->metadata, 0),
            "copying the audio stream's tags");
  }
  // The source file's tags (title, creation time), with audio or without, as
  // ffmpeg copies them; the muxer names its own encoder.
  if (s.audio_in != nullptr) {
    s.check(av_dict_copy(&s.format->metadata, s.audio_in->metadata, 0), "copying the tags");
    av_dict_set(&s.format->metadata, "encoder", nullptr, 0);
    // And the video stream's (its language and title), but its encoder's name,
    // a rotation the frames written no longer need, a timecode (which MP4
    // and QuickTime muxers would write as a track of its own) and Matroska's
    // statistics of the source's stream (its bit rate, frames, bytes).
    const int video = io::picked_stream(*s.audio_in, AVMEDIA_TYPE_VIDEO);
    const AVDictionaryEntry* tag = nullptr;
    while (video >= 0 && (tag = av_dict_get(s.audio_in->streams[video]->metadata, "", tag,
                                            AV_DICT_IGNORE_SUFFIX)) != nullptr) {
      // (Matroska's carry their language after a hyphen: "BPS-eng".)
      std::string key = std::string(tag->key).substr(0, std::string(tag->key).find('-'));
      for (char& c : key) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      const bool dropped = key == "ENCODER" || key == "ROTATE" || key == "TIMECODE" ||
                           key == "BPS" || key == "NUMBER_OF_FRAMES" || key == "NUMBER_OF_BYTES" ||
                           key == "DURATION" || key.rfind("_STATISTICS_", 0) == 0;
      if (!dropped) {
        s.check(av_dict_set(&s.stream->metadata, tag->key, tag->value, 0),
                "copying the video stream's tags");
      }
    }
  }
  // MP4 and QuickTime files end with an index that points back into them:
  // refused for a pipe before it is opened (the opening of one that no
  // program reads yet would wait for a reader), or by the header's write.
  const bool index_at_end =
      muxer == "mp4" || muxer == "mov" || muxer == "ipod" || muxer == "3gp" || muxer == "3g2";
  const auto refuse_pipe = [&] {
    throw Error(ErrorKind::InvalidArgument,
                path.string() +
                    ": an MP4 or MOV file is written to a file, not a pipe "
                    "(write .mkv or .ts to a pipe)");
  };
  if (index_at_end && is_pipe(path)) refuse_pipe();
  s.file.emplace(path);
  s.check(avio_open(&s.format->pb, io::file_url(s.file->path()).c_str(), AVIO_FLAG_WRITE),
          "opening the file");
  // MP4 declares the range with the rest of the colour description in an
  // 'nclx' colour box, which its muxer writes only where the matrix,
  // primaries and transfer are all known unless told to: told, so that the
  // limited range is declared for a source that declares none too.
  // QuickTime's 'nclc' box (which has no room for a range) is told so too,
  // so that a matrix is declared where the primaries or transfer are not
  // known (a source of RGB frames). (The muxer writes no colour box into M4V
  // or 3GP files.)
  AVDictionary* header_options = nullptr;
  if (muxer == "mp4" || muxer == "mov") {
    av_dict_set(&header_options, "movflags", "+write_colr", 0);
  }
  const int header = avformat_write_header(s.format, &header_options);
  av_dict_free(&header_options);
  // A muxer that would not say whether it holds the codec (a GIF, Y4M, MP3,
  // DV or SWF file), or said so wrongly (FLV of MPEG-4 Part 2), refuses it
  // here, some with a bare -1 (EPERM); a write that failed is the file's
  // error instead.
  const bool wrote_well = s.format->pb == nullptr || s.format->pb->error == 0;
  const bool unsaid = takes_video < 0 || std::string_view(s.format->oformat->name) == "flv";
  if (unsaid && wrote_well &&
      (header == AVERROR(EINVAL) || header == AVERROR_INVALIDDATA ||
       header == AVERROR_PATCHWELCOME || header == AVERROR(EPERM))) {
    const AVCodecID audio = s.audio_index >= 0
                                ? s.audio_in->streams[s.audio_index]->codecpar->codec_id
                                : AV_CODEC_ID_NONE;
    // MXF holds broadcast and cinema frame rates alone (24 to 120 a second and
    // their NTSC forms): where the same stream at 25 frames a second is held,
    // the rate is what it refuses.
    const bool mxf = muxer.substr(0, 3) == "mxf";
    if (mxf && av_cmp_q(rate, AVRational{25, 1}) != 0 &&
        writes_header(s.format->oformat, *s.stream, nullptr, AVRational{1, 25})) {
      // The rate as a fraction where it is not whole: 2997/125 is not 24000/1001.
      char shown[64];
      if (rate.den == 1) {
        std::snprintf(shown, sizeof shown, "%d", rate.num);
      } else {
        std::snprintf(shown, sizeof shown, "%d/%d (%.6g)", rate.num, rate.den, av_q2d(rate));
      }
      throw Error(ErrorKind::InvalidArgument,
                  path.string() + ": the '" + extension +
                      "' container holds video at broadcast and cinema frame rates alone (such "
                      "as 23.976, 25, 29.97, 50 and 59.94), and this is " +
                      shown + " frames a second (use .mp4, .mkv or .mov)");
    }
    throw Error(ErrorKind::InvalidArgument, cannot_hold(path, encoder->id, audio));
  }
  if (header == AVERROR(EINVAL) && wrote_well && s.format->pb != nullptr &&
      s.format->pb->seekable == 0 && index_at_end) {
    refuse_pipe();  // (a device that cannot seek)
  }
  s.check(header, "writing the header");
  s.header_written = true;
  // MPEG-4 Part 2 streams carry no colour description (FFmpeg's encoder writes
  // none); MP4, QuickTime and Matroska files declare it beside them, others do not.
  const bool declared = muxer == "mp4" || muxer == "mov" || muxer == "matroska" || muxer == "webm";
  // (Rec. 601's matrix is what ffmpeg takes for a stream that declares none.)
  const bool rec601 =
      colour.conversion == AVCOL_SPC_BT470BG || colour.conversion == AVCOL_SPC_SMPTE170M;
  if (encoder->id == AV_CODEC_ID_MPEG4 && !declared && colour.matrix != AVCOL_SPC_UNSPECIFIED &&
      !rec601) {
    const char* matrix = av_color_space_name(colour.conversion);
    s.colour_note = std::string(
                        "no colour description written: MPEG-4 Part 2 video carries "
                        "none, nor does a '") +
                    extension +
                    "' file, so players guess the matrix (ffmpeg takes Rec. 601's); "
                    "the frames are converted with " +
                    (matrix != nullptr ? matrix : "the source's") +
                    "'s (.mp4, .mkv or .mov declares it)";
  }
  s.frame_ticks = av_cmp_q(s.stream->time_base, s.codec->time_base) == 0;
  s.audio_from_zero = (s.format->oformat->flags & AVFMT_TS_NEGATIVE) == 0 && s.frame_ticks;
  s.frame->format = s.codec->pix_fmt;
  s.frame->width = s.codec->width;
  s.frame->height = s.codec->height;
  s.check(av_frame_get_buffer(s.frame, 0), "allocating a frame");
  s.rgba->format = AV_PIX_FMT_RGBA;
  s.rgba->width = s.codec->width;
  s.rgba->height = s.codec->height;
  s.check(av_frame_get_buffer(s.rgba, 0), "allocating a frame");
  zero_buffers(*s.frame);
  zero_buffers(*s.rgba);
  s.scaler =
      sws_getContext(s.codec->width, s.codec->height, AV_PIX_FMT_RGBA, s.codec->width,
                     s.codec->height, AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr, nullptr, nullptr);
  if (s.scaler == nullptr ||
      io::set_conversion(s.scaler, colour.conversion, 0, io::YCbCrSide::Destination) < 0) {
    s.fail("cannot convert RGBA to YUV 4:2:0");
  }
}

VideoWriter::VideoWriter(VideoWriter&&) noexcept = default;
VideoWriter& VideoWriter::operator=(VideoWriter&&) noexcept = default;
VideoWriter::~VideoWriter() = default;

std::string VideoWriter::codec() const { return impl_->codec->codec->name; }
std::string VideoWriter::audio_note() const { return impl_->audio_note; }
std::string VideoWriter::colour_note() const { return impl_->colour_note; }
std::int64_t VideoWriter::frames_left_out() const noexcept { return impl_->left_out; }

void VideoWriter::write(const Picture& picture) {
  const Impl& s = *impl_;
  // A frame after the last one's start.
  write_at(picture, s.last_pts + 1,
           static_cast<double>(s.last_pts + 1) * av_q2d(s.codec->time_base));
}

void VideoWriter::write(const Picture& picture, double seconds) {
  Impl& s = *impl_;
  if (std::isfinite(seconds)) {
    seconds += s.clock_shift;
    const double rate_frame = 1.0 / av_q2d(s.codec->framerate);
    const double frame = std::isfinite(rate_frame) && rate_frame > 0.0 ? rate_frame : 0.04;
    // The source's clock started again (a step back of more than two frames;
    // a smaller one, a time's jitter, takes the next tick, or is left out
    // where the container counts time in frames): on from the last frame.
    if (s.last_seconds >= 0.0 && seconds < s.last_seconds - 2.0 * frame) {
      const double next = s.last_seconds + frame;
      s.clock_shift += next - seconds;
      seconds = next;
    }
    s.last_seconds = std::max(s.last_seconds, seconds);
  }
  const double ticks = seconds / av_q2d(s.codec->time_base);
  // Rounded to a tick; never before the tick after the last frame's.
  std::int64_t pts = s.last_pts + 1;
  if (std::isfinite(ticks) && std::fabs(ticks) < 9.0e15) {
    const std::int64_t tick = std::llround(ticks);
    if (s.frame_ticks && s.last_pts >= 0 && tick <= s.last_pts) {
      ++s.left_out;
      return;
    }
    pts = std::max<std::int64_t>(pts, tick);
  }
  write_at(picture, pts, std::isfinite(seconds) ? seconds : 0.0);
}

void VideoWriter::write_at(const Picture& picture, std::int64_t pts, double seconds) {
  Impl& s = *impl_;
  if (static_cast<int>(picture.width) != s.codec->width ||
      static_cast<int>(picture.height) != s.codec->height) {
    s.fail("frame size changed");
  }
  const std::uint8_t* before = s.frame->data[0];
  s.check(av_frame_make_writable(s.frame), "preparing a frame");
  if (s.frame->data[0] != before) zero_buffers(*s.frame);
  const std::size_t row = std::size_t{picture.width} * 4;
  for (std::uint32_t y = 0; y < picture.height; ++y) {
    std::memcpy(s.rgba->data[0] + static_cast<std::ptrdiff_t>(y) * s.rgba->linesize[0],
                picture.rgba.data() + y * row, row);
  }
  sws_scale(s.scaler, s.rgba->data, s.rgba->linesize, 0, s.codec->height, s.frame->data,
            s.frame->linesize);
  s.frame->pts = pts;
  s.last_pts = pts;
  s.seconds_at[pts] = seconds;
  // Audio up to this frame's time goes in first, so the streams interleave.
  s.copy_audio(seconds);
  s.encode(s.frame);
}

void VideoWriter::finish() {
  Impl& s = *impl_;
  if (s.finished) return;
  s.finished = true;
  s.encode(nullptr);
  s.copy_audio(std::numeric_limits<double>::infinity());
  s.check(av_write_trailer(s.format), "writing the trailer");
  // Buffered bytes reach the file here: a full disk shows in the close.
  s.check(avio_closep(&s.format->pb), "closing the file");
  s.file->commit();
}

}  // namespace gpuhist
