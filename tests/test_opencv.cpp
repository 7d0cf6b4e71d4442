// The R, G and B histograms of real photographs equal OpenCV's calcHist
// (OpenCV is a yardstick here only; gpuhist never links it).
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "gpuhist/context.hpp"
#include "gpuhist/image_file.hpp"
#include "support/shared_context.hpp"

namespace gpuhist {
namespace {

class OpenCvYardstick : public ::testing::TestWithParam<const char*> {};

TEST_P(OpenCvYardstick, RgbCountsEqualCalcHist) {
  const std::string path = std::string(GPUHIST_SOURCE_DIR) + "/data/" + GetParam();
  const cv::Mat bgr = cv::imread(path, cv::IMREAD_COLOR);
  ASSERT_FALSE(bgr.empty());
  std::vector<cv::Mat> planes;
  cv::split(bgr, planes);

  const Image image = load_image(path);
  ASSERT_EQ(image.width, static_cast<std::uint32_t>(bgr.cols));
  ASSERT_EQ(image.height, static_cast<std::uint32_t>(bgr.rows));
  const Context& context = test::gpu_context();
  for (Strategy strategy : {Strategy::Cpu, Strategy::Gpu}) {
    const Histogram h = context.compute(image.view(), {}, RunOptions{strategy});
    const Channel order[3] = {Channel::Blue, Channel::Green, Channel::Red};  // OpenCV is BGR
    for (int c = 0; c < 3; ++c) {
      cv::Mat hist;
      const int channels[] = {0};
      const int size[] = {256};
      const float range[] = {0, 256};
      const float* ranges[] = {range};
      cv::calcHist(&planes[static_cast<std::size_t>(c)], 1, channels, cv::Mat(), hist, 1, size,
                   ranges);
      const auto ours = h.counts(order[c]);
      for (int bin = 0; bin < 256; ++bin) {
        ASSERT_EQ(ours[static_cast<std::size_t>(bin)],
                  static_cast<std::uint64_t>(hist.at<float>(bin)))
            << to_string(order[c]) << " bin " << bin << " with " << to_string(strategy);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Photos, OpenCvYardstick, ::testing::Values("coffee.png", "rocket.jpg"),
                         [](const auto& info) {
                           std::string name = info.param;
                           return name.substr(0, name.find('.'));
                         });

}  // namespace
}  // namespace gpuhist
