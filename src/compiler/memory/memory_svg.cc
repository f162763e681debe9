// The arena as a picture (SVG), and its PNG through an external converter.
//
// Layout: steps run left to right, offsets bottom to top; each arena block is one rectangle from
// its first to its last step and from its offset to offset + size, filled with a colour per op
// type (a legend lists them). A dashed line marks the lower bound, a red band the peak step.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "ge/compiler/memory/memory_report.h"
#include "ge/graph/utils/string_utils.h"
#include "report_util.h"

extern char** environ;

namespace ge::memory {
namespace {

constexpr double kWidth = 1000;
constexpr double kHeight = 600;
constexpr double kLeft = 80;    // room for the byte axis
constexpr double kRight = 200;  // room for the legend
constexpr double kTop = 40;
constexpr double kBottom = 50;

std::string Num(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f", value);
  return text;
}

// A stable colour per op type: hues spread by the golden angle in order of first appearance.
std::string Colour(size_t ordinal) {
  const double hue = std::fmod(static_cast<double>(ordinal) * 137.508, 360.0);
  return "hsl(" + Num(hue) + ",65%,60%)";
}

bool IsExecutable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

std::string FindOnPath(const std::string& tool) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return "";
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/" + tool;
    if (IsExecutable(candidate)) return candidate;
  }
  return "";
}

Status Run(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, args[0].c_str(), nullptr, nullptr, argv.data(), environ);
  if (spawned != 0) {
    return Failed("WriteMemoryPlanPng: cannot run " + args[0] + ": " + std::strerror(spawned));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Failed("WriteMemoryPlanPng: waiting for " + args[0] + " failed");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Failed("WriteMemoryPlanPng: " + args[0] + " failed (status " + std::to_string(status) +
                  ")");
  }
  return Status::Ok();
}

}  // namespace

