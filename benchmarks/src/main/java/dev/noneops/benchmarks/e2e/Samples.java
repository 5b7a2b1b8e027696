package dev.noneops.benchmarks.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Repeated measurements of one figure (in milliseconds, or any unit the caller keeps), summarised
 * robustly because the machine is shared: median, min-max and interquartile range.
 */
final class Samples {
  private final String unit;
  private final List<Double> values = new ArrayList<>();

  Samples(String unit) {
    this.unit = unit;
  }

  void add(double value) {
    values.add(value);
  }

  int count() {
    return values.size();
  }

  double median() {
    return quantile(0.5);
  }

  double min() {
    return sorted().get(0);
  }

  double max() {
    return sorted().get(values.size() - 1);
  }

  /** Linear-interpolated quantile {@code q} in [0, 1]. */
  double quantile(double q) {
    List<Double> s = sorted();
    double pos = q * (s.size() - 1);
    int lo = (int) Math.floor(pos);
    int hi = (int) Math.ceil(pos);
    return s.get(lo) + (s.get(hi) - s.get(lo)) * (pos - lo);
  }

  /** {@code median (min-max, IQR q1-q3, n=N) unit}. */
  String summary() {
    return String.format(
        Locale.ROOT,
        "%s %s (min-max %s-%s, IQR %s-%s, n=%d)",
        fmt(median()),
        unit,
        fmt(min()),
        fmt(max()),
        fmt(quantile(0.25)),
        fmt(quantile(0.75)),
        values.size());
  }

  String medianText() {
    return fmt(median()) + " " + unit;
  }

  static String fmt(double v) {
    return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
  }

  /** Our median over the baseline's; "—" when the baseline's median is 0 (below the clock's resolution). */
  static String ratio(Samples ours, Samples baseline) {
    if (baseline.median() <= 0) {
      return "— (baseline median 0: below the clock's resolution)";
    }
    return String.format(Locale.ROOT, "%.2f", ours.median() / baseline.median());
  }

  private List<Double> sorted() {
    if (values.isEmpty()) {
      throw new IllegalStateException("no samples of this figure were taken");
    }
    List<Double> s = new ArrayList<>(values);
    s.sort(null);
    return s;
  }
}
