#include "model/energy/chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace simtlm::energy {
namespace {

// A qualitative palette (Tableau 20), repeated if there are more components.
const char* const kColors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
                               "#ff9da7", "#9c755f", "#bab0ac", "#a0cbe8", "#ffbe7d", "#8cd17d", "#b6992d",
                               "#f1ce63", "#86bcb6", "#d37295", "#fabfd2", "#d4a6c8", "#79706e"};

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '&') o += "&amp;";
    else if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

}  // namespace

std::string stackedBarSvg(const std::string& title, const std::vector<std::string>& components,
                          const std::vector<ChartBar>& bars, double reference, const std::string& yLabel) {
  std::vector<size_t> shown;
  for (size_t c = 0; c < components.size(); ++c)
    for (const auto& b : bars)
      if (c < b.segments.size() && b.segments[c] > 0) {
        shown.push_back(c);
        break;
      }
  double top = 1.0;
  for (const auto& b : bars) {
    double sum = 0;
    for (double v : b.segments) sum += v;
    top = std::max(top, sum / reference);
  }
  top = std::ceil(top * 5) / 5;  // axis to the next 0.2
  const double plotH = 360, plotY = 50, plotX = 70, barW = 70, gap = 40;
  const double plotW = gap + static_cast<double>(bars.size()) * (barW + gap);
  const double legendX = plotX + plotW + 30;
  const double width = std::max(legendX + 220, plotX + 8.5 * static_cast<double>(title.size())), height = std::max(plotY + plotH + 60, 60 + 18.0 * static_cast<double>(shown.size()));
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt("%.0f", width) + "\" height=\"" +
                  fmt("%.0f", height) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"" + fmt("%.0f", plotX) + "\" y=\"24\" font-size=\"15\">" + esc(title) + "</text>\n";
  auto y = [&](double v) { return plotY + plotH - v / top * plotH; };
  for (double t = 0; t <= top + 1e-9; t += 0.2) {  // grid and axis labels
    s += "<line x1=\"" + fmt("%.1f", plotX) + "\" x2=\"" + fmt("%.1f", plotX + plotW) + "\" y1=\"" + fmt("%.1f", y(t)) +
         "\" y2=\"" + fmt("%.1f", y(t)) + "\" stroke=\"#ddd\"/>\n";
    s += "<text x=\"" + fmt("%.1f", plotX - 8) + "\" y=\"" + fmt("%.1f", y(t) + 4) + "\" text-anchor=\"end\">" +
         fmt("%.1f", t) + "</text>\n";
  }
  s += "<text transform=\"translate(20," + fmt("%.1f", plotY + plotH / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">" + esc(yLabel) + "</text>\n";
  for (size_t i = 0; i < bars.size(); ++i) {
    const double x = plotX + gap + static_cast<double>(i) * (barW + gap);
    double base = 0;
    for (size_t k = 0; k < shown.size(); ++k) {
      const size_t c = shown[k];
      const double v = c < bars[i].segments.size() ? bars[i].segments[c] / reference : 0;
      if (v <= 0) continue;
      s += "<rect x=\"" + fmt("%.1f", x) + "\" y=\"" + fmt("%.2f", y(base + v)) + "\" width=\"" + fmt("%.0f", barW) +
           "\" height=\"" + fmt("%.2f", y(base) - y(base + v)) + "\" fill=\"" + kColors[k % 20] + "\"><title>" +
           esc(bars[i].label + " " + components[c]) + ": " + fmt("%.4f", v) + "</title></rect>\n";
      base += v;
    }
    s += "<text x=\"" + fmt("%.1f", x + barW / 2) + "\" y=\"" + fmt("%.1f", y(base) - 6) + "\" text-anchor=\"middle\">" +
         fmt("%.3f", base) + "</text>\n";
    s += "<text x=\"" + fmt("%.1f", x + barW / 2) + "\" y=\"" + fmt("%.1f", plotY + plotH + 18) +
         "\" text-anchor=\"middle\">" + esc(bars[i].label) + "</text>\n";
  }
  s += "<line x1=\"" + fmt("%.1f", plotX) + "\" x2=\"" + fmt("%.1f", plotX) + "\" y1=\"" + fmt("%.1f", plotY) + "\" y2=\"" +
       fmt("%.1f", plotY + plotH) + "\" stroke=\"black\"/>\n";
  for (size_t k = shown.size(); k-- > 0;) {  // legend, top segment first
    const double ly = plotY + static_cast<double>(shown.size() - 1 - k) * 18;
    s += "<rect x=\"" + fmt("%.1f", legendX) + "\" y=\"" + fmt("%.1f", ly) + "\" width=\"12\" height=\"12\" fill=\"" +
         kColors[k % 20] + "\"/>\n";
    s += "<text x=\"" + fmt("%.1f", legendX + 18) + "\" y=\"" + fmt("%.1f", ly + 10) + "\">" + esc(components[shown[k]]) +
         "</text>\n";
  }
  s += "</svg>\n";
  return s;
}

}  // namespace simtlm::energy