// The SVG's attribute quotes stay escaped alike: modernize-raw-string-literal would make raw
// strings of the longer pieces only, two quotings in one statement.
// NOLINTBEGIN(modernize-raw-string-literal)
std::string MemoryPlanToSvg(const MemoryPlan& plan) {
  int64_t steps = std::max<int64_t>(plan.peak_step + 1, 1);
  std::map<std::string, size_t> types;  // op type → colour ordinal
  std::vector<const TensorPlan*> blocks;
  for (const TensorPlan& t : plan.tensors) {
    if (t.region != Region::kArena || t.alias_of >= 0 || t.size <= 0) continue;
    steps = std::max(steps, t.last_step + 1);
    types.emplace(t.op_type, types.size());
    blocks.push_back(&t);
  }
  const double plot_w = kWidth - kLeft - kRight;
  const double plot_h = kHeight - kTop - kBottom;
  const double bytes = static_cast<double>(std::max<int64_t>(plan.arena_bytes, 1));
  auto x_of = [&](double step) { return kLeft + plot_w * step / static_cast<double>(steps); };
  auto y_of = [&](double offset) { return kTop + plot_h * (1.0 - offset / bytes); };

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" viewBox=\"0 0 " << kWidth << " " << kHeight
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << kLeft << "\" y=\"24\" font-size=\"14\">arena " << plan.arena_bytes
      << " bytes, lower bound " << plan.lower_bound << " bytes, ratio " << Num(plan.Ratio()) << ", "
      << EscapeMarkup(plan.strategy) << "</text>\n";
  svg << "<rect class=\"frame\" x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << plot_w
      << "\" height=\"" << plot_h << "\" fill=\"none\" stroke=\"black\"/>\n";
  for (const TensorPlan* t : blocks) {
    const double x = x_of(static_cast<double>(t->first_step));
    const double w = x_of(static_cast<double>(t->last_step + 1)) - x;
    const double top = y_of(static_cast<double>(t->offset + t->size));
    const double h = y_of(static_cast<double>(t->offset)) - top;
    svg << "<rect class=\"tensor\" x=\"" << Num(x) << "\" y=\"" << Num(top) << "\" width=\""
        << Num(w) << "\" height=\"" << Num(h) << "\" fill=\"" << Colour(types[t->op_type])
        << "\" stroke=\"black\" stroke-width=\"0.3\"><title>" << EscapeMarkup(TensorLabel(*t))
        << " (" << EscapeMarkup(t->op_type) << ") offset " << t->offset << " size " << t->size
        << " steps " << t->first_step << ".." << t->last_step << "</title></rect>\n";
  }
  if (plan.peak_step >= 0) {
    const double x = x_of(static_cast<double>(plan.peak_step));
    const double w = x_of(static_cast<double>(plan.peak_step + 1)) - x;
    svg << "<rect id=\"peak-step\" x=\"" << Num(x) << "\" y=\"" << kTop << "\" width=\""
        << Num(std::max(w, 1.0)) << "\" height=\"" << plot_h
        << "\" fill=\"red\" fill-opacity=\"0.15\" stroke=\"red\"><title>peak step "
        << plan.peak_step << "</title></rect>\n";
    svg << "<text x=\"" << Num(x) << "\" y=\"" << kHeight - kBottom + 30
        << "\" fill=\"red\">peak step " << plan.peak_step << "</text>\n";
  }
  const double bound_y = y_of(static_cast<double>(plan.lower_bound));
  svg << "<line id=\"lower-bound\" x1=\"" << kLeft << "\" y1=\"" << Num(bound_y) << "\" x2=\""
      << kLeft + plot_w << "\" y2=\"" << Num(bound_y)
      << "\" stroke=\"blue\" stroke-dasharray=\"6,4\"/>\n";
  svg << "<text x=\"4\" y=\"" << kTop + 4 << "\">" << plan.arena_bytes << "</text>\n";
  svg << "<text x=\"4\" y=\"" << kHeight - kBottom << "\">0</text>\n";
  svg << "<text x=\"" << kLeft << "\" y=\"" << kHeight - kBottom + 16 << "\">step 0</text>\n";
  svg << "<text x=\"" << kLeft + plot_w - 60 << "\" y=\"" << kHeight - kBottom + 16 << "\">step "
      << steps - 1 << "</text>\n";
  // The legend, in colour order.
  std::vector<std::pair<size_t, std::string>> legend;
  for (const auto& [type, ordinal] : types) legend.emplace_back(ordinal, type);
  std::sort(legend.begin(), legend.end());
  double y = kTop;
  for (const auto& [ordinal, type] : legend) {
    svg << "<rect class=\"legend\" x=\"" << kWidth - kRight + 16 << "\" y=\"" << y
        << "\" width=\"12\" height=\"12\" fill=\"" << Colour(ordinal) << "\"/><text x=\""
        << kWidth - kRight + 34 << "\" y=\"" << y + 11 << "\">" << EscapeMarkup(type)
        << "</text>\n";
    y += 18;
  }
  svg << "</svg>\n";
  return svg.str();
}
// NOLINTEND(modernize-raw-string-literal)

Status WriteMemoryPlanPng(const MemoryPlan& plan, const std::string& path) {
  const std::string rsvg = FindOnPath("rsvg-convert");
  const std::string convert = rsvg.empty() ? FindOnPath("convert") : "";
  if (rsvg.empty() && convert.empty()) {
    return Failed(
        "WriteMemoryPlanPng: neither rsvg-convert nor ImageMagick's convert is on PATH; install "
        "one (Debian: apt-get install librsvg2-bin, or apt-get install imagemagick), or write "
        "the SVG with MemoryPlanToSvg");
  }
  const std::string svg_path = path + ".tmp.svg";
  {
    std::ofstream file(svg_path);
    file << MemoryPlanToSvg(plan);
    if (!file) return Failed("WriteMemoryPlanPng: cannot write " + svg_path);
  }
  Status status = rsvg.empty() ? Run({convert, svg_path, path}) : Run({rsvg, "-o", path, svg_path});
  std::remove(svg_path.c_str());
  return status;
}

}  // namespace ge::memory
