// examples/ocr/text_boxes.cpp: see text_boxes.hpp.
#include "text_boxes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace onyx::ocr::text_boxes {
namespace {

constexpr float min_size = 3;  // DBPostProcess.min_size
constexpr std::size_t max_candidates = 1000;

/// A rotated rectangle: centre, unit axes u and v, and side lengths along them.
struct rotated_rect {
  point centre, u, v;
  float w = 0, h = 0;

  quad corners(float grow = 0) const {
    float a = w / 2 + grow, b = h / 2 + grow;
    auto at = [&](float su, float sv) {
      return point{centre.x + su * a * u.x + sv * b * v.x, centre.y + su * a * u.y + sv * b * v.y};
    };
    return {at(-1, -1), at(1, -1), at(1, 1), at(-1, 1)};
  }
};

double cross(point o, point a, point b) {
  return static_cast<double>(a.x - o.x) * (b.y - o.y) - static_cast<double>(a.y - o.y) * (b.x - o.x);
}

/// The convex hull of `pts` (Andrew's monotone chain), counterclockwise in
/// image coordinates, without collinear points.
std::vector<point> convex_hull(std::vector<point> pts) {
  std::sort(pts.begin(), pts.end(), [](point a, point b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  if (pts.size() < 3) return pts;
  std::vector<point> hull(2 * pts.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  hull.resize(k - 1);
  return hull;
}

/// The minimum-area rectangle around a convex hull: one of its sides lies on
/// a hull edge (rotating calipers, tried edge by edge).
rotated_rect min_area_rect(const std::vector<point>& hull) {
  rotated_rect best;
  if (hull.empty()) return best;
  best.centre = hull[0], best.u = {1, 0}, best.v = {0, 1};
  double best_area = -1;
  for (std::size_t i = 0; i < hull.size(); ++i) {
    point a = hull[i], b = hull[(i + 1) % hull.size()];
    double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
    if (len == 0) continue;
    double ux = dx / len, uy = dy / len, vx = -uy, vy = ux;
    double u0 = 1e30, u1 = -1e30, v0 = 1e30, v1 = -1e30;
    for (point p : hull) {
      double pu = p.x * ux + p.y * uy, pv = p.x * vx + p.y * vy;
      u0 = std::min(u0, pu), u1 = std::max(u1, pu), v0 = std::min(v0, pv), v1 = std::max(v1, pv);
    }
    double area = (u1 - u0) * (v1 - v0);
    if (best_area < 0 || area < best_area) {
      best_area = area;
      double cu = (u0 + u1) / 2, cv = (v0 + v1) / 2;
      best.centre = {static_cast<float>(cu * ux + cv * vx), static_cast<float>(cu * uy + cv * vy)};
      best.u = {static_cast<float>(ux), static_cast<float>(uy)};
      best.v = {static_cast<float>(vx), static_cast<float>(vy)};
      best.w = static_cast<float>(u1 - u0), best.h = static_cast<float>(v1 - v0);
    }
  }
  return best;
}

/// DBPostProcess.get_mini_boxes' order: of the two leftmost corners the upper
/// is first and the lower last; of the two rightmost the upper is second.
quad order_by_sides(quad q) {
  std::sort(q.begin(), q.end(), [](point a, point b) { return a.x < b.x; });
  auto [tl, bl] = q[1].y > q[0].y ? std::pair{q[0], q[1]} : std::pair{q[1], q[0]};
  auto [tr, br] = q[3].y > q[2].y ? std::pair{q[2], q[3]} : std::pair{q[3], q[2]};
  return {tl, tr, br, bl};
}

/// predict_det's order_points_clockwise: the corner with the least x + y
/// first, the greatest third, of the other two the one with the least y - x
/// second.
quad order_clockwise(const quad& q) {
  auto sum = [](point p) { return p.x + p.y; };
  std::size_t lo = 0, hi = 0;
  for (std::size_t i = 1; i < 4; ++i) {
    if (sum(q[i]) < sum(q[lo])) lo = i;
    if (sum(q[i]) > sum(q[hi])) hi = i;
  }
  if (lo == hi) hi = (lo + 1) % 4;
  std::vector<point> rest;
  for (std::size_t i = 0; i < 4; ++i)
    if (i != lo && i != hi) rest.push_back(q[i]);
  bool first_is_right = rest[0].y - rest[0].x <= rest[1].y - rest[1].x;
  return {q[lo], first_is_right ? rest[0] : rest[1], q[hi], first_is_right ? rest[1] : rest[0]};
}

/// DBPostProcess.box_score_fast: the map's mean over the pixels of the box's
/// bounding rectangle that lie in the box (corners truncated to whole pixels,
/// edges included, as cv2.fillPoly marks them).
float box_score(const float* map, int width, int height, const quad& box) {
  float x0 = box[0].x, x1 = box[0].x, y0 = box[0].y, y1 = box[0].y;
  for (point p : box) x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
  int xmin = std::clamp(static_cast<int>(std::floor(x0)), 0, width - 1);
  int xmax = std::clamp(static_cast<int>(std::ceil(x1)), 0, width - 1);
  int ymin = std::clamp(static_cast<int>(std::floor(y0)), 0, height - 1);
  int ymax = std::clamp(static_cast<int>(std::ceil(y1)), 0, height - 1);
  quad q;
  for (int k = 0; k < 4; ++k)
    q[k] = {static_cast<float>(static_cast<int>(box[k].x - xmin)),
            static_cast<float>(static_cast<int>(box[k].y - ymin))};
  double sum = 0;
  std::size_t n = 0;
  for (int y = ymin; y <= ymax; ++y)
    for (int x = xmin; x <= xmax; ++x) {
      point p{static_cast<float>(x - xmin), static_cast<float>(y - ymin)};
      bool neg = false, pos = false;
      for (int k = 0; k < 4; ++k) {
        double c = cross(q[k], q[(k + 1) % 4], p);
        neg |= c<0, pos |= c> 0;
      }
      if (neg && pos) continue;
      sum += map[static_cast<std::size_t>(y) * width + x];
      ++n;
    }
  return n ? static_cast<float>(sum / n) : 0.0f;
}

/// For each 8-connected region of map > thresh, the leftmost and rightmost
/// pixel of each of its rows (their hull is the region's hull).
std::vector<std::vector<point>> region_outlines(const float* map, int width, int height, float thresh) {
  std::vector<std::int32_t> label(static_cast<std::size_t>(width) * height, -1);
  std::vector<std::vector<point>> regions;
  std::vector<int> stack;
  for (int start = 0; start < width * height; ++start) {
    if (label[start] >= 0 || !(map[start] > thresh)) continue;
    const int id = static_cast<int>(regions.size());
    std::vector<int> row_min(height, width), row_max(height, -1);
    label[start] = id;
    stack.push_back(start);
    while (!stack.empty()) {
      int i = stack.back();
      stack.pop_back();
      int x = i % width, y = i / width;
      row_min[y] = std::min(row_min[y], x), row_max[y] = std::max(row_max[y], x);
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          int nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          int j = ny * width + nx;
          if (label[j] < 0 && map[j] > thresh) label[j] = id, stack.push_back(j);
        }
    }
    std::vector<point> outline;
    for (int y = 0; y < height; ++y)
      if (row_max[y] >= 0) {
        outline.push_back({static_cast<float>(row_min[y]), static_cast<float>(y)});
        if (row_max[y] != row_min[y]) outline.push_back({static_cast<float>(row_max[y]), static_cast<float>(y)});
      }
    regions.push_back(std::move(outline));
  }
  return regions;
}

}  // namespace

std::vector<detection> from_probability_map(const float* map, int width, int height, int image_width, int image_height,
                                            const options& opt) {
  std::vector<detection> found;
  auto regions = region_outlines(map, width, height, opt.det_thresh);
  if (regions.size() > max_candidates) regions.resize(max_candidates);
  for (const auto& outline : regions) {
    rotated_rect rect = min_area_rect(convex_hull(outline));
    if (std::min(rect.w, rect.h) < min_size) continue;
    float score = box_score(map, width, height, order_by_sides(rect.corners()));
    if (score < opt.det_box_thresh) continue;
    // Unclip: grow by area * ratio / perimeter on every side. PaddleOCR
    // offsets the corners as pyclipper takes them, truncated to integers, so
    // the grown rectangle is that of the truncated corners.
    const float grow = rect.w * rect.h * opt.det_unclip_ratio / (2 * (rect.w + rect.h));
    std::vector<point> truncated;
    for (point p : rect.corners()) truncated.push_back({std::trunc(p.x), std::trunc(p.y)});
    const rotated_rect base = min_area_rect(convex_hull(truncated));
    if (std::min(base.w, base.h) + 2 * grow < min_size + 2) continue;
    quad box = order_by_sides(base.corners(grow));
    for (point& p : box) {
      p.x = std::clamp(std::nearbyint(p.x / width * image_width), 0.0f, static_cast<float>(image_width));
      p.y = std::clamp(std::nearbyint(p.y / height * image_height), 0.0f, static_cast<float>(image_height));
    }
    // predict_det.filter_tag_det_res: clockwise, inside the image, wider and taller than 3 pixels.
    box = order_clockwise(box);
    for (point& p : box) {
      p.x = std::clamp(p.x, 0.0f, static_cast<float>(image_width - 1));
      p.y = std::clamp(p.y, 0.0f, static_cast<float>(image_height - 1));
    }
    auto dist = [](point a, point b) { return static_cast<int>(std::hypot(a.x - b.x, a.y - b.y)); };
    if (dist(box[0], box[1]) <= 3 || dist(box[0], box[3]) <= 3) continue;
    found.push_back({box, score});
  }
  // predict_system.sorted_boxes: top to bottom, then left to right among
  // boxes whose tops are within 10 pixels.
  std::sort(found.begin(), found.end(), [](const detection& a, const detection& b) {
    return a.box[0].y < b.box[0].y || (a.box[0].y == b.box[0].y && a.box[0].x < b.box[0].x);
  });
  for (std::size_t i = 0; i + 1 < found.size(); ++i)
    for (std::size_t j = i + 1; j-- > 0;) {
      const point a = found[j].box[0], b = found[j + 1].box[0];
      if (std::abs(b.y - a.y) < 10 && b.x < a.x)
        std::swap(found[j], found[j + 1]);
      else
        break;
    }
  return found;
}

}  // namespace onyx::ocr::text_boxes
